import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from '../api';
import { day, naira, when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';

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
  static override properties = { mode: {}, error: { state: true } };
  mode: Mode = 'test';
  private list = new KeysetList<Statement>(this, { path: '/settlements', limit: 50, failure: 'The settlements could not be loaded.' });

  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.load();
  }

  private renderTable() {
    if (this.list.rows.length === 0) {
      return html`<div class="card"><p><strong>No settlements yet.</strong></p>
        <p class="muted">Each settlement run sweeps the interest and fees your loans earned into your organisation's wallet and writes a statement here. Once repayments come in, the next run shows up on this page.</p></div>`;
    }
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Settlement statements"><table>
        <thead><tr><th scope="col">Period</th><th scope="col">Status</th><th scope="col" class="num">Fees</th><th scope="col" class="num">Interest</th><th scope="col" class="num">Total</th><th scope="col" class="num">Loans</th><th scope="col">Transfer reference</th><th scope="col">Written</th></tr></thead>
        <tbody>${this.list.rows.map(
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
      ${this.list.nextCursor ? html`<p><button type="button" class="secondary" ?disabled=${this.list.loading} @click=${() => this.list.load(true)}>${this.list.loading ? 'Loading…' : 'Load more'}</button></p>` : nothing}`;
  }

  override render() {
    return html`<h1 tabindex="-1">Settlements</h1>
      <div class="spread toolbar">
        <p class="muted">Interest and fees swept to your organisation, ${this.mode} mode, newest first.</p>
        <a class="button secondary" href=${api.downloadUrl('/settlements.csv')} download>Download CSV</a>
      </div>
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing}
      ${this.list.loading && this.list.rows.length === 0 ? html`<p role="status" class="muted">Loading settlements…</p>` : this.renderTable()}`;
  }
}
customElements.define('dash-settlements-page', DashSettlementsPage);
