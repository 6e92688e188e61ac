import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { naira, when } from '../ui/format';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';
import './ops-charges';
import './ops-insurance';
import './ops-settlements';
import './ops-live';
import './ops-loan';

interface Counts {
  payouts: number;
  fundingNotices: number;
  reviews: number;
  proposals: number;
  disabledEndpoints: number;
  charges: number;
  failedSettlements: number;
  liveReadiness: number;
  insurancePolicies: number;
}
interface Endpoint {
  id: string;
  organisationName: string;
  mode: 'test' | 'live';
  url: string;
  consecutiveFails: number;
  lastFailureAt: string | null;
}
interface Payout {
  id: string;
  organisationName: string;
  mode: 'test' | 'live';
  amountKobo: number;
  bankName: string;
  accountNumberLast4: string;
  accountName: string | null;
  createdAt: string;
  proposalId: string | null;
}
interface Notice {
  id: string;
  reference: string;
  organisationName: string;
  mode: 'test' | 'live';
  poolCode: string;
  amountKobo: number;
  createdAt: string;
  proposalId: string | null;
}
interface Review {
  id: string;
  loanId: string;
  organisationName: string;
  mode: 'test' | 'live';
  decidedBy: string;
  openedReason: string;
  principalKobo: number;
  openedAt: string;
}
interface Proposal {
  id: string;
  kind: string;
  subject: string;
  payload: Record<string, unknown>;
  status: string;
  proposedByEmail: string;
  decidedByEmail: string | null;
  proposedAt: string;
  note: string | null;
}
interface AuditRow {
  id: string;
  at: string;
  action: string;
  target: string | null;
  staffEmail: string | null;
  ip: string | null;
}

const KIND_LABEL: Record<string, string> = {
  payout_settle: 'Settle payout',
  pool_funding_confirm: 'Confirm pool funding',
  loan_write_off: 'Write off loan',
  live_enable: 'Enable live mode',
  mandate_charge_apply: 'Apply collected charge',
  insurance_policy_record: 'Record insurance policy',
};
const modeBadge = (mode: string) => html`<span class="badge ${mode === 'live' ? 'warn' : 'test'}">${mode}</span>`;
const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/** The console forms' fields: API name → the words the form shows for it (a refusal about one sits under it). */
const REFERENCE_LABELS = { reference: 'Bank reference' };
const REASON_LABELS = { reason: 'Reason' };
const SEARCH_LABELS = { q: 'Search' };

/**
 * `<ops-page>`: the console page of `path` — the home (counts of every queue), the payouts to settle (bank reference)
 * or reject, the funding notices to confirm, the open reviews to clear or reject, the four-eyes proposals to approve
 * or refuse, webhook endpoints switched off after failing (re-enable), the staff audit log. Every list is keyset-paged ("Show more"). Live money answers "proposed": another
 * staff member approves it under Proposals.
 */
export class OpsPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .counts { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0.75rem; }
      .counts a { display: block; text-decoration: none; color: inherit; }
      .counts strong { display: block; font-size: 1.8rem; }
      td form { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0; }
      td form input { width: 11rem; min-height: 36px; }
      td form button { min-height: 36px; padding: 0.3rem 0.7rem; }
      td form .field-error { flex-basis: 100%; margin: 0; }
      .status { margin: 0.5rem 0; }
    `,
  ];
  static override properties = { path: { attribute: false }, staff: { attribute: false }, counts: { state: true }, message: { state: true }, failure: { state: true }, fieldErrors: { state: true }, hits: { state: true } };
  /** The home's search results (null before a search). */
  hits: Array<{ kind: string; id: string; label: string; organisationName: string; mode: string | null; status: string | null }> | null = null;
  path = '/ops';
  staff: { email: string; role: string } | undefined;
  counts: Counts | undefined;
  message = '';
  failure = '';
  /** A refusal about one field, by its control's id (`ref-…`, `why-…`, `q`), shown under that control. */
  fieldErrors: Record<string, string> = {};

  private payouts = new KeysetList<Payout>(this, { client: opsApi, path: '/payouts', failure: 'The payouts could not be loaded.' });
  private notices = new KeysetList<Notice>(this, { client: opsApi, path: '/funding-notices', failure: 'The funding notices could not be loaded.' });
  private reviews = new KeysetList<Review>(this, { client: opsApi, path: '/reviews', failure: 'The reviews could not be loaded.' });
  private proposals = new KeysetList<Proposal>(this, { client: opsApi, path: '/proposals', failure: 'The proposals could not be loaded.', query: () => ({ status: 'open' }) });
  private endpoints = new KeysetList<Endpoint>(this, { client: opsApi, path: '/webhook-endpoints', failure: 'The endpoints could not be loaded.' });
  private audit = new KeysetList<AuditRow>(this, { client: opsApi, path: '/audit', failure: 'The audit log could not be loaded.' });

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('path')) {
      this.message = '';
      this.failure = '';
      this.fieldErrors = {};
      void this.load();
    }
  }

  private async load() {
    if (this.path === '/ops') this.counts = (await opsApi.get<{ counts: Counts }>('/overview')).counts;
    else this.listOf()?.load();
  }

  private listOf(): KeysetList<unknown> | undefined {
    return ({ '/ops/payouts': this.payouts, '/ops/funding': this.notices, '/ops/reviews': this.reviews, '/ops/proposals': this.proposals, '/ops/webhooks': this.endpoints, '/ops/audit': this.audit } as Record<string, KeysetList<unknown>>)[this.path];
  }

  /** Sends one action; its answer (done, or proposed for four eyes) becomes the page's status line, then the list reloads. */
  private async act(event: SubmitEvent, path: string, body: (form: FormData) => unknown, done: string, labels: Record<string, string> = {}) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.message = '';
    this.failure = '';
    this.fieldErrors = {};
    try {
      const data = await opsApi.post<{ outcome?: string }>(path, body(new FormData(form)));
      this.message = data?.outcome === 'proposed' ? 'Proposed: another staff member must approve it under Proposals.' : done;
      await this.listOf()?.load();
    } catch (error) {
      this.refused(form, error, labels);
    }
  }

  /** A refusal about a field of the form goes under that field's control, in the form's words; any other into the page's alert. */
  private refused(form: HTMLFormElement, error: unknown, labels: Record<string, string>) {
    const { field, message } = fieldError(error, labels, messageOf(error));
    const control = field ? form.querySelector<HTMLElement>(`[name="${field}"]`) : null;
    if (control?.id) this.fieldErrors = { [control.id]: message };
    else this.failure = message;
  }

  /** `aria-invalid` for a control. */
  private invalid(id: string) {
    return this.fieldErrors[id] ? 'true' : nothing;
  }

  private described(id: string) {
    return describedBy(id, false, Boolean(this.fieldErrors[id]));
  }

  /** The control's error line, and (visually hidden) the same with what the field is, heard at once. */
  private errorUnder(id: string, label: string) {
    const message = this.fieldErrors[id];
    return html`${fieldErrorLine(id, message)}${message ? html`<p class="visually-hidden" role="alert">${label}: ${message}</p>` : nothing}`;
  }

  private more(list: KeysetList<unknown>) {
    return html`${list.error ? html`<p role="alert" class="error">${list.error}</p>` : nothing}
      ${list.nextCursor ? html`<button class="secondary" ?disabled=${list.loading !== ''} @click=${() => list.load(true)}>Show more</button>` : nothing}`;
  }

  private status() {
    return html`<div role="status" class="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}`;
  }

  /** A link to a loan's page in the console (`<ops-loan>`). */
  private loanLink(loanId: string, text: unknown) {
    const path = `/ops/loans/${loanId}`;
    return html`<a href=${path} @click=${(e: Event) => this.navigate(e, path)}>${text}</a>`;
  }

  override render() {
    if (this.path.startsWith('/ops/loans/')) return html`<ops-loan .loanId=${decodeURIComponent(this.path.slice('/ops/loans/'.length))}></ops-loan>`;
    switch (this.path) {
      case '/ops/charges':
        return html`<ops-charges></ops-charges>`;
      case '/ops/insurance':
        return html`<ops-insurance></ops-insurance>`;
      case '/ops/settlements':
        return html`<ops-settlements></ops-settlements>`;
      case '/ops/live':
        return html`<ops-live></ops-live>`;
      case '/ops/payouts':
        return html`<h1>Payouts to settle</h1>${this.status()}
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>Requested</th><th>Organisation</th><th>Mode</th><th class="num">Amount</th><th>Bank account</th><th>Action</th></tr></thead>
            <tbody>${this.payouts.rows.map(
              (p) => html`<tr>
                <td data-label="Requested">${when(p.createdAt)}</td><td data-label="Organisation">${p.organisationName}</td><td data-label="Mode">${modeBadge(p.mode)}</td>
                <td data-label="Amount" class="num">${naira(p.amountKobo)}</td><td data-label="Bank account">${p.bankName} ····${p.accountNumberLast4}</td>
                <td class="actions">${p.proposalId
                  ? html`<span class="badge warn">Awaiting approval</span>`
                  : html`<form aria-label="Settle payout ${p.id}" @submit=${(e: SubmitEvent) => this.act(e, `/payouts/${p.id}/settle`, (f) => ({ reference: f.get('reference') }), 'Payout settled.', REFERENCE_LABELS)}>
                      <label class="visually-hidden" for="ref-${p.id}">Bank reference for ${naira(p.amountKobo)} to ${p.organisationName}</label>
                      <input id="ref-${p.id}" name="reference" required minlength="3" maxlength="160" placeholder="Bank reference" aria-invalid=${this.invalid(`ref-${p.id}`)} aria-describedby=${this.described(`ref-${p.id}`)} />
                      <button>Settle</button>
                      ${this.errorUnder(`ref-${p.id}`, 'Bank reference')}
                    </form>
                    <form aria-label="Reject payout ${p.id}" @submit=${(e: SubmitEvent) => this.act(e, `/payouts/${p.id}/reject`, (f) => ({ reason: f.get('reason') }), 'Payout rejected.', REASON_LABELS)}>
                      <label class="visually-hidden" for="why-${p.id}">Reason to reject ${naira(p.amountKobo)} to ${p.organisationName}</label>
                      <input id="why-${p.id}" name="reason" required minlength="3" maxlength="500" placeholder="Reason to reject" aria-invalid=${this.invalid(`why-${p.id}`)} aria-describedby=${this.described(`why-${p.id}`)} />
                      <button class="secondary">Reject</button>
                      ${this.errorUnder(`why-${p.id}`, 'Reason to reject')}
                    </form>`}</td>
              </tr>`,
            )}</tbody></table></div>
          ${this.payouts.rows.length === 0 && !this.payouts.loading ? html`<p class="muted">No payout is waiting.</p>` : nothing}${this.more(this.payouts)}`;
      case '/ops/funding':
        return html`<h1>Pool funding to confirm</h1>${this.status()}
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>Asked</th><th>Organisation</th><th>Mode</th><th>Reference</th><th class="num">Amount</th><th>Action</th></tr></thead>
            <tbody>${this.notices.rows.map(
              (n) => html`<tr><td data-label="Asked">${when(n.createdAt)}</td><td data-label="Organisation">${n.organisationName}</td><td data-label="Mode">${modeBadge(n.mode)}</td>
                <td data-label="Reference"><code>${n.reference}</code></td><td data-label="Amount" class="num">${naira(n.amountKobo)}</td>
                <td class="actions">${n.proposalId
                  ? html`<span class="badge warn">Awaiting approval</span>`
                  : html`<form @submit=${(e: SubmitEvent) => this.act(e, `/funding-notices/${encodeURIComponent(n.reference)}/confirm`, () => ({}), 'Transfer confirmed: the pool is credited.')}><button>Transfer arrived: confirm ${n.reference}</button></form>`}</td></tr>`,
            )}</tbody></table></div>
          ${this.notices.rows.length === 0 && !this.notices.loading ? html`<p class="muted">No funding notice is waiting.</p>` : nothing}${this.more(this.notices)}`;
      case '/ops/reviews':
        return html`<h1>Open reviews</h1>${this.status()}
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>Opened</th><th>Organisation</th><th>Mode</th><th>Why</th><th class="num">Principal</th><th>Decision</th></tr></thead>
            <tbody>${this.reviews.rows.map(
              (r) => html`<tr><td data-label="Opened">${when(r.openedAt)}</td><td data-label="Organisation">${r.organisationName}</td><td data-label="Mode">${modeBadge(r.mode)}</td>
                <td data-label="Why">${r.openedReason.replace(/_/g, ' ')}${r.decidedBy === 'service' ? html` <span class="badge">service's own</span>` : nothing}</td><td data-label="Principal" class="num">${this.loanLink(r.loanId, html`${naira(r.principalKobo)}<span class="visually-hidden">: open the loan</span>`)}</td>
                <td class="actions"><form @submit=${(e: SubmitEvent) => this.act(e, `/reviews/${r.id}/decide`, (f) => ({ decision: (e.submitter as HTMLButtonElement).value, reason: f.get('reason') }), 'Review decided.', REASON_LABELS)}>
                  <label class="visually-hidden" for="note-${r.id}">Reason for loan ${r.loanId}</label>
                  <input id="note-${r.id}" name="reason" required minlength="3" maxlength="500" placeholder="Reason" aria-invalid=${this.invalid(`note-${r.id}`)} aria-describedby=${this.described(`note-${r.id}`)} />
                  <button value="clear">Clear</button><button class="secondary" value="reject">Reject</button>${this.errorUnder(`note-${r.id}`, 'Reason')}</form></td></tr>`,
            )}</tbody></table></div>
          ${this.reviews.rows.length === 0 && !this.reviews.loading ? html`<p class="muted">No review is open.</p>` : nothing}${this.more(this.reviews)}`;
      case '/ops/proposals':
        return html`<h1>Proposals awaiting a second person</h1>
          <p class="muted">Live money takes two: the person who proposed it cannot approve it.</p>${this.status()}
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>Proposed</th><th>What</th><th>Subject</th><th>By</th><th>Decision</th></tr></thead>
            <tbody>${this.proposals.rows.map(
              (p) => html`<tr><td data-label="Proposed">${when(p.proposedAt)}</td><td data-label="What">${KIND_LABEL[p.kind] ?? p.kind}${p.payload.reference ? html` <code>${String(p.payload.reference)}</code>` : nothing}${p.kind === 'insurance_policy_record' ? html` <code>${String(p.payload.policyNumber)}</code> <a href="/ops/api/insurance-policies/${p.subject}/document" target="_blank" rel="noopener">Policy document</a>` : nothing}</td>
                <td data-label="Subject"><code>${p.subject}</code></td><td data-label="By">${p.proposedByEmail}</td>
                <td class="actions"><form aria-label="Approve proposal ${p.id}" @submit=${(e: SubmitEvent) => this.act(e, `/proposals/${p.id}/approve`, () => ({}), 'Approved: it took effect.')}><button>Approve</button></form>
                  <form aria-label="Refuse proposal ${p.id}" @submit=${(e: SubmitEvent) => this.act(e, `/proposals/${p.id}/refuse`, (f) => ({ reason: f.get('reason') }), 'Refused: nothing changed.', REASON_LABELS)}>
                    <label class="visually-hidden" for="refuse-${p.id}">Reason to refuse</label>
                    <input id="refuse-${p.id}" name="reason" required minlength="3" maxlength="500" placeholder="Reason to refuse" aria-invalid=${this.invalid(`refuse-${p.id}`)} aria-describedby=${this.described(`refuse-${p.id}`)} /><button class="secondary">Refuse</button>${this.errorUnder(`refuse-${p.id}`, 'Reason to refuse')}</form></td></tr>`,
            )}</tbody></table></div>
          ${this.proposals.rows.length === 0 && !this.proposals.loading ? html`<p class="muted">Nothing is waiting for approval.</p>` : nothing}${this.more(this.proposals)}`;
      case '/ops/webhooks':
        return html`<h1>Webhook endpoints switched off</h1>
          <p class="muted">The dispatcher switched these off after failing for too long. Re-enable one once its organisation has fixed the receiver.</p>${this.status()}
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>Organisation</th><th>Mode</th><th>URL</th><th class="num">Failures</th><th>Last failure</th><th>Action</th></tr></thead>
            <tbody>${this.endpoints.rows.map(
              (w) => html`<tr><td data-label="Organisation">${w.organisationName}</td><td data-label="Mode">${modeBadge(w.mode)}</td><td data-label="URL"><span class="mono">${w.url}</span></td>
                <td data-label="Failures" class="num">${w.consecutiveFails}</td><td data-label="Last failure">${when(w.lastFailureAt)}</td>
                <td class="actions"><form @submit=${(e: SubmitEvent) => this.act(e, `/webhook-endpoints/${w.id}/enable`, () => ({}), 'Endpoint re-enabled: deliveries start again.')}><button>Re-enable ${w.url}</button></form></td></tr>`,
            )}</tbody></table></div>
          ${this.endpoints.rows.length === 0 && !this.endpoints.loading ? html`<p class="muted">No endpoint is switched off.</p>` : nothing}${this.more(this.endpoints)}`;
      case '/ops/audit':
        return html`<h1>Staff audit log</h1>
          <div class="table-wrap has-cards"><table class="cards">
            <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Target</th><th>IP</th></tr></thead>
            <tbody>${this.audit.rows.map(
              (a) => html`<tr><td data-label="When">${when(a.at)}</td><td data-label="Who">${a.staffEmail ?? 'admin CLI'}</td><td data-label="Action">${a.action.replace(/_/g, ' ')}</td>
                <td data-label="Target"><span class="mono">${a.target ?? '—'}</span></td><td data-label="IP">${a.ip ?? '—'}</td></tr>`,
            )}</tbody></table></div>${this.more(this.audit)}`;
      default:
        return html`<h1>Today's queues</h1>
          ${this.counts
            ? html`<div class="counts">
                ${[
                  ['/ops/payouts', 'Payouts to settle', this.counts.payouts],
                  ['/ops/funding', 'Funding to confirm', this.counts.fundingNotices],
                  ['/ops/reviews', 'Open reviews', this.counts.reviews],
                  ['/ops/proposals', 'Awaiting approval', this.counts.proposals],
                  ['/ops/webhooks', 'Endpoints switched off', this.counts.disabledEndpoints],
                  ['/ops/charges', 'Charges that need a person', this.counts.charges],
                  ['/ops/settlements', 'Failed settlements', this.counts.failedSettlements],
                  ['/ops/live', 'Organisations for live mode', this.counts.liveReadiness],
                  ['/ops/insurance', 'Insurance policies to record', this.counts.insurancePolicies],
                ].map(([path, label, count]) => html`<a class="card" href=${path} @click=${(e: Event) => this.navigate(e, path as string)}><strong>${count}</strong>${label}</a>`)}
              </div>`
            : html`<p role="status">Loading…</p>`}
          <h2>Search</h2>
          <form class="row" role="search" @submit=${this.search}>
            <label class="visually-hidden" for="q">Loan or payout id, reference, phone or organisation</label>
            <input id="q" name="q" required minlength="2" maxlength="120" placeholder="Loan or payout id, reference, phone or organisation" style="max-width: 28rem" aria-invalid=${this.invalid('q')} aria-describedby=${this.described('q')} />
            <button>Search</button>
          </form>
          ${this.errorUnder('q', 'Search')}
          ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}
          ${this.hits === null
            ? nothing
            : this.hits.length === 0
              ? html`<p class="muted" role="status">Nothing found.</p>`
              : html`<div role="status"><ul>${this.hits.map((h) => html`<li>${h.kind.replace(/_/g, ' ')} · ${h.kind === 'loan' ? this.loanLink(h.id, h.label) : h.label} · ${h.organisationName}${h.mode ? html` ${modeBadge(h.mode)}` : nothing}${h.status ? ` · ${h.status}` : ''} · <code>${h.id}</code></li>`)}</ul></div>`}`;
    }
  }

  private async search(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const q = String(new FormData(form).get('q') ?? '');
    this.failure = '';
    this.fieldErrors = {};
    try {
      this.hits = await opsApi.get('/search', { q });
    } catch (error) {
      this.refused(form, error, SEARCH_LABELS);
    }
  }

  private navigate(event: Event, path: string) {
    event.preventDefault();
    history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }
}

customElements.define('ops-page', OpsPage);
