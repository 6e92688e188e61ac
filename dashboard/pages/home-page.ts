import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { href } from '../router';
import { naira, when } from '../ui/format';
import { dashStyles } from '../ui/styles';

interface Overview {
  organisation: { id: string; name: string; liveEnabled: boolean; liveRefusal: { reason: string; at: string } | null; liveProvidersMissing: string[] };
  mode: 'test' | 'live';
  checklist: Array<{ id: string; done: boolean; path: string }>;
  figures: { poolBalanceKobo: number; loansThisMonth: number; monthStart: string; pools: Array<{ code: string; balanceKobo: number }> };
}

/** The overview's `liveProvidersMissing`, in words. */
const PORT_WORDS: Record<string, string> = { rail: 'direct debits and payouts', sms: 'text messages', identity: 'identity checks', bankLookup: 'bank account checks' };

/** What each getting-started step says, by its id in `GET /dashboard/api/overview`. */
const STEPS: Record<string, { title: string; why: string }> = {
  email_verified: { title: 'Verify your e-mail', why: 'So we can reach you about your account.' },
  api_key_created: { title: 'Create an API key', why: 'Your backend calls the API with it.' },
  product_defined: { title: 'Define a loan product', why: 'The amounts, tenors and pricing you lend with.' },
  default_product_set: { title: 'Choose the product for pushed decisions', why: 'Offers for the credit decisions you push are priced with it.' },
  pool_funded: { title: 'Fund your capital pool', why: 'Loans are paid out from it.' },
  webhook_endpoint_added: { title: 'Add a webhook endpoint', why: 'Hear about every loan event as it happens.' },
  checkout_origins_set: { title: 'Set your checkout origins', why: 'The pages that may embed the borrower checkout.' },
};

const TICK = html`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><circle cx="12" cy="12" r="11" fill="#067647" /><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" /></svg>`;
const OPEN = html`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><circle cx="12" cy="12" r="10" fill="none" stroke="#4f566b" stroke-width="2" /></svg>`;

/**
 * Home: the organisation's live status, a getting-started checklist computed from its real data (each step links to
 * the page that does it) and a few figures of the mode: the pool balance, the loans created this month.
 */
export class DashHomePage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .status { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
      .status p { margin: 0; }
      .status .live-refusal { flex-basis: 100%; }
      .live-refusal p { margin: 0.25rem 0; }
      .live-refusal blockquote { margin: 0.5rem 0; padding-left: 0.75rem; border-left: 3px solid var(--dash-border); overflow-wrap: anywhere; white-space: pre-line; }
      .figures { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); margin-bottom: 1rem; }
      .figures .card { margin: 0; }
      .figure { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; margin: 0.25rem 0 0; }
      ol { list-style: none; padding: 0; margin: 0; }
      li { display: flex; gap: 0.75rem; align-items: flex-start; padding: 0.75rem 0; border-bottom: 1px solid var(--dash-border); }
      li:last-child { border-bottom: none; }
      li svg { flex: none; margin-top: 0.15rem; }
      li .text { flex: 1; min-width: 0; }
      li .text p { margin: 0; }
      li.done a { color: var(--dash-muted); }
      .progress { font-weight: 600; }
      .card h2 { margin: 0; }
      .figures h2 { font-size: 0.95rem; font-weight: 600; }
      .spread { margin-bottom: 0.25rem; }
    `,
  ];
  static override properties = { mode: {}, overview: { state: true }, error: { state: true } };
  declare mode: 'test' | 'live';
  declare overview: Overview | undefined;
  declare error: string;

  constructor() {
    super();
    this.mode = 'test';
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.error = '';
    try {
      this.overview = await api.get<Overview>('/overview');
    } catch (error) {
      this.error = error instanceof DashboardApiError ? error.message : 'The overview could not be loaded.';
    }
  }

  override render() {
    const o = this.overview;
    const heading = html`<h1 tabindex="-1">${o ? o.organisation.name : 'Home'}</h1>`;
    if (this.error) return html`${heading}<p role="alert" class="error">${this.error}</p><button class="secondary" @click=${this.load}>Try again</button>`;
    if (!o) return html`${heading}<p role="status">Loading…</p>`;
    const done = o.checklist.filter((c) => c.done).length;
    const month = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(new Date(o.figures.monthStart));
    return html`${heading}
      <section class="card status" aria-label="Live status">
        ${o.organisation.liveEnabled ? html`<span class="badge ok">Live enabled</span>` : html`<span class="badge test">Test only</span>`}
        <p>${o.organisation.liveEnabled
          ? o.organisation.liveProvidersMissing.length
            ? `Live mode is enabled for your organisation, but this platform has no live provider yet for ${o.organisation.liveProvidersMissing.map((p) => PORT_WORDS[p] ?? p).join(', ')}: live calls that need one are refused, and nothing is written. Build and test in test mode.`
            : 'Your live keys work: live mode moves real money.'
          : 'Your organisation works in test mode. Live mode is switched on by our team after its checks; until then, build and test with sandbox data.'}</p>
        ${!o.organisation.liveEnabled && o.organisation.liveRefusal
          ? html`<div class="notice live-refusal">
              <p><strong>Not enabled yet.</strong> On ${when(o.organisation.liveRefusal.at)} our team did not switch on live mode, for this reason:</p>
              <blockquote>${o.organisation.liveRefusal.reason}</blockquote>
              <p>Fix what it asks, then reply to our team; they will look again.</p>
            </div>`
          : nothing}
      </section>
      <section class="card" aria-labelledby="getting-started">
        <div class="spread">
          <h2 id="getting-started">Getting started</h2>
          <span class="progress">${done} of ${o.checklist.length} done</span>
        </div>
        <ol>
          ${o.checklist.map((item) => {
            const step = STEPS[item.id] ?? { title: item.id, why: '' };
            return html`<li class=${item.done ? 'done' : ''}>
              ${item.done ? TICK : OPEN}
              <div class="text">
                <p><a href=${href(item.path)}>${step.title}</a> <span class="visually-hidden">${item.done ? '(done)' : '(to do)'}</span></p>
                <p class="hint">${step.why}</p>
              </div>
            </li>`;
          })}
        </ol>
      </section>
      <div class="figures">
        <section class="card" aria-labelledby="fig-pool">
          <h2 id="fig-pool" class="muted">Capital pool (${o.mode})</h2>
          <p class="figure">${naira(o.figures.poolBalanceKobo)}</p>
          ${o.figures.pools.length === 0 ? html`<p class="hint">No pool yet: <a href=${href('/pool')}>fund one</a>.</p>` : nothing}
        </section>
        <section class="card" aria-labelledby="fig-loans">
          <h2 id="fig-loans" class="muted">Loans in ${month} (${o.mode})</h2>
          <p class="figure">${o.figures.loansThisMonth.toLocaleString('en-NG')}</p>
          <p class="hint"><a href=${href('/loans')}>See the loans</a></p>
        </section>
      </div>`;
  }
}
customElements.define('dash-home-page', DashHomePage);
