import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { href } from '../router';
import { allowed } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import { day, naira, when } from '../ui/format';
import { statusBadge, statusLabel } from '../ui/loans-shared';
import { dashStyles } from '../ui/styles';

type Action = 'approve' | 'reject' | 'cancel' | 'disburse';

interface Timeline {
  loan: {
    id: string;
    status: string;
    clientReference: string | null;
    principalKobo: number;
    outstandingKobo: number;
    amountPaidKobo: number;
    interestRateBps: number;
    tenorDays: number;
    repaymentFrequency: string;
    settlementDestination: string;
    approvalMode: string;
    kycTier: string;
    documentReference: string | null;
    disbursementReference: string | null;
    inArrears: boolean;
    createdAt: string;
  };
  borrower: { name: string; phone: string; email: string | null };
  product: { code: string; name: string };
  actions: Action[];
  statusHistory: Array<{ status: string; at: string; event: string | null }>;
  events: Array<{ id: string; name: string; at: string; status: string | null }>;
  consents: Array<{ id: string; kind: string; signatureFullName: string; ipAddress: string; userAgent: string; signedAt: string; documentReference: string; reason: string | null; signatureNameMatch: string | null }>;
  offerLetter: { url: string; expiresAt: string; documentReference: string } | null;
  offerLetters: Array<{ documentReference: string; variant: string; createdAt: string }>;
  schedule: Array<{ installmentNumber: number; dueDate: string; principalKobo: number; interestKobo: number; feeKobo: number; lateFeeKobo: number; totalKobo: number; amountPaidKobo: number; status: string }>;
  repayments: Array<{ id: string; method: string; status: string; amountKobo: number; createdAt: string }>;
  mandates: Array<{ id: string; provider: string; status: string; reference: string; amountKobo: number; activatedAt: string | null }>;
  ledger: Array<{ id: string; reference: string; kind: string; at: string; postings: Array<{ accountKind: string; accountCode: string; amountKobo: number }> }>;
}

const ACTIONS: Record<Action, { label: string; done: string; danger: boolean }> = {
  approve: { label: 'Approve', done: 'Loan approved: the offer was issued to the borrower.', danger: false },
  reject: { label: 'Reject', done: 'Loan rejected.', danger: true },
  cancel: { label: 'Cancel', done: 'Loan cancelled.', danger: true },
  disburse: { label: 'Disburse', done: 'Loan disbursed from the capital pool.', danger: false },
};

/**
 * One loan (`/loans/:id`): what it is, the actions its state allows (approve, reject, cancel, disburse — each behind a
 * confirmation naming the amount and the borrower; shown only to roles with `loans.act`), then its timeline (status
 * history and every event), consent evidence, offer letter, schedule, repayments, mandate and ledger postings.
 */
export class DashLoanPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0; }
      dt { color: var(--dash-muted); }
      dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
      ol.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid var(--dash-border); }
      ol.timeline li { position: relative; padding: 0 0 0.75rem 1rem; }
      ol.timeline li::before { content: ''; position: absolute; left: -6px; top: 0.45rem; width: 10px; height: 10px; border-radius: 50%; background: var(--dash-primary); }
      .actions { margin-top: 1rem; }
      .actions label { margin-top: 0; }
      .reason { max-width: 28rem; }
      .back { display: inline-block; margin-bottom: 0.5rem; }
      h1 { overflow-wrap: anywhere; }
      .card > h2:first-child { margin-top: 0; }
      h3 { font-size: 1rem; margin: 0.5rem 0; }
      .nowrap { white-space: nowrap; }
    `,
  ];
  static override properties = { mode: {}, data: { state: true }, error: { state: true }, pending: { state: true }, done: { state: true } };
  mode: 'test' | 'live' = 'test';
  data: Timeline | undefined;
  error = '';
  pending: Action | '' = '';
  done = '';
  private reason = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.data = await api.get<Timeline>(`/loans/${encodeURIComponent(this.id)}`);
    } catch (error) {
      this.error = error instanceof DashboardApiError && error.status === 404 ? `There is no loan ${this.id} in ${this.mode} mode.` : (error as Error).message;
    }
  }

  private async act(action: Action) {
    const data = this.data!;
    const amount = naira(data.loan.principalKobo);
    const who = data.borrower.name;
    const bodies: Record<Action, string> = {
      approve: `Approve ${amount} for ${who}? The offer is issued and the borrower is asked to accept it.`,
      reject: `Reject the ${amount} loan of ${who}? This is final.`,
      cancel: `Cancel the ${amount} loan of ${who}? This is final; no money has moved yet.`,
      disburse: `Disburse ${amount} to ${who} from the capital pool? Money leaves the pool now and cannot be called back.`,
    };
    const confirmed = await confirmAction({ title: `${ACTIONS[action].label} this loan?`, body: bodies[action], confirm: `${ACTIONS[action].label} ${amount}`, danger: ACTIONS[action].danger });
    if (!confirmed) return;
    this.pending = action;
    this.error = '';
    this.done = '';
    try {
      const reason = this.reason.trim();
      await api.post(`/loans/${encodeURIComponent(data.loan.id)}/${action}`, action === 'reject' || action === 'cancel' ? (reason ? { reason } : {}) : {});
      this.done = ACTIONS[action].done;
      this.reason = '';
      await this.load();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.pending = '';
    }
  }

  private renderActions(data: Timeline) {
    if (!allowed('loans.act') || data.actions.length === 0) return nothing;
    const withReason = data.actions.includes('reject') || data.actions.includes('cancel');
    return html`<div class="actions">
      ${withReason
        ? html`<div class="reason">
            <label for="reason">Reason (for a rejection or a cancellation, optional)</label>
            <input id="reason" maxlength="500" .value=${this.reason} @input=${(e: Event) => (this.reason = (e.target as HTMLInputElement).value)} />
          </div>`
        : nothing}
      <div class="row">
        ${data.actions.map(
          (action) => html`<button class=${ACTIONS[action].danger ? 'secondary' : ''} ?disabled=${this.pending !== ''} @click=${() => this.act(action)}>
            ${this.pending === action ? 'Working…' : `${ACTIONS[action].label} loan`}
          </button>`,
        )}
      </div>
    </div>`;
  }

  private renderTimeline(data: Timeline) {
    return html`<section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <h3>Status history</h3>
      <ol class="timeline">
        ${data.statusHistory.map((s) => html`<li><strong>${statusLabel(s.status)}</strong> <span class="muted">· ${when(s.at)}${s.event ? html` · <code>${s.event}</code>` : nothing}</span></li>`)}
      </ol>
      <details>
        <summary>All events (${data.events.length})</summary>
        <div class="table-wrap" tabindex="0" role="region" aria-label="Events (scrolls sideways)">
          <table>
            <thead><tr><th scope="col">Event</th><th scope="col">Status after</th><th scope="col">When</th></tr></thead>
            <tbody>${data.events.map((e) => html`<tr><td><code>${e.name}</code></td><td>${e.status ? statusLabel(e.status) : '—'}</td><td>${when(e.at)}</td></tr>`)}</tbody>
          </table>
        </div>
      </details>
    </section>`;
  }

  private renderDocuments(data: Timeline) {
    return html`<section class="card" aria-labelledby="consent-title">
      <h2 id="consent-title">Offer letter and consent</h2>
      ${data.offerLetter
        ? html`<p><a href=${data.offerLetter.url} target="_blank" rel="noopener">Open the offer letter (PDF)</a> <span class="muted">— link valid until ${when(data.offerLetter.expiresAt)}; reload the page for a new one.</span></p>`
        : html`<p class="muted">No offer yet: the letter exists once the loan is approved.</p>`}
      ${data.consents.length === 0
        ? html`<p class="muted">No consent recorded yet.</p>`
        : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Consents (scrolls sideways)">
            <table>
              <thead><tr><th scope="col">Consent</th><th scope="col">Signed as</th><th scope="col">When</th><th scope="col">IP address</th><th scope="col">Device</th><th scope="col">Document</th></tr></thead>
              <tbody>
                ${data.consents.map(
                  (c) => html`<tr>
                    <td>${c.kind === 'accept' ? 'Accepted' : 'Declined'}${c.reason ? html`<br /><span class="muted">${c.reason}</span>` : nothing}</td>
                    <td>${c.signatureFullName}${c.signatureNameMatch ? html`<br /><span class="muted">name ${c.signatureNameMatch}</span>` : nothing}</td>
                    <td>${when(c.signedAt)}</td>
                    <td class="mono">${c.ipAddress}</td>
                    <td>${c.userAgent}</td>
                    <td class="mono">${c.documentReference}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`}
    </section>`;
  }

  private renderMoney(data: Timeline) {
    return html`<section class="card" aria-labelledby="schedule-title">
        <h2 id="schedule-title">Schedule</h2>
        ${data.schedule.length === 0
          ? html`<p class="muted">No schedule yet: it is built when the loan is approved.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Schedule (scrolls sideways)">
              <table>
                <thead><tr><th scope="col">#</th><th scope="col">Due</th><th scope="col" class="num">Principal</th><th scope="col" class="num">Interest</th><th scope="col" class="num">Fees</th><th scope="col" class="num">Total</th><th scope="col" class="num">Paid</th><th scope="col">Status</th></tr></thead>
                <tbody>
                  ${data.schedule.map(
                    (s) => html`<tr><td>${s.installmentNumber}</td><td class="nowrap">${day(s.dueDate)}</td><td class="num">${naira(s.principalKobo)}</td><td class="num">${naira(s.interestKobo)}</td><td class="num">${naira(s.feeKobo + s.lateFeeKobo)}</td><td class="num">${naira(s.totalKobo + s.lateFeeKobo)}</td><td class="num">${naira(s.amountPaidKobo)}</td><td>${statusLabel(s.status)}</td></tr>`,
                  )}
                </tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="repayments-title">
        <h2 id="repayments-title">Repayments</h2>
        ${data.repayments.length === 0
          ? html`<p class="muted">No repayments yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Repayments (scrolls sideways)">
              <table>
                <thead><tr><th scope="col">When</th><th scope="col">Method</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
                <tbody>${data.repayments.map((r) => html`<tr><td>${when(r.createdAt)}</td><td>${statusLabel(r.method)}</td><td class="num">${naira(r.amountKobo)}</td><td>${statusLabel(r.status)}</td></tr>`)}</tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="mandate-title">
        <h2 id="mandate-title">Mandate</h2>
        ${data.mandates.length === 0
          ? html`<p class="muted">No direct-debit mandate: repayments come through your own collection or the borrower's wallet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Mandates (scrolls sideways)">
              <table>
                <thead><tr><th scope="col">Reference</th><th scope="col">Rail</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Active since</th></tr></thead>
                <tbody>${data.mandates.map((m) => html`<tr><td class="mono">${m.reference}</td><td>${m.provider}</td><td class="num">${naira(m.amountKobo)}</td><td>${statusLabel(m.status)}</td><td>${when(m.activatedAt)}</td></tr>`)}</tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger postings</h2>
        ${data.ledger.length === 0
          ? html`<p class="muted">Nothing posted yet: the ledger moves at disbursement.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Ledger postings (scrolls sideways)">
              <table>
                <thead><tr><th scope="col">Transaction</th><th scope="col">Account</th><th scope="col" class="num">Amount</th></tr></thead>
                <tbody>
                  ${data.ledger.flatMap((t) =>
                    t.postings.map(
                      (p, i) => html`<tr>
                        <td>${i === 0 ? html`<strong>${statusLabel(t.kind)}</strong><br /><span class="mono">${t.reference}</span><br /><span class="muted">${when(t.at)}</span>` : nothing}</td>
                        <td>${statusLabel(p.accountKind)} <span class="mono muted">${p.accountCode}</span></td>
                        <td class="num">${naira(p.amountKobo)}</td>
                      </tr>`,
                    ),
                  )}
                </tbody>
              </table>
            </div>`}
      </section>`;
  }

  override render() {
    const data = this.data;
    if (!data) {
      return html`<a class="back" href=${href('/loans')}>← Loans</a>
        <h1 tabindex="-1">Loan</h1>
        ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : html`<p class="muted" aria-busy="true">Loading the loan…</p>`}`;
    }
    const { loan } = data;
    return html`<a class="back" href=${href('/loans')}>← Loans</a>
      <h1 tabindex="-1">${naira(loan.principalKobo)} to ${data.borrower.name}</h1>
      <p>${statusBadge(loan.status, loan.inArrears ? ' · in arrears' : '')}</p>
      <p role="status">${this.done}</p>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      <section class="card" aria-labelledby="summary-title">
        <h2 id="summary-title" class="visually-hidden">Summary</h2>
        <dl>
          <dt>Loan id</dt><dd class="mono">${loan.id}</dd>
          <dt>Your reference</dt><dd class="mono">${loan.clientReference ?? '—'}</dd>
          <dt>Borrower</dt><dd>${data.borrower.name} · ${data.borrower.phone}</dd>
          <dt>Product</dt><dd>${data.product.name} <span class="muted">(${data.product.code})</span></dd>
          <dt>Principal</dt><dd>${naira(loan.principalKobo)}</dd>
          <dt>Outstanding</dt><dd>${naira(loan.outstandingKobo)} <span class="muted">(paid ${naira(loan.amountPaidKobo)})</span></dd>
          <dt>Terms</dt><dd>${(loan.interestRateBps / 100).toFixed(2)}% · ${loan.tenorDays} days · ${loan.repaymentFrequency}</dd>
          <dt>Pays out to</dt><dd>${statusLabel(loan.settlementDestination)}</dd>
          <dt>Created</dt><dd>${when(loan.createdAt)}</dd>
        </dl>
        ${this.renderActions(data)}
      </section>
      ${this.renderTimeline(data)} ${this.renderDocuments(data)} ${this.renderMoney(data)}`;
  }
}
customElements.define('dash-loan-page', DashLoanPage);
