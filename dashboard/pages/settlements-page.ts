import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from '../api';
import { day, naira, when } from '../ui/format';
import { dashStyles } from '../ui/styles';

interface Statement {
  id: string;
  periodStart: string;
  periodEnd: string;
  feeSweptKobo: number;
  interestSweptKobo: number;
  totalSweptKobo: number;
  status: 'completed' | 'skipped' | 'failed';
  failureReason: string | null;
  transferReference: string | null;
  loans: number;
  createdAt: string;
}

const BADGE: Record<Statement['status'], string> = { completed: 'ok', skipped: '', failed: 'bad' };

/** Settlements: the statements of the mode, newest first, and all of them as a CSV file. */
export class DashSettlementsPage extends LitElement {
  static override styles = [dashStyles, css`.toolbar { margin-bottom: 1rem; } td.reason { max-width: 18rem; }`];
  static override properties = { mode: {}, statements: { state: true }, nextCursor: { state: true }, loading: { state: true }, error: { state: true } };
  mode: Mode = 'test';
  statements: Statement[] = [];
  nextCursor: string | null = null;
  loading = false;
  error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(more = false) {
    this.loading = true;
    this.error = '';
    try {
      const page = await api.page<Statement>('/settlements', { cursor: more ? this.nextCursor : undefined });
      this.statements = more ? [...this.statements, ...page.data] : page.data;
      this.nextCursor = page.nextCursor;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private renderTable() {
    if (this.statements.length === 0) {
      return html`<div class="card"><p><strong>No settlements yet.</strong></p>
        <p class="muted">Each settlement run sweeps the interest and fees your loans earned into your organisation's wallet and writes a statement here. Once repayments come in, the next run shows up on this page.</p></div>`;
    }
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Settlement statements"><table>
        <thead><tr><th scope="col">Period</th><th scope="col">Status</th><th scope="col" class="num">Fees</th><th scope="col" class="num">Interest</th><th scope="col" class="num">Total</th><th scope="col" class="num">Loans</th><th scope="col">Transfer reference</th><th scope="col">Written</th></tr></thead>
        <tbody>${this.statements.map(
          (s) => html`<tr>
            <td>${day(s.periodStart)} – ${day(s.periodEnd)}</td>
            <td><span class="badge ${BADGE[s.status]}">${s.status}</span>${s.failureReason ? html`<div class="hint reason">${s.failureReason}</div>` : nothing}</td>
            <td class="num">${naira(s.feeSweptKobo)}</td>
            <td class="num">${naira(s.interestSweptKobo)}</td>
            <td class="num"><strong>${naira(s.totalSweptKobo)}</strong></td>
            <td class="num">${s.loans}</td>
            <td>${s.transferReference ? html`<code>${s.transferReference}</code>` : '—'}</td>
            <td>${when(s.createdAt)}</td>
          </tr>`,
        )}</tbody>
      </table></div>
      ${this.nextCursor ? html`<p><button type="button" class="secondary" ?disabled=${this.loading} @click=${() => this.load(true)}>${this.loading ? 'Loading…' : 'Load more'}</button></p>` : nothing}`;
  }

  override render() {
    return html`<h1 tabindex="-1">Settlements</h1>
      <div class="spread toolbar">
        <p class="muted">Interest and fees swept to your organisation, ${this.mode} mode, newest first.</p>
        <a class="button secondary" href=${api.downloadUrl('/settlements.csv')} download>Download CSV</a>
      </div>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      ${this.loading && this.statements.length === 0 ? html`<p role="status" class="muted">Loading settlements…</p>` : this.renderTable()}`;
  }
}
customElements.define('dash-settlements-page', DashSettlementsPage);
