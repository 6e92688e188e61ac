import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { naira, when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';

interface Application {
  sdkReference: string;
  status: string;
  treatment: string;
  amountKobo: number;
  expiresAt: string;
  options: Array<{ tenorMonths: number }> | null;
  riskBand: string | null;
  rejectionReason: string | null;
  clientReference: string;
  invoiceReference: string | null;
  firstName: string;
  phoneLast4: string;
  createdAt: string;
  updatedAt: string;
}

interface ApplicationDetail extends Application {
  submittedAt: string | null;
  decidedAt: string | null;
  history: Array<{ status: string; at: string }>;
}

const STATUSES = ['initiated', 'application_submitted', 'approved', 'rejected', 'offer_accepted', 'offer_rejected', 'disbursed', 'completed', 'defaulted', 'cancelled', 'expired'];
const label = (status: string) => status.replace(/_/g, ' ');
const BADGE: Record<string, string> = { approved: 'ok', disbursed: 'ok', completed: 'ok', offer_accepted: 'ok', rejected: 'bad', defaulted: 'bad', cancelled: 'bad', expired: 'warn', offer_rejected: 'warn' };
const badge = (status: string) => html`<span class="badge ${BADGE[status] ?? ''}">${label(status)}</span>`;

/**
 * Patient-financing applications (clinics): the organisation's in this mode, newest first, a page at a time (keyset),
 * filtered by status, found by reference; an application's details and status history.
 */
export class DashFinancingPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .filters { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); align-items: end; margin-bottom: 1rem; }
      .filters button { margin-top: 0.75rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0 0 1rem; }
      dt { color: var(--dash-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
      ol.history { margin: 0; padding-left: 1.25rem; }
      ol.history li { margin: 0.25rem 0; }
      .more { margin-top: 1rem; }
      /* The visually hidden caption and header text are absolutely positioned: keep them inside the scrolling box. */
      .table-wrap { position: relative; }
      .card h2 { margin: 0; }
      .card .spread { margin-bottom: 0.75rem; }
    `,
  ];
  static override properties = {
    mode: {},
    detail: { state: true },
    detailError: { state: true },
  };
  declare mode: 'test' | 'live';
  declare detail: ApplicationDetail | undefined;
  declare detailError: string;
  private filters = { status: '', reference: '' };
  private list = new KeysetList<Application>(this, { path: '/financing', limit: 25, failure: 'The applications could not be loaded.', query: () => this.filters });

  constructor() {
    super();
    this.mode = 'test';
    this.detailError = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.load();
  }

  private filter(event: Event) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = { status: String(data.get('status') ?? ''), reference: String(data.get('reference') ?? '').trim() };
    void this.list.load();
  }

  private async open(id: string) {
    this.detailError = '';
    try {
      this.detail = await api.get<ApplicationDetail>(`/financing/${encodeURIComponent(id)}`);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#detail-heading')?.focus();
    } catch (error) {
      this.detailError = error instanceof DashboardApiError ? error.message : 'The application could not be loaded.';
    }
  }

  private renderDetail() {
    const d = this.detail;
    if (this.detailError) return html`<p role="alert" class="error">${this.detailError}</p>`;
    if (!d) return nothing;
    return html`<section class="card" aria-labelledby="detail-heading">
      <div class="spread">
        <h2 id="detail-heading" tabindex="-1">Application ${d.clientReference}</h2>
        <button class="secondary" @click=${() => (this.detail = undefined)}>Close</button>
      </div>
      <dl>
        <dt>Status</dt><dd>${badge(d.status)}${d.rejectionReason ? ` (${label(d.rejectionReason)})` : ''}</dd>
        <dt>Patient</dt><dd>${d.firstName}, phone ending ${d.phoneLast4}</dd>
        <dt>Treatment</dt><dd>${d.treatment}, ${naira(d.amountKobo)}</dd>
        <dt>Invoice</dt><dd>${d.invoiceReference ?? '—'}</dd>
        <dt>sdkReference</dt><dd class="mono">${d.sdkReference}</dd>
        <dt>Risk band</dt><dd>${d.riskBand ?? '—'}</dd>
        <dt>Tenors offered</dt><dd>${d.options?.length ? d.options.map((o) => `${o.tenorMonths} months`).join(', ') : '—'}</dd>
        <dt>Expires</dt><dd>${when(d.expiresAt)}</dd>
      </dl>
      <h3>Status history</h3>
      <ol class="history">
        ${d.history.map((h) => html`<li>${badge(h.status)} <span class="muted">${when(h.at)}</span></li>`)}
      </ol>
    </section>`;
  }

  override render() {
    const filtered = Boolean(this.filters.status || this.filters.reference);
    return html`<h1 tabindex="-1">Financing applications</h1>
      <p class="muted">Your patients' ${this.mode} financing applications, newest first.</p>
      <form class="filters" @submit=${this.filter} aria-label="Filter applications" role="search">
        <div>
          <label for="status">Status</label>
          <select id="status" name="status">
            <option value="">Any status</option>
            ${STATUSES.map((s) => html`<option value=${s} ?selected=${this.filters.status === s}>${label(s)}</option>`)}
          </select>
        </div>
        <div>
          <label for="reference">Reference</label>
          <input id="reference" name="reference" type="search" .value=${this.filters.reference} placeholder="clientReference, invoice or sdkReference" />
        </div>
        <div><button type="submit" class="secondary">Search</button></div>
      </form>
      ${this.renderDetail()}
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing}
      ${this.list.rows.length === 0 && !this.list.loading && !this.list.error
        ? html`<div class="card"><p>${filtered ? 'No application matches.' : 'No financing applications yet.'}</p>
            <p class="hint">${filtered ? 'The reference must match exactly; change the search or the status.' : 'Start one with POST /api/v1/sdk/loans/initiate using an API key of this mode; it appears here.'}</p></div>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">Financing applications</caption>
              <thead><tr><th scope="col">Created</th><th scope="col">Reference</th><th scope="col">Patient</th><th scope="col">Treatment</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
              <tbody>
                ${this.list.rows.map(
                  (a) => html`<tr>
                    <td>${when(a.createdAt)}</td>
                    <td class="mono">${a.clientReference}</td>
                    <td>${a.firstName}</td>
                    <td>${a.treatment}</td>
                    <td class="num">${naira(a.amountKobo)}</td>
                    <td>${badge(a.status)}</td>
                    <td><button class="secondary" @click=${() => this.open(a.sdkReference)} aria-label="Details of ${a.clientReference}">Details</button></td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`}
      <p role="status" class="muted">${this.list.loading ? 'Loading…' : ''}</p>
      ${this.list.nextCursor ? html`<button class="secondary more" ?disabled=${this.list.loading} @click=${() => this.list.load(true)}>Load more</button>` : nothing}`;
  }
}
customElements.define('dash-financing-page', DashFinancingPage);
