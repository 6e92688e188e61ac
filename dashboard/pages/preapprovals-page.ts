import { html, LitElement, nothing } from 'lit';
import { currentLocation, href } from '../router';
import { day, naira, when } from '../ui/format';
import { filterStyles, keepInAddress, statusBadge, statusLabel } from '../ui/loans-shared';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';
import { PREAPPROVAL_STATUSES } from '../../server/shared/loan-statuses';

interface PreapprovalRow {
  id: string;
  assessmentId: string;
  clientReference: string | null;
  status: string;
  recommendation: string;
  borrowerName: string;
  approvedAmountKobo: number;
  riskBand: string | null;
  expiresAt: string | null;
  loanId: string | null;
  createdAt: string;
}

interface Filters {
  q: string;
  status: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { q: '', status: '', from: '', to: '' };

/**
 * Pre-approvals: the decisions pushed by the partner (`POST /v1/preapprovals`), newest first, keyset-paged, filtered
 * by status and creation day, searched by reference (pre-approval id, assessment id or the partner's reference); each
 * links to its loan once an offer made one.
 */
export class DashPreapprovalsPage extends LitElement {
  static override styles = [dashStyles, filterStyles];
  static override properties = { mode: {}, applied: { state: true } };
  mode: 'test' | 'live' = 'test';
  private list = new KeysetList<PreapprovalRow>(this, { path: '/preapprovals', limit: 50, failure: 'The pre-approvals could not be loaded.', query: () => this.applied });
  applied: Filters = { ...EMPTY };
  private draft: Filters = { ...EMPTY };

  override connectedCallback(): void {
    super.connectedCallback();
    const query = currentLocation().query;
    this.applied = { q: query.get('q') ?? '', status: query.get('status') ?? '', from: query.get('from') ?? '', to: query.get('to') ?? '' };
    this.draft = { ...this.applied };
    void this.list.load(false);
  }

  private apply(e?: Event) {
    e?.preventDefault();
    this.applied = { ...this.draft, q: this.draft.q.trim() };
    keepInAddress({ ...this.applied });
    void this.list.load(false);
  }

  private clear() {
    this.draft = { ...EMPTY };
    this.renderRoot.querySelector<HTMLFormElement>('form.filters')?.reset();
    this.apply();
  }

  private set(name: keyof Filters, value: string, now = false) {
    this.draft = { ...this.draft, [name]: value };
    if (now) this.apply();
  }

  private renderTable() {
    if (this.list.loading === 'first' && this.list.rows.length === 0) return html`<p class="muted" aria-busy="true">Loading pre-approvals…</p>`;
    if (this.list.rows.length === 0) {
      return html`<div class="card empty" data-state="loaded" data-query=${this.applied.q} data-status=${this.applied.status}>
        ${Object.values(this.applied).some(Boolean)
          ? html`<p>No pre-approval matches these filters.</p><button class="secondary" @click=${this.clear}>Clear the filters</button>`
          : html`<p>No pre-approvals in ${this.mode} mode yet.</p><p class="muted">Push your credit decisions with <code>POST /v1/preapprovals</code>; each appears here with its offer and loan.</p>`}
      </div>`;
    }
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Pre-approvals (scrolls sideways)" data-state=${this.list.loading ? 'loading' : 'loaded'} data-query=${this.applied.q} data-status=${this.applied.status}>
        <table>
          <caption class="visually-hidden">Pre-approvals, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Assessment</th>
              <th scope="col">Borrower</th>
              <th scope="col">Decision</th>
              <th scope="col" class="num">Approved</th>
              <th scope="col">Risk band</th>
              <th scope="col">Status</th>
              <th scope="col" class="nowrap">Expires</th>
              <th scope="col" class="nowrap">Received</th>
              <th scope="col">Loan</th>
            </tr>
          </thead>
          <tbody>
            ${this.list.rows.map(
              (p) => html`<tr data-preapproval-id=${p.id}>
                <td class="mono">${p.assessmentId}${p.clientReference ? html`<br /><span class="muted">${p.clientReference}</span>` : nothing}</td>
                <td>${p.borrowerName}</td>
                <td>${statusLabel(p.recommendation.toLowerCase())}</td>
                <td class="num">${naira(p.approvedAmountKobo)}</td>
                <td>${p.riskBand ?? '—'}</td>
                <td>${statusBadge(p.status)}</td>
                <td class="nowrap">${p.status === 'received' ? when(p.expiresAt) : '—'}</td>
                <td class="nowrap">${day(p.createdAt)}</td>
                <td>${p.loanId ? html`<a href=${href(`/loans/${p.loanId}`)}>Open loan</a>` : html`<span class="muted">none yet</span>`}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="more">
        ${this.list.nextCursor
          ? html`<button class="secondary" ?disabled=${this.list.loading === 'more'} @click=${() => this.list.load(true)}>${this.list.loading === 'more' ? 'Loading…' : 'Load more'}</button>`
          : html`<span class="muted">${this.list.rows.length} pre-approval${this.list.rows.length === 1 ? '' : 's'}, all shown</span>`}
      </div>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Pre-approvals</h1>
      <form class="filters" role="search" @submit=${this.apply}>
        <div class="search">
          <label for="q">Search by reference</label>
          <input id="q" type="search" .value=${this.draft.q} placeholder="Assessment id, pre-approval id or your reference" autocomplete="off" @input=${(e: Event) => this.set('q', (e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="status">Status</label>
          <select id="status" @change=${(e: Event) => this.set('status', (e.target as HTMLSelectElement).value, true)}>
            <option value="" ?selected=${!this.draft.status}>Any status</option>
            ${PREAPPROVAL_STATUSES.map((s) => html`<option value=${s} ?selected=${this.draft.status === s}>${statusLabel(s)}</option>`)}
          </select>
        </div>
        <div>
          <label for="from">Received from</label>
          <input id="from" type="date" .value=${this.draft.from} @change=${(e: Event) => this.set('from', (e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="to">Received to</label>
          <input id="to" type="date" .value=${this.draft.to} @change=${(e: Event) => this.set('to', (e.target as HTMLInputElement).value)} />
        </div>
        <div class="buttons">
          <button type="submit">Search</button>
          <button type="button" class="secondary" @click=${this.clear}>Clear</button>
        </div>
      </form>
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing}
      ${this.renderTable()}`;
  }
}
customElements.define('dash-preapprovals-page', DashPreapprovalsPage);
