import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError, type Page } from '../api';
import { allowed } from '../session';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';
import { confirmAction } from '../ui/confirm-dialog';
import '../ui/copy-button';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';

type WebhookApi = 'lending' | 'sdk';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[] | null;
  mode: 'test' | 'live';
  api: WebhookApi;
  status: 'active' | 'disabled';
  consecutiveFails: number;
  lastFailureAt: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
}

interface Delivery {
  id: string;
  eventId: string;
  event: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed' | 'dead';
  attemptCount: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
}

interface Attempt {
  id: string;
  attempt: number;
  event: string;
  url: string;
  request: { body: string; headers: Record<string, string> } | null;
  response: { status: number | null; body: string | null; durationMs: number | null; error: string | null };
  succeeded: boolean;
  at: string;
}

/** A secret answered once (creation or rotation): on screen until dismissed, then gone for good. */
interface Revealed {
  endpointId: string;
  secret: string;
  note: string;
}

const API_LABEL: Record<WebhookApi, string> = { lending: 'Lending API', sdk: 'Patient financing' };
const API_NOUN: Record<WebhookApi, string> = { lending: 'lending', sdk: 'patient-financing' };
const UNFINISHED = new Set(['pending', 'delivering']);

const message = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Try again.');

/** The endpoint form's fields as the server names them, and their labels on the form. */
const ENDPOINT_LABELS: Record<string, string> = { url: 'Endpoint URL', description: 'Description', events: 'Events' };

/**
 * Webhooks: the endpoints of the lending API and of the patient-financing API (tabs), each endpoint's delivery log
 * with every attempt's request and response, redeliver, send a test event. A signing secret is shown once — when the
 * endpoint is added or its secret rotated — and never again: the server has no route that reads it back.
 */
export class DashWebhooksPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .tabs { display: flex; gap: 0.25rem; border-bottom: 1px solid var(--dash-border); margin-bottom: 1rem; }
      .tabs button { background: none; color: var(--dash-muted); border: none; border-bottom: 3px solid transparent; border-radius: 0; }
      .tabs button[aria-selected='true'] { color: var(--dash-primary-dark); border-bottom-color: var(--dash-primary); font-weight: 600; }
      .tabs button:hover:not([disabled]) { background: var(--dash-surface); }
      fieldset { border: 1px solid var(--dash-border); border-radius: 8px; margin: 0.75rem 0 0; padding: 0.5rem 0.75rem; }
      legend { font-weight: 600; padding: 0 0.25rem; }
      .events { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 0.1rem 1rem; }
      .events label { display: flex; align-items: center; gap: 0.5rem; font-weight: 400; margin: 0; min-height: 32px; }
      .events input { width: auto; min-height: 0; }
      .secret code { display: block; background: #fff; border: 1px solid var(--dash-border); border-radius: 8px; padding: 0.5rem; margin: 0.5rem 0; }
      pre { white-space: pre-wrap; word-break: break-all; background: var(--dash-surface); border-radius: 8px; padding: 0.5rem; margin: 0.25rem 0 0.5rem; font-size: 0.82rem; max-height: 16rem; overflow: auto; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.75rem; margin: 0.25rem 0 0.5rem; }
      dt { font-weight: 600; }
      dd { margin: 0; min-width: 0; }
      .attempt { border-top: 1px solid var(--dash-border); padding-top: 0.5rem; margin-top: 0.5rem; }
      .attempt h5 { margin: 0 0 0.25rem; font-size: 0.95rem; }
      .attempt h6 { margin: 0.5rem 0 0; font-size: 0.88rem; }
      .actions { margin-top: 0.75rem; }
      /* A visually hidden caption or header is absolutely positioned: without this it escapes the scrolling wrapper and widens the page on a phone. */
      .table-wrap { position: relative; }
      td .url { display: inline-block; min-width: 11rem; max-width: 22rem; }
      section.card { margin-top: 1rem; }
      section.card > h2 { margin-top: 0; }
      code.event { word-break: normal; white-space: nowrap; }
      .attempts { margin-top: 0.75rem; background: #fbfbfd; }
      .attempts h4 { margin: 0; }
      @media (max-width: 40rem) {
        .attempt dl { grid-template-columns: 1fr; gap: 0; }
        .attempt dd { margin-bottom: 0.35rem; }
      }
      .label { font-size: 0.82rem; font-weight: 600; margin: 0.25rem 0 0; }
      .status-line { min-height: 1.5rem; }
    `,
  ];
  static override properties = {
    mode: {},
    tab: { state: true },
    endpoints: { state: true },
    endpointsCursor: { state: true },
    loading: { state: true },
    listError: { state: true },
    eventTypes: { state: true },
    form: { state: true },
    formBusy: { state: true },
    formError: { state: true },
    revealed: { state: true },
    selected: { state: true },
    busy: { state: true },
    actionError: { state: true },
    actionDone: { state: true },
    deliveries: { state: true },
    deliveriesCursor: { state: true },
    deliveriesError: { state: true },
    openDelivery: { state: true },
    attempts: { state: true },
    attemptsError: { state: true },
  };

  mode: 'test' | 'live' = 'test';
  tab: WebhookApi = 'lending';
  endpoints: Endpoint[] = [];
  endpointsCursor: string | null = null;
  loading = true;
  listError = '';
  eventTypes: Record<WebhookApi, string[]> = { lending: [], sdk: [] };
  /** The add / edit form: absent when closed; `id` set when editing. */
  form: { id?: string; url: string; description: string; events: string[] } | undefined;
  formBusy = false;
  formError: FieldError | undefined;
  revealed: Revealed | undefined;
  selected: Endpoint | undefined;
  busy = '';
  actionError = '';
  actionDone = '';
  deliveries: Delivery[] = [];
  deliveriesCursor: string | null = null;
  deliveriesError = '';
  openDelivery: string | undefined;
  attempts: Attempt[] = [];
  attemptsError = '';
  private poll: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback() {
    super.connectedCallback();
    void this.loadEndpoints();
    api.get<Record<WebhookApi, string[]>>('/webhooks/event-types').then(
      (types) => (this.eventTypes = types),
      () => undefined,
    );
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.poll);
  }

  private get canManage() {
    return allowed('webhooks.manage');
  }

  private async loadEndpoints(more = false) {
    this.loading = true;
    this.listError = '';
    try {
      const page = await api.page<Endpoint>('/webhooks/endpoints', { api: this.tab, cursor: more ? this.endpointsCursor : undefined });
      this.endpoints = more ? [...this.endpoints, ...page.data] : page.data;
      this.endpointsCursor = page.nextCursor;
    } catch (error) {
      this.listError = message(error);
    } finally {
      this.loading = false;
    }
  }

  private switchTab(tab: WebhookApi) {
    if (tab === this.tab) return;
    this.tab = tab;
    this.form = undefined;
    this.selected = undefined;
    this.revealed = undefined;
    this.endpoints = [];
    void this.loadEndpoints();
  }

  /** The tab pattern's keys: arrows, Home and End move between the two tabs. */
  private tabKey = async (event: KeyboardEvent) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const next: WebhookApi = event.key === 'Home' ? 'lending' : event.key === 'End' ? 'sdk' : this.tab === 'lending' ? 'sdk' : 'lending';
    this.switchTab(next);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(`#tab-${next}`)?.focus();
  };

  private openForm(endpoint?: Endpoint) {
    this.formError = undefined;
    this.form = endpoint
      ? { id: endpoint.id, url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events ?? [] }
      : { url: '', description: '', events: [] };
  }

  private toggleEvent(name: string, on: boolean) {
    if (!this.form) return;
    const events = on ? [...this.form.events, name] : this.form.events.filter((e) => e !== name);
    this.form = { ...this.form, events };
  }

  private async submitForm(event: Event) {
    event.preventDefault();
    if (!this.form || this.formBusy) return;
    this.formBusy = true;
    this.formError = undefined;
    const body = { url: this.form.url.trim(), description: this.form.description.trim() || null, events: this.form.events.length ? this.form.events : null };
    try {
      if (this.form.id) {
        const updated = await api.patch<Endpoint>(`/webhooks/endpoints/${this.form.id}`, body);
        this.replaceEndpoint(updated);
        this.actionDone = 'Endpoint saved.';
      } else {
        const created = await api.post<{ endpoint: Endpoint; signingSecret: string | null }>('/webhooks/endpoints', { ...body, api: this.tab });
        this.endpoints = [created.endpoint, ...this.endpoints];
        this.revealed = created.signingSecret
          ? { endpointId: created.endpoint.id, secret: created.signingSecret, note: 'Endpoint added.' }
          : undefined;
        this.actionDone = created.signingSecret ? '' : 'Endpoint added. Its deliveries are signed with your API secret key (sk_…).';
        await this.select(created.endpoint);
      }
      this.form = undefined;
    } catch (error) {
      this.formError = fieldError(error, ENDPOINT_LABELS, 'Something went wrong. Try again.');
    } finally {
      this.formBusy = false;
    }
  }

  private replaceEndpoint(endpoint: Endpoint) {
    this.endpoints = this.endpoints.map((e) => (e.id === endpoint.id ? endpoint : e));
    if (this.selected?.id === endpoint.id) this.selected = endpoint;
  }

  private async select(endpoint: Endpoint) {
    clearTimeout(this.poll);
    if (this.selected?.id !== endpoint.id) {
      this.actionError = '';
      if (this.revealed && this.revealed.endpointId !== endpoint.id) this.revealed = undefined;
    }
    this.selected = endpoint;
    this.openDelivery = undefined;
    this.deliveries = [];
    await this.loadDeliveries();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#endpoint-heading')?.focus();
  }

  private async loadDeliveries(more = false) {
    if (!this.selected) return;
    this.deliveriesError = '';
    try {
      const page: Page<Delivery> = await api.page<Delivery>(`/webhooks/endpoints/${this.selected.id}/deliveries`, { cursor: more ? this.deliveriesCursor : undefined });
      this.deliveries = more ? [...this.deliveries, ...page.data] : page.data;
      this.deliveriesCursor = page.nextCursor;
      if (this.openDelivery) void this.loadAttempts(this.openDelivery);
    } catch (error) {
      this.deliveriesError = message(error);
    }
  }

  /** Re-reads the log every second while a delivery is waiting or in flight (a test event, a redelivery), up to 30 s. */
  private watch(rounds = 30) {
    clearTimeout(this.poll);
    this.poll = setTimeout(async () => {
      await this.loadDeliveries();
      if (rounds > 1 && this.deliveries.some((d) => UNFINISHED.has(d.status))) this.watch(rounds - 1);
      else await this.refreshSelected();
    }, 1000);
  }

  /** Re-reads the open endpoint (its last success or failure moved with a delivery). */
  private async refreshSelected() {
    if (!this.selected) return;
    try {
      this.replaceEndpoint(await api.get<Endpoint>(`/webhooks/endpoints/${this.selected.id}`));
    } catch {
      // Deleted meanwhile, or offline: the next action says so.
    }
  }

  private async loadAttempts(deliveryId: string) {
    this.attemptsError = '';
    try {
      const page = await api.page<Attempt>(`/webhooks/deliveries/${deliveryId}/attempts`, { limit: 20 });
      if (this.openDelivery === deliveryId) this.attempts = page.data;
    } catch (error) {
      this.attemptsError = message(error);
    }
  }

  private toggleDelivery(id: string) {
    if (this.openDelivery === id) {
      this.openDelivery = undefined;
      return;
    }
    this.openDelivery = id;
    this.attempts = [];
    void this.loadAttempts(id);
  }

  /** Runs one action on the selected endpoint with pending / error / done states. */
  private async act(label: string, work: () => Promise<string>) {
    if (this.busy) return;
    this.busy = label;
    this.actionError = '';
    this.actionDone = '';
    try {
      this.actionDone = await work();
    } catch (error) {
      this.actionError = message(error);
    } finally {
      this.busy = '';
    }
  }

  private sendTest(endpoint: Endpoint) {
    return this.act('test', async () => {
      await api.post(`/webhooks/endpoints/${endpoint.id}/test`);
      await this.loadDeliveries();
      this.watch();
      return 'Test event queued: it appears in the delivery log below.';
    });
  }

  private toggleStatus(endpoint: Endpoint) {
    const status = endpoint.status === 'active' ? 'disabled' : 'active';
    return this.act('status', async () => {
      if (status === 'disabled') {
        const ok = await confirmAction({
          title: 'Disable this endpoint?',
          body: `Nothing is sent to ${endpoint.url} while it is disabled, and deliveries waiting for it end now (you can redeliver them after enabling it).`,
          confirm: 'Disable endpoint',
          danger: true,
        });
        if (!ok) return '';
      }
      this.replaceEndpoint(await api.patch<Endpoint>(`/webhooks/endpoints/${endpoint.id}`, { status }));
      return status === 'active' ? 'Endpoint enabled.' : 'Endpoint disabled.';
    });
  }

  private rotate(endpoint: Endpoint) {
    return this.act('rotate', async () => {
      const ok = await confirmAction({
        title: 'Rotate the signing secret?',
        body: 'A new secret signs every delivery from now on. For 24 hours the old one signs too (both signatures are sent), so you can update your receiver without losing events.',
        confirm: 'Rotate secret',
      });
      if (!ok) return '';
      const rotated = await api.post<{ signingSecret: string; previousSecretExpiresAt: string }>(`/webhooks/endpoints/${endpoint.id}/rotate-secret`);
      this.revealed = { endpointId: endpoint.id, secret: rotated.signingSecret, note: `Secret rotated. The previous secret keeps signing until ${when(rotated.previousSecretExpiresAt)}.` };
      return '';
    });
  }

  private deleteEndpoint(endpoint: Endpoint) {
    return this.act('delete', async () => {
      const ok = await confirmAction({
        title: 'Delete this endpoint?',
        body: `Nothing more is sent to ${endpoint.url}; deliveries waiting for it end. This cannot be undone.`,
        confirm: 'Delete endpoint',
        danger: true,
      });
      if (!ok) return '';
      await api.delete(`/webhooks/endpoints/${endpoint.id}`);
      this.endpoints = this.endpoints.filter((e) => e.id !== endpoint.id);
      this.selected = undefined;
      this.revealed = undefined;
      return 'Endpoint deleted.';
    });
  }

  private redeliver(delivery: Delivery) {
    return this.act(`redeliver:${delivery.id}`, async () => {
      await api.post(`/webhooks/deliveries/${delivery.id}/redeliver`);
      await this.loadDeliveries();
      this.watch();
      return `${delivery.event} queued again: a new attempt follows.`;
    });
  }

  override render() {
    return html`
      <h1 tabindex="-1">Webhooks</h1>
      <p class="muted">We send a signed HTTPS request to your endpoints when something happens in ${this.mode} mode. Each endpoint's log shows every attempt: what we sent and what your server answered.</p>
      <div class="tabs" role="tablist" aria-label="Which API's webhooks">
        ${(['lending', 'sdk'] as const).map(
          (tab) => html`<button role="tab" id="tab-${tab}" aria-selected=${this.tab === tab ? 'true' : 'false'} tabindex=${this.tab === tab ? '0' : '-1'} aria-controls="panel" @click=${() => this.switchTab(tab)} @keydown=${this.tabKey}>${API_LABEL[tab]}</button>`,
        )}
      </div>
      <div id="panel" role="tabpanel" aria-labelledby="tab-${this.tab}">
        ${this.tab === 'sdk'
          ? html`<p class="notice">Patient-financing webhooks use that API's envelope (<code>{event, timestamp, data}</code>) and are signed with your API secret key (<code>sk_…</code>), as its specification says: verify <code>X-Service-Signature</code> with it. They have no signing secret of their own; rolling your API key pair rolls their signature.</p>`
          : nothing}
        ${this.renderRevealed()}
        <div class="spread">
          <h2>Endpoints</h2>
          ${this.canManage && !this.form ? html`<button @click=${() => this.openForm()}>Add endpoint</button>` : nothing}
        </div>
        ${this.selected ? nothing : this.renderStatus()}
        ${this.form && !this.form.id ? this.renderForm() : nothing}
        ${this.renderEndpoints()}
        ${this.selected ? this.renderSelected(this.selected) : nothing}
      </div>
    `;
  }

  private renderRevealed() {
    if (!this.revealed) return nothing;
    const { secret, note } = this.revealed;
    return html`<div class="notice secret" role="status">
      <p><strong>${note}</strong> Copy the signing secret now: it is shown only this once. Store it where your receiver reads it; if you lose it, rotate it.</p>
      <code data-secret>${secret}</code>
      <div class="row">
        <dash-copy-button .value=${secret} label="Copy signing secret"></dash-copy-button>
        <button class="secondary" @click=${() => (this.revealed = undefined)}>I have stored it</button>
      </div>
    </div>`;
  }

  private renderForm() {
    const form = this.form!;
    const editing = Boolean(form.id);
    const types = this.eventTypes[this.tab];
    const err = (field: string) => (this.formError?.field === field ? this.formError.message : undefined);
    return html`<form class="card" @submit=${this.submitForm} novalidate>
      <h3>${editing ? 'Edit endpoint' : `Add a ${API_NOUN[this.tab]} endpoint`}</h3>
      <label for="wh-url">Endpoint URL</label>
      <input id="wh-url" type="url" inputmode="url" required autocomplete="off" placeholder="https://example.com/webhooks" .value=${form.url} @input=${(e: Event) => (this.form = { ...form, url: (e.target as HTMLInputElement).value })}
        aria-invalid=${err('url') ? 'true' : 'false'} aria-describedby=${describedBy('wh-url', true, Boolean(err('url')))} />
      <div class="hint" id="wh-url-hint">HTTPS to a public address.${this.mode === 'test' ? ' In test mode plain http to localhost is allowed too.' : ''}</div>
      ${fieldErrorLine('wh-url', err('url'))}
      <label for="wh-description">Description (optional)</label>
      <input id="wh-description" maxlength="255" .value=${form.description} @input=${(e: Event) => (this.form = { ...form, description: (e.target as HTMLInputElement).value })}
        aria-invalid=${err('description') ? 'true' : 'false'} aria-describedby=${describedBy('wh-description', false, Boolean(err('description')))} />
      ${fieldErrorLine('wh-description', err('description'))}
      <fieldset aria-describedby=${describedBy('wh-events', false, Boolean(err('events')))}>
        <legend>Events</legend>
        ${fieldErrorLine('wh-events', err('events'))}
        <p class="hint">None ticked: every event, including ones added later.</p>
        <div class="events">
          ${types.map(
            (name) => html`<label><input type="checkbox" .checked=${form.events.includes(name)} @change=${(e: Event) => this.toggleEvent(name, (e.target as HTMLInputElement).checked)} /><code>${name}</code></label>`,
          )}
        </div>
      </fieldset>
      ${this.formError
        ? html`<p role="alert" class=${this.formError.field ? 'visually-hidden' : 'error'}>${this.formError.field ? `${ENDPOINT_LABELS[this.formError.field]}: ` : ''}${this.formError.message}</p>`
        : nothing}
      <div class="row actions">
        <button type="submit" ?disabled=${this.formBusy}>${this.formBusy ? 'Saving…' : editing ? 'Save endpoint' : 'Add endpoint'}</button>
        <button type="button" class="secondary" @click=${() => (this.form = undefined)}>Cancel</button>
      </div>
    </form>`;
  }

  private renderEndpoints() {
    if (this.listError) return html`<p role="alert" class="error">${this.listError} <button class="secondary" @click=${() => this.loadEndpoints()}>Try again</button></p>`;
    if (this.loading && this.endpoints.length === 0) return html`<p class="muted" role="status">Loading endpoints…</p>`;
    if (this.endpoints.length === 0) {
      return html`<div class="card"><p><strong>No ${API_NOUN[this.tab]} endpoints in ${this.mode} mode yet.</strong></p>
        <p class="muted">${this.canManage ? 'Add one with its URL: then send it a test event to check your receiver verifies the signature.' : 'A developer or an admin of your organisation can add one.'}</p></div>`;
    }
    return html`<div class="table-wrap"><table>
        <caption class="visually-hidden">${API_LABEL[this.tab]} endpoints</caption>
        <thead><tr><th>URL</th><th>Status</th><th>Events</th><th>Added</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          ${this.endpoints.map(
            (e) => html`<tr>
              <td><code class="url">${e.url}</code>${e.description ? html`<div class="muted">${e.description}</div>` : nothing}</td>
              <td>${this.statusBadge(e)}</td>
              <td>${e.events?.length ? e.events.length === 1 ? html`<code>${e.events[0]}</code>` : `${e.events.length} events` : 'All events'}</td>
              <td>${when(e.createdAt)}</td>
              <td><button class="secondary" aria-label="Open ${e.url}" aria-pressed=${this.selected?.id === e.id ? 'true' : 'false'} @click=${() => this.select(e)}>Open</button></td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${this.endpointsCursor ? html`<p><button class="secondary" ?disabled=${this.loading} @click=${() => this.loadEndpoints(true)}>${this.loading ? 'Loading…' : 'Load more endpoints'}</button></p>` : nothing}`;
  }

  private statusBadge(e: Endpoint) {
    if (e.status === 'disabled') return html`<span class="badge bad">Disabled</span>`;
    return e.consecutiveFails > 0 ? html`<span class="badge warn">Failing (${e.consecutiveFails})</span>` : html`<span class="badge ok">Active</span>`;
  }

  private renderSelected(endpoint: Endpoint) {
    const manage = this.canManage;
    return html`<section class="card" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading" tabindex="-1">Endpoint <code>${endpoint.url}</code></h2>
      <dl>
        <dt>Status</dt><dd>${this.statusBadge(endpoint)}</dd>
        <dt>Events</dt><dd>${endpoint.events?.length ? endpoint.events.map((n) => html`<code>${n}</code> `) : 'All events'}</dd>
        ${endpoint.description ? html`<dt>Description</dt><dd>${endpoint.description}</dd>` : nothing}
        <dt>Last success</dt><dd>${when(endpoint.lastSuccessAt)}</dd>
        <dt>Last failure</dt><dd>${when(endpoint.lastFailureAt)}</dd>
      </dl>
      ${manage
        ? html`<div class="row">
            <button ?disabled=${Boolean(this.busy) || endpoint.status !== 'active'} @click=${() => this.sendTest(endpoint)}>${this.busy === 'test' ? 'Sending…' : 'Send test event'}</button>
            <button class="secondary" ?disabled=${Boolean(this.busy)} @click=${() => this.openForm(endpoint)}>Edit</button>
            <button class="secondary" ?disabled=${Boolean(this.busy)} @click=${() => this.toggleStatus(endpoint)}>${this.busy === 'status' ? 'Saving…' : endpoint.status === 'active' ? 'Disable' : 'Enable'}</button>
            ${endpoint.api === 'lending'
              ? html`<button class="secondary" ?disabled=${Boolean(this.busy)} @click=${() => this.rotate(endpoint)}>${this.busy === 'rotate' ? 'Rotating…' : 'Rotate secret'}</button>`
              : nothing}
            <button class="danger" ?disabled=${Boolean(this.busy)} @click=${() => this.deleteEndpoint(endpoint)}>${this.busy === 'delete' ? 'Deleting…' : 'Delete'}</button>
          </div>`
        : nothing}
      ${this.renderStatus()}
      ${this.form?.id === endpoint.id ? this.renderForm() : nothing}
      ${this.renderDeliveries()}
    </section>`;
  }

  /** Pending / error / done of the last action: beside the endpoint's buttons, or above the list once it is gone. */
  private renderStatus() {
    return html`<div class="status-line">
      ${this.actionError ? html`<p role="alert" class="error">${this.actionError}</p>` : nothing}
      <p role="status" class="muted">${this.actionDone}</p>
    </div>`;
  }

  private renderDeliveries() {
    const manage = this.canManage;
    return html`<div class="spread">
        <h3>Delivery log</h3>
        <button class="secondary" @click=${() => this.loadDeliveries()}>Refresh</button>
      </div>
      ${this.deliveriesError ? html`<p role="alert" class="error">${this.deliveriesError}</p>` : nothing}
      ${this.deliveries.length === 0 && !this.deliveriesError
        ? html`<p class="muted">Nothing sent to this endpoint yet.${manage ? ' Send a test event to see a delivery here.' : ''}</p>`
        : html`<div class="table-wrap"><table>
            <caption class="visually-hidden">Deliveries to this endpoint, newest first</caption>
            <thead><tr><th>Event</th><th>Status</th><th class="num">Attempts</th><th>Response</th><th>Created</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              ${this.deliveries.map(
                (d) => html`<tr>
                    <td><code class="event">${d.event}</code></td>
                    <td>${this.deliveryBadge(d)}</td>
                    <td class="num">${d.attemptCount}</td>
                    <td>${d.responseStatus ?? (d.lastError ? 'No answer' : '—')}</td>
                    <td>${when(d.createdAt)}</td>
                    <td><div class="row">
                      <button class="secondary" aria-expanded=${this.openDelivery === d.id ? 'true' : 'false'} aria-label="Attempts of ${d.event} from ${when(d.createdAt)}" @click=${() => this.toggleDelivery(d.id)}>Attempts</button>
                      ${manage && !UNFINISHED.has(d.status)
                        ? html`<button class="secondary" ?disabled=${Boolean(this.busy)} aria-label="Redeliver ${d.event} from ${when(d.createdAt)}" @click=${() => this.redeliver(d)}>${this.busy === `redeliver:${d.id}` ? 'Sending…' : 'Redeliver'}</button>`
                        : nothing}
                    </div></td>
                  </tr>
`,
              )}
            </tbody>
          </table></div>`}
      ${this.renderOpenDelivery()}
      ${this.deliveriesCursor ? html`<p><button class="secondary" @click=${() => this.loadDeliveries(true)}>Load older deliveries</button></p>` : nothing}`;
  }

  private deliveryBadge(d: Delivery) {
    const tone = d.status === 'succeeded' ? 'ok' : d.status === 'dead' ? 'bad' : d.status === 'failed' ? 'warn' : '';
    const label = { pending: 'Pending', delivering: 'Sending', succeeded: 'Succeeded', failed: 'Retrying', dead: 'Failed' }[d.status];
    return html`<span class="badge ${tone}" title=${d.status === 'failed' && d.nextAttemptAt ? `Next attempt ${when(d.nextAttemptAt)}` : ''}>${label}</span>`;
  }

  private renderOpenDelivery() {
    const d = this.deliveries.find((x) => x.id === this.openDelivery);
    if (!d) return nothing;
    return html`<div class="card attempts">
      <div class="spread">
        <h4 id="attempts-heading">Attempts of <code class="event">${d.event}</code> · ${when(d.createdAt)}</h4>
        <button class="secondary" @click=${() => (this.openDelivery = undefined)}>Close</button>
      </div>
      ${this.renderAttempts(d)}
    </div>`;
  }

  private renderAttempts(d: Delivery) {
    if (this.attemptsError) return html`<p role="alert" class="error">${this.attemptsError}</p>`;
    if (this.attempts.length === 0) return html`<p class="muted">${UNFINISHED.has(d.status) ? 'No attempt recorded yet: it is on its way.' : 'No attempt recorded.'}</p>`;
    return html`${this.attempts.map(
      (a) => html`<div class="attempt">
        <h5>Attempt ${a.attempt} · ${when(a.at)} · ${a.succeeded ? html`<span class="badge ok">Delivered</span>` : html`<span class="badge bad">Failed</span>`}</h5>
        <h6>Request</h6>
        ${a.request
          ? html`<dl>
                <dt>Event</dt><dd><code>${a.event}</code></dd>
                <dt>URL</dt><dd><code>${a.url}</code></dd>
                ${Object.entries(a.request.headers).map(([name, value]) => html`<dt>${name}</dt><dd><code>${value}</code></dd>`)}
              </dl>
              <p class="label">Body as sent</p>
              <pre>${a.request.body}</pre>`
          : html`<p class="muted">Not sent.</p>`}
        <h6>Response</h6>
        <dl>
          <dt>Status</dt><dd>${a.response.status ?? 'none'}</dd>
          <dt>Duration</dt><dd>${a.response.durationMs === null ? '—' : `${a.response.durationMs} ms`}</dd>
          ${a.response.error ? html`<dt>Error</dt><dd>${a.response.error}</dd>` : nothing}
        </dl>
        ${a.response.body ? html`<p class="label">Body (first 2 KB)</p><pre>${a.response.body}</pre>` : nothing}
      </div>`,
    )}`;
  }
}
customElements.define('dash-webhooks-page', DashWebhooksPage);
