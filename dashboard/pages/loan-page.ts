import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { href } from '../router';
import { allowed } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import { day, naira, when } from '../ui/format';
import { statusBadge, statusLabel } from '../ui/loans-shared';
import { dashStyles } from '../ui/styles';
import { reasonInWords, reviewAge } from '../ui/review-words';
import '../ui/copy-button';

/** A review of this loan, as `GET /dashboard/api/reviews?loanId=` answers it. */
interface LoanReview {
  id: string;
  status: 'open' | 'closed';
  openedReason: string;
  closedReason: string | null;
  decidedByName: string | null;
  note: string | null;
  openedAt: string;
  closedAt: string | null;
}

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
    /** The borrower's checkout link; null when there is none, or for a role that may not send it. */
    applicationUrl: string | null;
    checkoutSession: { expiresAt: string; maxExpiresAt: string; revokedAt: string | null } | null;
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
  repayments: Array<{ id: string; method: string; initiatedBy: 'schedule' | 'borrower' | 'partner'; status: string; amountKobo: number; createdAt: string }>;
  mandates: Array<{ id: string; provider: string; status: string; reference: string; amountKobo: number; activatedAt: string | null; bankCode: string | null; accountNumber: string | null }>;
  borrowerActions: BorrowerAction[];
  ledger: Array<{ id: string; reference: string; kind: string; at: string; postings: Array<{ accountKind: string; accountCode: string; amountKobo: number }> }>;
}

/** What the borrower did on their own loan page (`borrowerActions`: payoff quotes, changes of the debit account). */
type BorrowerAction =
  | { kind: 'payoff_quote'; at: string; status: string; amountKobo: number; paidAt: string | null }
  | { kind: 'debit_account_change'; at: string; status: string; bankName: string; accountNumberLast4: string; failureReason: string | null; replacedAt: string | null };

/** How a change of debit account ended, in the lender's words. */
const CHANGE_OUTCOME: Record<string, string> = {
  active: 'the loan is now debited from it',
  pending: 'waiting for the borrower\'s bank',
  declined: 'refused at the borrower\'s bank; the old account stays',
  failed: 'the bank could not set it up; the old account stays',
  expired: 'not approved in time; the old account stays',
  withdrawn: 'replaced by another account the borrower gave',
  nothing_owed: 'not needed: the loan owed nothing by then',
};

function borrowerActionText(action: BorrowerAction): string {
  if (action.kind === 'payoff_quote') {
    return `Asked what paying off costs: ${naira(action.amountKobo)}${action.status === 'paid' ? `, paid ${when(action.paidAt)}` : action.status === 'paying' ? ', payment with the bank' : ''}`;
  }
  const outcome = action.status === 'active' ? CHANGE_OUTCOME.active : action.status === 'pending' ? CHANGE_OUTCOME.pending : CHANGE_OUTCOME[action.failureReason ?? ''] ?? action.status;
  return `Changed the debit account to ${action.bankName} ending ${action.accountNumberLast4}: ${outcome}${action.replacedAt ? ` (${when(action.replacedAt)})` : ''}`;
}

/** How a repayment came about, in the lender's words: who started it (`initiatedBy`), and for the lender's own, how. */
function repaymentSource(r: Timeline['repayments'][number]): string {
  if (r.initiatedBy === 'borrower') return 'Paid by the borrower on their loan page';
  if (r.initiatedBy === 'schedule') return 'Scheduled direct debit';
  const how: Record<string, string> = {
    mandate: 'Direct debit you asked for',
    external: 'Recorded by you: collected on your own rail',
    cash_wallet: 'Recorded by you: from the borrower\'s wallet',
    wallet: 'Recorded by you: undrawn credit back to the pool',
  };
  return how[r.method] ?? `Recorded by you (${statusLabel(r.method)})`;
}

/** Loans the borrower has nothing left to do in the checkout for: no link is offered. */
const CLOSED = ['rejected', 'terms_declined', 'cancelled', 'completed', 'defaulted'];

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
      .wrap { overflow-wrap: anywhere; }
      /* On a phone each posting is a card; the transaction's own lines head its first posting only. */
      @media (max-width: 640px) {
        table.cards td.transaction.continued { display: none; }
        table.cards td.transaction > span { text-align: left; }
      }
      .nowrap { white-space: nowrap; }
      .link-row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 0 0 0.5rem; }
      .link-row input { flex: 1 1 16rem; min-width: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85rem; }
      .link-actions { margin-top: 0.5rem; }
      ul.reviews { margin: 0 0 0.5rem; padding-left: 1.1rem; }
    `,
  ];
  static override properties = {
    mode: {},
    data: { state: true },
    error: { state: true },
    pending: { state: true },
    done: { state: true },
    link: { state: true },
    linkBusy: { state: true },
    linkNote: { state: true },
    linkError: { state: true },
    reviews: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  data: Timeline | undefined;
  error = '';
  pending: Action | '' = '';
  done = '';
  private reason = '';
  /** A new link made on this page: shown once, never fetched again. */
  link: { url: string; expiresAt: string } | undefined;
  linkBusy: 'make' | 'text' | '' = '';
  linkNote = '';
  linkError = '';
  /** The loan's reviews (times it waited for a person), when the member may read them. */
  reviews: LoanReview[] = [];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    if (allowed('reviews.read')) void api.get<LoanReview[]>('/reviews', { loanId: this.id, limit: 20 }).then((rows) => (this.reviews = rows), () => undefined);
  }

  private renderReviews() {
    if (this.reviews.length === 0) return nothing;
    const open = this.reviews.filter((review) => review.status === 'open').length;
    return html`<section class="card" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <p class="muted">${open ? 'This loan waits for a person’s decision.' : 'Times this loan waited for a person’s decision.'}</p>
      <ul class="reviews">
        ${this.reviews.map(
          (review) => html`<li data-review-id=${review.id}>
            <strong>${reasonInWords(review.openedReason)}</strong> — ${review.status === 'open'
              ? html`<span class="badge warn">${reviewAge(review.openedAt, Date.now())}</span>`
              : html`${review.closedReason} ${review.decidedByName ? html`by ${review.decidedByName}` : nothing} on ${when(review.closedAt)}${review.note ? html`: “${review.note}”` : nothing}`}
          </li>`,
        )}
      </ul>
      <a href=${href(`/reviews?status=any&loanId=${encodeURIComponent(this.id)}`)}>${open ? 'Decide in Reviews' : 'See in Reviews'}</a>
    </section>`;
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

  private async makeLink() {
    this.linkBusy = 'make';
    this.linkError = '';
    this.linkNote = '';
    try {
      this.link = await api.post<{ url: string; expiresAt: string }>(`/loans/${encodeURIComponent(this.data!.loan.id)}/checkout-link`);
      this.linkNote = 'New link made: copy it and send it to the borrower yourself. It is shown only now.';
    } catch (error) {
      this.linkError = (error as Error).message;
    } finally {
      this.linkBusy = '';
    }
  }

  private async textLink() {
    const data = this.data!;
    const confirmed = await confirmAction({
      title: 'Text the borrower a new link?',
      body: `A new checkout link goes by text message to ${data.borrower.name}'s phone on record for this loan (never to another number). The old link stops being the loan's link. At most one text every 10 minutes and three a day per loan.`,
      confirm: 'Text the new link',
      danger: false,
    });
    if (!confirmed) return;
    this.linkBusy = 'text';
    this.linkError = '';
    this.linkNote = '';
    try {
      const sent = await api.post<{ sentTo: string }>(`/loans/${encodeURIComponent(data.loan.id)}/checkout-link/text`);
      this.link = undefined;
      // The note and the new link appear together: the field never shows the old link beside "a new link was texted".
      await this.load();
      this.linkNote = `A new link was texted to ${sent.sentTo}.`;
    } catch (error) {
      this.linkError = (error as Error).message;
    } finally {
      this.linkBusy = '';
    }
  }

  /** The borrower's checkout link: copy it, make a new one to pass on, or text a new one to the phone on record. */
  private renderLink(data: Timeline) {
    if (!allowed('loans.act') || CLOSED.includes(data.loan.status)) return nothing;
    const { loan } = data;
    const session = loan.checkoutSession;
    const expired = session !== null && (session.revokedAt !== null || new Date(session.expiresAt).getTime() <= Date.now());
    const current = loan.applicationUrl && !expired ? loan.applicationUrl : null;
    return html`<section class="card" aria-labelledby="link-title">
      <h2 id="link-title">Borrower's checkout link</h2>
      ${current
        ? html`<p class="muted">The link the borrower was sent, valid until ${when(session!.expiresAt)}.</p>
            <label for="current-link">Current checkout link</label>
            <div class="link-row"><input id="current-link" readonly .value=${current} /><dash-copy-button .value=${current} label="Copy link"></dash-copy-button></div>`
        : html`<p class="muted">${loan.applicationUrl ? 'The link the borrower was sent has expired.' : 'The borrower has no link yet.'} Make a new one, or text one to their phone.</p>`}
      ${this.link
        ? html`<label for="new-link">New checkout link</label>
            <div class="link-row"><input id="new-link" readonly .value=${this.link.url} /><dash-copy-button .value=${this.link.url} label="Copy new link"></dash-copy-button></div>
            <p class="hint">Valid until ${when(this.link.expiresAt)}.</p>`
        : nothing}
      <div class="row link-actions">
        <button type="button" class="secondary" ?disabled=${this.linkBusy !== ''} @click=${this.makeLink}>${this.linkBusy === 'make' ? 'Making…' : 'Make a new link'}</button>
        <button type="button" class="secondary" ?disabled=${this.linkBusy !== ''} @click=${this.textLink}>${this.linkBusy === 'text' ? 'Sending…' : 'Text the borrower a new link'}</button>
      </div>
      <p role="status" class="hint">${this.linkNote}</p>
      ${this.linkError ? html`<p role="alert" class="error">${this.linkError}</p>` : nothing}
    </section>`;
  }

  private renderTimeline(data: Timeline) {
    return html`<section class="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <h3>Status history</h3>
      <ol class="timeline">
        ${data.statusHistory.map((s) => html`<li><strong>${statusLabel(s.status)}</strong> <span class="muted">· ${when(s.at)}${s.event ? html` · <code>${s.event}</code>` : nothing}</span></li>`)}
      </ol>
      <h3>Borrower actions</h3>
      ${(data.borrowerActions ?? []).length === 0
        ? html`<p class="muted">None yet. On their loan page the borrower can pay now (listed under Repayments), pay off early and change the account their loan is debited from.</p>`
        : html`<ol class="timeline">
            ${data.borrowerActions.map((a) => html`<li>${borrowerActionText(a)} <span class="muted">· ${when(a.at)}</span></li>`)}
          </ol>`}
      <details>
        <summary>All events (${data.events.length})</summary>
        <div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Events table">
          <table class="cards">
            <thead><tr><th scope="col">Event</th><th scope="col">Status after</th><th scope="col">When</th></tr></thead>
            <tbody>${data.events.map((e) => html`<tr><td data-label="Event"><code>${e.name}</code></td><td data-label="Status after"><span>${e.status ? statusLabel(e.status) : '—'}</span></td><td data-label="When"><span>${when(e.at)}</span></td></tr>`)}</tbody>
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
        : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Consents table">
            <table class="cards">
              <thead><tr><th scope="col">Consent</th><th scope="col">Signed as</th><th scope="col">When</th><th scope="col">IP address</th><th scope="col">Device</th><th scope="col">Document</th></tr></thead>
              <tbody>
                ${data.consents.map(
                  (c) => html`<tr>
                    <td data-label="Consent"><span>${c.kind === 'accept' ? 'Accepted' : 'Declined'}${c.reason ? html`<br /><span class="muted">${c.reason}</span>` : nothing}</span></td>
                    <td data-label="Signed as"><span>${c.signatureFullName}${c.signatureNameMatch ? html`<br /><span class="muted">name ${c.signatureNameMatch}</span>` : nothing}</span></td>
                    <td data-label="When"><span>${when(c.signedAt)}</span></td>
                    <td data-label="IP address"><span class="mono">${c.ipAddress}</span></td>
                    <td data-label="Device"><span class="wrap">${c.userAgent}</span></td>
                    <td data-label="Document"><span class="mono">${c.documentReference}</span></td>
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
          : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Schedule table">
              <table class="cards">
                <thead><tr><th scope="col">#</th><th scope="col">Due</th><th scope="col" class="num">Principal</th><th scope="col" class="num">Interest</th><th scope="col" class="num">Fees</th><th scope="col" class="num">Total</th><th scope="col" class="num">Paid</th><th scope="col">Status</th></tr></thead>
                <tbody>
                  ${data.schedule.map(
                    (s) => html`<tr><td data-label="#">${s.installmentNumber}</td><td class="nowrap" data-label="Due">${day(s.dueDate)}</td><td class="num" data-label="Principal">${naira(s.principalKobo)}</td><td class="num" data-label="Interest">${naira(s.interestKobo)}</td><td class="num" data-label="Fees">${naira(s.feeKobo + s.lateFeeKobo)}</td><td class="num" data-label="Total">${naira(s.totalKobo + s.lateFeeKobo)}</td><td class="num" data-label="Paid">${naira(s.amountPaidKobo)}</td><td data-label="Status">${statusLabel(s.status)}</td></tr>`,
                  )}
                </tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="repayments-title">
        <h2 id="repayments-title">Repayments</h2>
        ${data.repayments.length === 0
          ? html`<p class="muted">No repayments yet.</p>`
          : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Repayments table">
              <table class="cards">
                <thead><tr><th scope="col">When</th><th scope="col">How</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
                <tbody>${data.repayments.map((r) => html`<tr><td data-label="When"><span>${when(r.createdAt)}</span></td><td data-label="How" data-repayment-source=${r.initiatedBy}>${repaymentSource(r)}</td><td class="num" data-label="Amount">${naira(r.amountKobo)}</td><td data-label="Status">${statusLabel(r.status)}</td></tr>`)}</tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="mandate-title">
        <h2 id="mandate-title">Mandate</h2>
        ${data.mandates.length === 0
          ? html`<p class="muted">No direct-debit mandate: repayments come through your own collection or the borrower's wallet.</p>`
          : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Mandates table">
              <table class="cards">
                <thead><tr><th scope="col">Reference</th><th scope="col">Rail</th><th scope="col">Account</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Active since</th></tr></thead>
                <tbody>${data.mandates.map((m) => html`<tr><td data-label="Reference"><span class="mono">${m.reference}</span></td><td data-label="Rail">${m.provider}</td><td data-label="Account"><span>${m.accountNumber ? `${m.bankCode ?? ''} ending ${m.accountNumber.slice(-4)}` : '—'}</span></td><td class="num" data-label="Amount">${naira(m.amountKobo)}</td><td data-label="Status">${statusLabel(m.status)}</td><td data-label="Active since"><span>${when(m.activatedAt)}</span></td></tr>`)}</tbody>
              </table>
            </div>`}
      </section>
      <section class="card" aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger postings</h2>
        ${data.ledger.length === 0
          ? html`<p class="muted">Nothing posted yet: the ledger moves at disbursement.</p>`
          : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Ledger postings table">
              <table class="cards">
                <thead><tr><th scope="col">Transaction</th><th scope="col">Account</th><th scope="col" class="num">Amount</th></tr></thead>
                <tbody>
                  ${data.ledger.flatMap((t) =>
                    t.postings.map(
                      (p, i) => html`<tr>
                        <td class=${i === 0 ? 'transaction' : 'transaction continued'} data-label="Transaction">${i === 0 ? html`<span><strong>${statusLabel(t.kind)}</strong><br /><span class="mono">${t.reference}</span><br /><span class="muted">${when(t.at)}</span></span>` : nothing}</td>
                        <td data-label="Account"><span>${statusLabel(p.accountKind)} <span class="mono muted">${p.accountCode}</span></span></td>
                        <td class="num" data-label="Amount">${naira(p.amountKobo)}</td>
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
      <p role="status" data-testid="loan-action-status">${this.done}</p>
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
      ${this.renderReviews()} ${this.renderLink(data)} ${this.renderTimeline(data)} ${this.renderDocuments(data)} ${this.renderMoney(data)}`;
  }
}
customElements.define('dash-loan-page', DashLoanPage);
