import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { naira, when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';

interface LoanPage {
  loan: {
    id: string;
    status: string;
    principalKobo: number;
    outstandingKobo: number;
    amountPaidKobo: number;
    disbursedAmountKobo: number | null;
    disbursedAt: string | null;
    tenorDays: number;
    rejectionReason: string | null;
    createdAt: string;
  };
  organisation: { id: string; name: string };
  mode: 'test' | 'live';
  borrower: { name: string; phone: string };
  product: { name: string };
  statusHistory: Array<{ status: string; at: string; event: string | null }>;
  events: Array<{ id: string; name: string; at: string; status: string | null }>;
  schedule: Array<{ id: string; installmentNumber: number; dueDate: string; totalKobo: number; amountPaidKobo: number; status: string }>;
  repayments: Array<{ id: string; reference: string; method: string; initiatedBy: string; status: string; amountKobo: number; createdAt: string }>;
  reviews: Array<{ id: string; openedReason: string; decidedBy: string; status: string; closedReason: string | null; note: string | null; openedAt: string; closedAt: string | null }>;
  actions: { openReviewId: string | null; writeOff: boolean; proposalId: string | null };
}

const words = (code: string) => code.replace(/_/g, ' ');
const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');
const REASON_LABELS = { reason: 'Reason' };

/**
 * `<ops-loan>`: a loan's page in the console (`/ops/loans/<id>`), reached from the home's search and the queues: the
 * dashboard's loan facts (status and its history, amounts, schedule, repayments, events, reviews) for a loan of any
 * organisation. Read-only, except what a queue would offer for it: deciding its open review, or proposing to write it
 * off when it is active and in arrears (four eyes in live mode).
 */
export class OpsLoan extends LitElement {
  static override styles = [
    dashStyles,
    css`
      dl.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: 0.5rem 1rem; margin: 0 0 1rem; }
      dl.facts div { min-width: 0; }
      dl.facts dt { font-size: 0.85rem; color: var(--dash-muted, #555); }
      dl.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
      .id { overflow-wrap: anywhere; }
      form.decide { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
      form.decide input { flex: 1 1 14rem; min-width: 0; }
      form.decide .field-error { flex-basis: 100%; margin: 0; }
      ol.history { padding-left: 1.2rem; }
    `,
  ];
  static override properties = { loanId: { attribute: false }, page: { state: true }, failure: { state: true }, message: { state: true }, fieldErrors: { state: true } };
  loanId = '';
  page: LoanPage | undefined;
  failure = '';
  message = '';
  fieldErrors: Record<string, string> = {};

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('loanId') && this.loanId) void this.load();
  }

  private async load() {
    this.failure = '';
    try {
      this.page = await opsApi.get<LoanPage>(`/loans/${encodeURIComponent(this.loanId)}`);
    } catch (error) {
      this.page = undefined;
      this.failure = error instanceof DashboardApiError && error.status === 404 ? 'No loan has this id.' : messageOf(error);
    }
  }

  private async act(event: SubmitEvent, path: string, body: (form: FormData, submitter: HTMLButtonElement | null) => unknown, done: string) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.message = '';
    this.failure = '';
    this.fieldErrors = {};
    try {
      const data = await opsApi.post<{ outcome?: string }>(path, body(new FormData(form), event.submitter as HTMLButtonElement | null));
      this.message = data?.outcome === 'proposed' ? 'Proposed: another staff member must approve it under Proposals.' : done;
      await this.load();
    } catch (error) {
      const { field, message } = fieldError(error, REASON_LABELS, messageOf(error));
      const control = field ? form.querySelector<HTMLElement>(`[name="${field}"]`) : null;
      if (control?.id) this.fieldErrors = { [control.id]: message };
      else this.failure = message;
    }
  }

  private reasonField(id: string, label: string) {
    const message = this.fieldErrors[id];
    return html`<label for=${id}>${label}</label>
      <input id=${id} name="reason" required minlength="3" maxlength="500" aria-invalid=${message ? 'true' : nothing} aria-describedby=${describedBy(id, false, Boolean(message))} />
      ${fieldErrorLine(id, message)}${message ? html`<p class="visually-hidden" role="alert">${label}: ${message}</p>` : nothing}`;
  }

  private actions(page: LoanPage) {
    const { openReviewId, writeOff, proposalId } = page.actions;
    if (!openReviewId && !writeOff && !proposalId) return nothing;
    return html`<section class="card" aria-labelledby="loan-actions">
      <h2 id="loan-actions">What the queues offer for this loan</h2>
      ${openReviewId
        ? html`<form class="decide" aria-label="Decide the open review" @submit=${(e: SubmitEvent) =>
            this.act(e, `/reviews/${openReviewId}/decide`, (f, submitter) => ({ decision: submitter?.value ?? 'clear', reason: f.get('reason') }), 'Review decided.')}>
            ${this.reasonField('review-reason', 'Reason for your decision on the review')}
            <button value="clear">Clear the review</button><button class="secondary" value="reject">Reject the loan</button>
          </form>`
        : nothing}
      ${proposalId
        ? html`<p class="notice">A write-off of this loan awaits a second staff member under Proposals.</p>`
        : writeOff
          ? html`<form class="decide" aria-label="Write off this loan" @submit=${(e: SubmitEvent) => this.act(e, `/loans/${page.loan.id}/write-off`, (f) => ({ reason: f.get('reason') }), 'Loan written off.')}>
              ${this.reasonField('write-off-reason', 'Reason to write it off')}
              <button class="secondary">Write off (live: a proposal)</button>
            </form>`
          : nothing}
    </section>`;
  }

  override render() {
    const status = html`<div role="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}`;
    const page = this.page;
    if (!page) return html`<h1>Loan</h1>${status}${this.failure ? nothing : html`<p role="status">Loading…</p>`}`;
    const { loan } = page;
    return html`<h1>Loan of ${naira(loan.principalKobo)}</h1>
      <p class="id"><code>${loan.id}</code> · ${page.organisation.name} <span class="badge ${page.mode === 'live' ? 'warn' : 'test'}">${page.mode}</span> <span class="badge">${words(loan.status)}</span></p>
      <p class="muted">Read-only: the partner's loan as its dashboard shows it.</p>
      ${status}
      ${this.actions(page)}
      <section class="card" aria-labelledby="loan-facts">
        <h2 id="loan-facts">Facts</h2>
        <dl class="facts">
          <div><dt>Borrower</dt><dd>${page.borrower.name} · ${page.borrower.phone}</dd></div>
          <div><dt>Product</dt><dd>${page.product.name}</dd></div>
          <div><dt>Principal</dt><dd>${naira(loan.principalKobo)}</dd></div>
          <div><dt>Outstanding</dt><dd>${naira(loan.outstandingKobo)}</dd></div>
          <div><dt>Paid</dt><dd>${naira(loan.amountPaidKobo)}</dd></div>
          <div><dt>Disbursed</dt><dd>${loan.disbursedAmountKobo === null ? '—' : `${naira(loan.disbursedAmountKobo)} · ${when(loan.disbursedAt)}`}</dd></div>
          <div><dt>Tenor</dt><dd>${loan.tenorDays} days</dd></div>
          <div><dt>Created</dt><dd>${when(loan.createdAt)}</dd></div>
          ${loan.rejectionReason ? html`<div><dt>Rejection reason</dt><dd>${loan.rejectionReason}</dd></div>` : nothing}
        </dl>
        <h3>Status history</h3>
        <ol class="history">${page.statusHistory.map((s) => html`<li>${words(s.status)} · ${when(s.at)}</li>`)}</ol>
      </section>
      <section class="card" aria-labelledby="loan-reviews">
        <h2 id="loan-reviews">Reviews</h2>
        ${page.reviews.length === 0
          ? html`<p class="muted">No review.</p>`
          : html`<div class="table-wrap has-cards"><table class="cards">
              <thead><tr><th>Opened</th><th>Why</th><th>Decided by</th><th>Status</th><th>Note</th></tr></thead>
              <tbody>${page.reviews.map(
                (r) => html`<tr><td data-label="Opened">${when(r.openedAt)}</td><td data-label="Why">${words(r.openedReason)}</td>
                  <td data-label="Decided by">${r.decidedBy === 'service' ? 'the service (staff)' : 'the partner'}</td>
                  <td data-label="Status">${r.status === 'open' ? 'open' : `${r.closedReason ?? 'closed'} · ${when(r.closedAt)}`}</td><td data-label="Note">${r.note ?? '—'}</td></tr>`,
              )}</tbody></table></div>`}
      </section>
      <section class="card" aria-labelledby="loan-schedule">
        <h2 id="loan-schedule">Schedule</h2>
        ${page.schedule.length === 0
          ? html`<p class="muted">No schedule yet (before the offer).</p>`
          : html`<div class="table-wrap has-cards"><table class="cards">
              <thead><tr><th>#</th><th>Due</th><th class="num">Amount</th><th class="num">Paid</th><th>Status</th></tr></thead>
              <tbody>${page.schedule.map(
                (s) => html`<tr><td data-label="#">${s.installmentNumber}</td><td data-label="Due">${s.dueDate.slice(0, 10)}</td><td data-label="Amount" class="num">${naira(s.totalKobo)}</td>
                  <td data-label="Paid" class="num">${naira(s.amountPaidKobo)}</td><td data-label="Status">${words(s.status)}</td></tr>`,
              )}</tbody></table></div>`}
      </section>
      <section class="card" aria-labelledby="loan-repayments">
        <h2 id="loan-repayments">Repayments</h2>
        ${page.repayments.length === 0
          ? html`<p class="muted">No repayment yet.</p>`
          : html`<div class="table-wrap has-cards"><table class="cards">
              <thead><tr><th>When</th><th class="num">Amount</th><th>Method</th><th>Started by</th><th>Status</th><th>Reference</th></tr></thead>
              <tbody>${page.repayments.map(
                (r) => html`<tr><td data-label="When">${when(r.createdAt)}</td><td data-label="Amount" class="num">${naira(r.amountKobo)}</td><td data-label="Method">${words(r.method)}</td>
                  <td data-label="Started by">${r.initiatedBy}</td><td data-label="Status">${r.status}</td><td data-label="Reference"><span class="mono">${r.reference}</span></td></tr>`,
              )}</tbody></table></div>`}
      </section>
      <section class="card" aria-labelledby="loan-events">
        <h2 id="loan-events">Events</h2>
        <ol class="history">${page.events.map((e) => html`<li><code>${e.name}</code>${e.status ? ` · ${words(e.status)}` : ''} · ${when(e.at)}</li>`)}</ol>
      </section>`;
  }
}

customElements.define('ops-loan', OpsLoan);
