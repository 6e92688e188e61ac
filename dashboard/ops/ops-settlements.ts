import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { day, when } from '../ui/format';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';

interface FailedSettlement {
  id: string;
  organisationName: string;
  mode: 'test' | 'live';
  periodStart: string;
  periodEnd: string;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * `<ops-settlements>`: settlements whose daily run failed and that no later statement covers yet. "Retry" runs that
 * statement's own period again (idempotent); a failing retry records the new reason.
 */
export class OpsSettlements extends LitElement {
  static override styles = [dashStyles, css`.status { margin: 0.5rem 0; } td button { min-height: 36px; padding: 0.3rem 0.7rem; }`];
  static override properties = { message: { state: true }, failure: { state: true } };
  message = '';
  failure = '';
  private settlements = new KeysetList<FailedSettlement>(this, { client: opsApi, path: '/settlements', failure: 'The failed settlements could not be loaded.' });

  override connectedCallback(): void {
    super.connectedCallback();
    void this.settlements.load();
  }

  private async retry(s: FailedSettlement) {
    this.message = '';
    this.failure = '';
    try {
      const data = await opsApi.post<{ changed: boolean; statement: { status: string } }>(`/settlements/${s.id}/retry`, {});
      const what = !data.changed ? 'already settled, nothing ran.' : data.statement.status === 'skipped' ? 'run again: nothing was due, the statement is recorded as skipped.' : 'run again: settled.';
      this.message = `${s.organisationName}, ${day(s.periodEnd)}: ${what}`;
      await this.settlements.load();
    } catch (error) {
      this.failure = messageOf(error);
      await this.settlements.load();
    }
  }

  override render() {
    const list = this.settlements;
    return html`<h1>Failed settlements</h1>
      <p class="muted">Daily settlements whose run failed. Retry runs the same day's statement again; nothing is swept twice.</p>
      <div role="status" class="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}
      <div class="table-wrap has-cards"><table class="cards">
        <thead><tr><th>Day</th><th>Organisation</th><th>Mode</th><th>Reason</th><th>Last tried</th><th>Action</th></tr></thead>
        <tbody>${list.rows.map(
          (s) => html`<tr>
            <td data-label="Day">${day(s.periodEnd)}</td>
            <td data-label="Organisation">${s.organisationName}</td>
            <td data-label="Mode"><span class="badge ${s.mode === 'live' ? 'warn' : 'test'}">${s.mode}</span></td>
            <td data-label="Reason"><span>${s.failureReason ?? '—'}</span></td>
            <td data-label="Last tried">${when(s.updatedAt)}</td>
            <td data-label="Action"><button aria-label="Retry: ${s.organisationName}, ${day(s.periodEnd)}" @click=${() => this.retry(s)}>Retry</button></td>
          </tr>`,
        )}</tbody>
      </table></div>
      ${list.rows.length === 0 && !list.loading ? html`<p class="muted">No settlement has failed.</p>` : nothing}
      ${list.error ? html`<p role="alert" class="error">${list.error}</p>` : nothing}
      ${list.nextCursor ? html`<button class="secondary" ?disabled=${list.loading !== ''} @click=${() => list.load(true)}>Show more</button>` : nothing}`;
  }
}

customElements.define('ops-settlements', OpsSettlements);
