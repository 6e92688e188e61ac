import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { currentLocation, href } from '../router';
import { allowed } from '../session';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { naira, when } from '../ui/format';
import { filterStyles, keepInAddress, statusBadge } from '../ui/loans-shared';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { REVIEW_REASON_WORDS, reasonInWords, reviewAge, reviewEvidence } from '../ui/review-words';

/** One review as the dashboard's queue answers it (`GET /dashboard/api/reviews`). */
export interface QueuedReview {
  id: string;
  loanId: string;
  status: 'open' | 'closed';
  openedReason: string;
  evidence: Record<string, unknown>;
  closedReason: 'cleared' | 'rejected' | 'cancelled' | null;
  closedBy: string | null;
  decidedByName: string | null;
  note: string | null;
  openedAt: string;
  closedAt: string | null;
  loan: { id: string; status: string; principalKobo: number; productName: string; borrowerName: string };
}

interface Filters {
  status: string;
  reason: string;
  /** One loan's reviews (from the loan's page). */
  loanId: string;
}

type Decision = 'clear' | 'reject';
const MIN_REASON = 3;
const OUTCOME: Record<Decision, string> = { clear: 'Cleared', reject: 'Rejected' };
const CLOSED: Record<string, string> = { cleared: 'Cleared', rejected: 'Rejected', cancelled: 'Closed with its loan' };

/**
 * Reviews: the loans waiting for a person, oldest decision first to hand — the queue (open by default; closed or all,
 * and by reason), each review with its age, its loan (amount, product, the borrower's masked name, a link), why it
 * opened in plain words and what the automatic check saw beside what the borrower said. Members who may decide
 * (`reviews.decide`: owner, admin, compliance) clear or reject with a reason (required, at least 3 characters; the
 * refusal shows under the field), and see the outcome in the card; a closed review says who decided, when and why.
 */
export class DashReviewsPage extends LitElement {
  static override styles = [
    dashStyles,
    filterStyles,
    css`
      ol.queue { list-style: none; margin: 0; padding: 0; }
      article.review { display: grid; gap: 0.75rem; }
      article.review header { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: baseline; justify-content: space-between; }
      article.review h2 { font-size: 1.05rem; margin: 0; }
      .age { font-weight: 600; color: var(--dash-warn); white-space: nowrap; }
      /* An event name is one word: it moves to the next line whole rather than breaking at a letter. */
      .hint code { white-space: nowrap; overflow-wrap: normal; word-break: normal; }
      .loan { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; margin: 0; }
      .loan a { font-weight: 600; }
      .evidence { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
      .evidence .side { background: var(--dash-surface); border-radius: 8px; padding: 0.6rem 0.75rem; min-width: 0; }
      .evidence h3 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--dash-muted); margin: 0 0 0.4rem; }
      .evidence dl { margin: 0; display: grid; grid-template-columns: minmax(7rem, auto) 1fr; gap: 0.25rem 0.75rem; }
      .evidence dt { color: var(--dash-muted); }
      .evidence dd { margin: 0; overflow-wrap: anywhere; }
      form.decide textarea { min-height: 3.5rem; }
      form.decide .buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.5rem; }
      .outcome { margin: 0; font-weight: 600; }
      .decided { margin: 0; }
      @media (max-width: 760px) {
        .evidence { grid-template-columns: 1fr; }
        .evidence dl { grid-template-columns: 1fr; gap: 0; }
        .evidence dd { margin-bottom: 0.35rem; }
      }
    `,
  ];
  static override properties = {
    mode: {},
    applied: { state: true },
    drafts: { state: true },
    errors: { state: true },
    busy: { state: true },
    outcomes: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  applied: Filters = { status: 'open', reason: '', loanId: '' };
  /** The reason typed per review, its field error, the decision in flight, and the outcome once decided. */
  drafts: Record<string, string> = {};
  errors: Record<string, string> = {};
  busy: Record<string, Decision | undefined> = {};
  outcomes: Record<string, string> = {};
  private list = new KeysetList<QueuedReview>(this, { path: '/reviews', limit: 20, failure: 'The reviews could not be loaded.', query: () => this.applied });

  override connectedCallback(): void {
    super.connectedCallback();
    const query = currentLocation().query;
    const status = query.get('status');
    this.applied = { status: status === null ? 'open' : status === 'any' ? '' : status, reason: query.get('reason') ?? '', loanId: query.get('loanId') ?? '' };
    void this.list.load(false);
  }

  private filter(name: keyof Filters, value: string) {
    this.applied = { ...this.applied, [name]: value };
    keepInAddress({ ...this.applied, status: this.applied.status === 'open' ? '' : this.applied.status || 'any' });
    void this.list.load(false);
  }

  private async decide(review: QueuedReview, decision: Decision) {
    const reason = (this.drafts[review.id] ?? '').trim();
    if (reason.length < MIN_REASON) {
      this.errors = { ...this.errors, [review.id]: `Give a reason of at least ${MIN_REASON} characters: it is kept with the decision and sent to your systems.` };
      this.renderRoot.querySelector<HTMLTextAreaElement>(`#reason-${review.id}`)?.focus();
      return;
    }
    this.errors = { ...this.errors, [review.id]: '' };
    this.busy = { ...this.busy, [review.id]: decision };
    try {
      const decided = await api.post<{ review: QueuedReview; loan: { status: string } }>(`/reviews/${review.id}/${decision}`, { reason });
      const after = { ...review, ...decided.review, loan: { ...review.loan, status: decided.loan.status }, decidedByName: 'you' };
      this.list.rows = this.list.rows.map((row) => (row.id === review.id ? after : row));
      this.outcomes = { ...this.outcomes, [review.id]: `${OUTCOME[decision]}. The loan is now ${decided.loan.status.replaceAll('_', ' ')}.` };
    } catch (error) {
      const refused = fieldError(error, { reason: 'Reason' }, 'The decision could not be saved; try again.');
      if (refused.field === 'reason') this.errors = { ...this.errors, [review.id]: refused.message };
      else this.outcomes = { ...this.outcomes, [review.id]: error instanceof DashboardApiError ? error.message : refused.message };
    } finally {
      this.busy = { ...this.busy, [review.id]: undefined };
    }
  }

  private renderEvidence(review: QueuedReview) {
    const { check, borrower } = reviewEvidence(review.openedReason, review.evidence);
    const list = (rows: Array<[string, string]>) =>
      rows.length ? html`<dl>${rows.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>` : html`<p class="muted">Nothing recorded.</p>`;
    return html`<div class="evidence">
      <div class="side"><h3>What the check saw</h3>${list(check)}</div>
      <div class="side"><h3>Given with the loan</h3>${list(borrower)}</div>
    </div>`;
  }

  private renderDecision(review: QueuedReview) {
    const outcome = this.outcomes[review.id];
    if (review.status === 'closed') {
      return html`${outcome ? html`<p class="outcome" role="status">${outcome}</p>` : nothing}
        <p class="decided">
          <strong>${CLOSED[review.closedReason ?? ''] ?? review.closedReason}</strong>
          ${review.closedReason === 'cancelled' ? nothing : html` by ${review.decidedByName ?? 'someone'}`} on ${when(review.closedAt)}${review.note ? html`: “${review.note}”` : nothing}
        </p>`;
    }
    if (!allowed('reviews.decide')) return html`<p class="muted">Waiting for an owner, an admin or a compliance member to decide.</p>`;
    const id = `reason-${review.id}`;
    const error = this.errors[review.id] || undefined;
    const busy = this.busy[review.id];
    return html`<form class="decide" novalidate @submit=${(e: Event) => e.preventDefault()}>
        <label for=${id}>Reason for your decision</label>
        <textarea
          id=${id}
          maxlength="500"
          required
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${describedBy(id, true, Boolean(error))}
          .value=${this.drafts[review.id] ?? ''}
          @input=${(e: Event) => (this.drafts = { ...this.drafts, [review.id]: (e.target as HTMLTextAreaElement).value })}
        ></textarea>
        <p class="hint" id="${id}-hint">Kept with the review and sent with <code>review.closed</code>. Clearing lets the loan go on; rejecting rejects it.</p>
        ${fieldErrorLine(id, error)}
        <div class="buttons">
          <button type="button" ?disabled=${Boolean(busy)} @click=${() => this.decide(review, 'clear')}>${busy === 'clear' ? 'Clearing…' : 'Clear'}</button>
          <button type="button" class="danger" ?disabled=${Boolean(busy)} @click=${() => this.decide(review, 'reject')}>${busy === 'reject' ? 'Rejecting…' : 'Reject'}</button>
        </div>
      </form>
      ${outcome ? html`<p class="outcome error" role="alert">${outcome}</p>` : nothing}`;
  }

  private renderReview(review: QueuedReview) {
    const now = Date.now();
    return html`<li>
      <article class="card review" data-review-id=${review.id} data-status=${review.status} aria-labelledby="title-${review.id}">
        <header>
          <h2 id="title-${review.id}">${reasonInWords(review.openedReason)}</h2>
          ${review.status === 'open'
            ? html`<span class="age" title=${`Opened ${when(review.openedAt)}`}>${reviewAge(review.openedAt, now)}</span>`
            : html`<span class="muted">Opened ${when(review.openedAt)}</span>`}
        </header>
        <p class="loan">
          <a href=${href(`/loans/${review.loan.id}`)}>${naira(review.loan.principalKobo)} · ${review.loan.borrowerName}</a>
          <span class="muted">${review.loan.productName}</span>
          ${statusBadge(review.loan.status)}
        </p>
        ${this.renderEvidence(review)} ${this.renderDecision(review)}
      </article>
    </li>`;
  }

  private renderQueue() {
    if (this.list.loading === 'first' && this.list.rows.length === 0) return html`<p class="muted" aria-busy="true">Loading reviews…</p>`;
    if (this.list.rows.length === 0) {
      return html`<div class="card empty" data-state="loaded">
        <p>${this.applied.status === 'open' ? `Nothing waits for a person in ${this.mode} mode.` : 'No review matches these filters.'}</p>
        <p class="muted">A loan waits here when an automatic check cannot pass it: no AML screen or a screen hit, an identity the provider could not decide, a bank account in another name.</p>
      </div>`;
    }
    return html`<ol class="queue" aria-label="Reviews" data-state=${this.list.loading ? 'loading' : 'loaded'}>
        ${this.list.rows.map((review) => this.renderReview(review))}
      </ol>
      <div class="more">
        ${this.list.nextCursor
          ? html`<button class="secondary" ?disabled=${this.list.loading === 'more'} @click=${() => this.list.load(true)}>${this.list.loading === 'more' ? 'Loading…' : 'Load more'}</button>`
          : html`<span class="muted">${this.list.rows.length} review${this.list.rows.length === 1 ? '' : 's'}, all shown</span>`}
      </div>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Reviews</h1>
      <p class="muted">Loans waiting for a person’s decision, newest first.</p>
      <form class="filters" role="search" @submit=${(e: Event) => e.preventDefault()}>
        <div>
          <label for="status">Status</label>
          <select id="status" @change=${(e: Event) => this.filter('status', (e.target as HTMLSelectElement).value === 'any' ? '' : (e.target as HTMLSelectElement).value)}>
            <option value="open" ?selected=${this.applied.status === 'open'}>Open</option>
            <option value="closed" ?selected=${this.applied.status === 'closed'}>Closed</option>
            <option value="any" ?selected=${!this.applied.status}>Open and closed</option>
          </select>
        </div>
        <div>
          <label for="reason">Reason</label>
          <select id="reason" @change=${(e: Event) => this.filter('reason', (e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${!this.applied.reason}>Any reason</option>
            ${Object.entries(REVIEW_REASON_WORDS).map(([code, words]) => html`<option value=${code} ?selected=${this.applied.reason === code}>${words}</option>`)}
          </select>
        </div>
      </form>
      ${this.applied.loanId
        ? html`<p>Showing one loan’s reviews. <button type="button" class="secondary" @click=${() => this.filter('loanId', '')}>Show every loan</button></p>`
        : nothing}
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing} ${this.renderQueue()}`;
  }
}
customElements.define('dash-reviews-page', DashReviewsPage);
