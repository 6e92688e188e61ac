import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from '../api';
import '../ui/chart';
import { dashStyles } from '../ui/styles';

interface UsageDay {
  day: string;
  requestCount: number;
  errorCount: number;
}

const DAYS = 30;

/** Usage: the organisation's API requests and errors per day for the last 30 days, in the chosen mode. */
export class DashUsagePage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .totals { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.5rem; margin-bottom: 1rem; }
      .totals .card { margin: 0; padding: 0.75rem; }
      .figure { font-size: clamp(1.1rem, 5vw, 1.6rem); font-weight: 700; font-variant-numeric: tabular-nums; }
    `,
  ];
  static override properties = { mode: {}, days: { state: true }, loading: { state: true }, error: { state: true } };
  mode: Mode = 'test';
  days: UsageDay[] = [];
  loading = false;
  error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.loading = true;
    this.error = '';
    try {
      this.days = (await api.get<{ days: UsageDay[] }>('/usage', { days: DAYS })).days;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  override render() {
    const requests = this.days.reduce((sum, d) => sum + d.requestCount, 0);
    const errors = this.days.reduce((sum, d) => sum + d.errorCount, 0);
    const rate = requests === 0 ? '0%' : `${((errors * 100) / requests).toFixed(1)}%`;
    return html`<h1 tabindex="-1">Usage</h1>
      <p class="muted">Calls your ${this.mode} keys made to the API, per day (UTC), for the last ${DAYS} days. An error is any answer with a 4xx or 5xx status.</p>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      ${this.loading && this.days.length === 0 ? html`<p role="status" class="muted">Loading usage…</p>` : nothing}
      ${this.days.length
        ? html`<section class="totals" aria-label="Last ${DAYS} days">
              <div class="card"><div class="muted">Requests</div><div class="figure">${requests.toLocaleString('en-NG')}</div></div>
              <div class="card"><div class="muted">Errors</div><div class="figure">${errors.toLocaleString('en-NG')}</div></div>
              <div class="card"><div class="muted">Error rate</div><div class="figure">${rate}</div></div>
            </section>
            ${requests === 0 ? html`<p class="notice">No API calls in ${this.mode} mode yet. Generate a key on the API keys page and call <code>GET /v1/products</code> to see it here.</p>` : nothing}
            <div class="card">
              <dash-chart
                kind="line"
                caption="Requests and errors per day, ${this.mode} mode"
                .labels=${this.days.map((d) => d.day.slice(0, 10))}
                .series=${[
                  { label: 'Requests', values: this.days.map((d) => d.requestCount), color: '#4338ca' },
                  { label: 'Errors', values: this.days.map((d) => d.errorCount), color: '#b42318' },
                ]}
              ></dash-chart>
            </div>`
        : nothing}`;
  }
}
customElements.define('dash-usage-page', DashUsagePage);
