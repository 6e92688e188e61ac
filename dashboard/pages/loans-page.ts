import { css, html, LitElement, nothing } from 'lit';
import { api } from '../api';
import { currentLocation, href } from '../router';
import '../ui/chart';
import type { ChartSeries } from '../ui/chart';
import { day, naira } from '../ui/format';
import { filterStyles, keepInAddress, statusBadge, statusLabel } from '../ui/loans-shared';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';
import { LOAN_STATUSES } from '../../server/shared/loan-statuses';

interface LoanRow {
  id: string;
  clientReference: string | null;
  status: string;
  borrowerName: string;
  productName: string;
  principalKobo: number;
  outstandingKobo: number;
  inArrears: boolean;
  createdAt: string;
}

interface Funnel {
  pushed: number;
  offerIssued: number;
  acceptedByBorrower: number;
  disbursed: number;
  declinedByBorrower: number;
  declinedByPartner: number;
  expired: number;
}

interface Filters {
  q: string;
  status: string;
  product: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { q: '', status: '', product: '', from: '', to: '' };

/**
 * Loans: the pre-approval funnel as a bar chart, filters (status, product, created between two days) and search by
 * reference (the short reference on the borrower's receipt, the loan id or the partner's own reference), the list
 * newest first, one keyset page at a time ("Load more" appends the next). The first page is asked for as soon as the page exists, before the funnel and the products.
 */
export class DashLoansPage extends LitElement {
  static override styles = [
    dashStyles,
    filterStyles,
    css`
      .funnel { min-height: 4rem; }
    `,
  ];
  static override properties = {
    mode: {},
    funnel: { state: true },
    products: { state: true },
    applied: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  private list = new KeysetList<LoanRow>(this, { path: '/loans', limit: 50, failure: 'The loans could not be loaded.', query: () => this.applied });
  funnel: Funnel | undefined;
  products: Array<{ id: string; name: string }> = [];
  applied: Filters = { ...EMPTY };
  private draft: Filters = { ...EMPTY };

  override connectedCallback(): void {
    super.connectedCallback();
    const query = currentLocation().query;
    this.applied = { q: query.get('q') ?? '', status: query.get('status') ?? '', product: query.get('product') ?? '', from: query.get('from') ?? '', to: query.get('to') ?? '' };
    this.draft = { ...this.applied };
    void this.list.load(false);
    void api.get<Funnel>('/loans/funnel').then((f) => (this.funnel = f), () => undefined);
    void api.get<Array<{ id: string; name: string }>>('/loans/products').then((p) => (this.products = p), () => undefined);
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

  private renderFunnel() {
    const f = this.funnel;
    if (!f) return html`<p class="muted funnel">Loading the funnel…</p>`;
    if (f.pushed === 0) return html`<p class="muted funnel">No pre-approvals yet: push a decision with <code>POST /v1/preapprovals</code> and the funnel fills in.</p>`;
    // The funnel proper (each stage within the one before); where the rest went is said in words below it.
    const labels = ['Pushed', 'Offered', 'Accepted', 'Disbursed'];
    const series: ChartSeries[] = [{ label: 'Pre-approvals', color: '#4338ca', values: [f.pushed, f.offerIssued, f.acceptedByBorrower, f.disbursed] }];
    return html`<dash-chart kind="bars" .labels=${labels} .series=${series} caption="Pre-approvals by the furthest stage reached"></dash-chart>
      <p class="muted">Declined by the borrower: ${f.declinedByBorrower} · declined by you: ${f.declinedByPartner} · expired unanswered: ${f.expired}</p>`;
  }

  private renderTable() {
    if (this.list.loading === 'first' && this.list.rows.length === 0) return html`<p class="muted" aria-busy="true">Loading loans…</p>`;
    const filtered = Object.values(this.applied).some(Boolean);
    if (this.list.rows.length === 0) {
      return html`<div class="card empty" data-state="loaded" data-query=${this.applied.q} data-status=${this.applied.status}>
        ${filtered
          ? html`<p>No loan matches these filters.</p><button class="secondary" @click=${this.clear}>Clear the filters</button>`
          : html`<p>No loans in ${this.mode} mode yet.</p>
              <p class="muted">Loans appear here once a borrower applies: push a pre-approval (<code>POST /v1/preapprovals</code>) or create a loan through the API.</p>`}
      </div>`;
    }
    return html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Loans" data-state=${this.list.loading ? 'loading' : 'loaded'} data-query=${this.applied.q} data-status=${this.applied.status}>
        <table class="cards">
          <caption class="visually-hidden">Loans, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Borrower</th>
              <th scope="col">Product</th>
              <th scope="col" class="num">Principal</th>
              <th scope="col" class="num">Outstanding</th>
              <th scope="col">Status</th>
              <th scope="col" class="nowrap">Created</th>
            </tr>
          </thead>
          <tbody>
            ${this.list.rows.map(
              (loan) => html`<tr data-loan-id=${loan.id}>
                <td data-label="Reference"><a href=${href(`/loans/${loan.id}`)}>${loan.clientReference ?? `${loan.id.slice(0, 8)}…`}</a></td>
                <td data-label="Borrower">${loan.borrowerName}</td>
                <td data-label="Product">${loan.productName}</td>
                <td class="num" data-label="Principal">${naira(loan.principalKobo)}</td>
                <td class="num" data-label="Outstanding">${naira(loan.outstandingKobo)}</td>
                <td data-label="Status">${statusBadge(loan.status, loan.inArrears ? ' · in arrears' : '')}</td>
                <td class="nowrap" data-label="Created">${day(loan.createdAt)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="more">
        ${this.list.nextCursor
          ? html`<button class="secondary" ?disabled=${this.list.loading === 'more'} @click=${() => this.list.load(true)}>${this.list.loading === 'more' ? 'Loading…' : 'Load more'}</button>`
          : html`<span class="muted">${this.list.rows.length} loan${this.list.rows.length === 1 ? '' : 's'}, all shown</span>`}
      </div>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Loans</h1>
      <section class="card" aria-labelledby="funnel-title">
        <h2 id="funnel-title">Funnel</h2>
        ${this.renderFunnel()}
      </section>
      <form class="filters" role="search" @submit=${this.apply}>
        <div class="search">
          <label for="q">Search by reference</label>
          <input id="q" type="search" name="q" .value=${this.draft.q} placeholder="e.g. 1Q4Z-Z9YW, a loan id or your reference" autocomplete="off" @input=${(e: Event) => this.set('q', (e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="status">Status</label>
          <select id="status" @change=${(e: Event) => this.set('status', (e.target as HTMLSelectElement).value, true)}>
            <option value="" ?selected=${!this.draft.status}>Any status</option>
            ${LOAN_STATUSES.map((s) => html`<option value=${s} ?selected=${this.draft.status === s}>${statusLabel(s)}</option>`)}
          </select>
        </div>
        <div>
          <label for="product">Product</label>
          <select id="product" @change=${(e: Event) => this.set('product', (e.target as HTMLSelectElement).value, true)}>
            <option value="" ?selected=${!this.draft.product}>Any product</option>
            ${this.products.map((p) => html`<option value=${p.id} ?selected=${this.draft.product === p.id}>${p.name}</option>`)}
          </select>
        </div>
        <div>
          <label for="from">Created from</label>
          <input id="from" type="date" .value=${this.draft.from} @change=${(e: Event) => this.set('from', (e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="to">Created to</label>
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
customElements.define('dash-loans-page', DashLoansPage);
