import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { href } from '../router';
import { allowed } from '../session';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';
import { dashStyles } from '../ui/styles';

interface Settings {
  defaultPreapprovalProduct: { id: string; code: string; name: string } | null;
  autoIssueOffers: boolean;
  notificationEmail: string | null;
  quietHours: { start: string; end: string; timeZone: string };
  operator: { maxInterestRateBps: number | null; preapprovalsEnabled: boolean; preapprovalTtlSeconds: number; defaultAfterDaysOverdue: number | null; liveEnabled: boolean };
}

interface ProductOption {
  id: string;
  code: string;
  name: string;
  approvalMode: string;
  isActive: boolean;
}

const LABELS: Record<string, string> = {
  defaultPreapprovalProductId: 'Default product for pushed decisions',
  autoIssueOffers: 'Issue offers automatically',
  notificationEmail: 'E-mail for operational notices',
  quietHoursStart: 'Quiet from',
  quietHoursEnd: 'Quiet until',
  quietHoursTimeZone: 'Time zone',
};

/** The time zones a quiet-hours pick offers: the organisation's own first, then Lagos, then every zone this browser knows. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'Africa/Lagos', ...known])];
}

const duration = (seconds: number) => (seconds % 86_400 === 0 ? `${seconds / 86_400} days` : seconds % 3600 === 0 ? `${seconds / 3600} hours` : `${Math.round(seconds / 60)} minutes`);

/**
 * The organisation's settings (`/settings`): what the partner API reads for this organisation. Owners and admins set
 * the organisation's own (the default product `issue-offer` uses, automatic offers, the notice e-mail, the quiet hours
 * of borrower reminders); the operator's
 * (interest cap, pre-approvals, live mode) are shown read-only. The same in test and live mode. docs/dashboard/settings.md.
 */
export class DashSettingsPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      form, section.card { max-width: 36rem; }
      .card > h2:first-child { margin-top: 0; }
      .check { display: flex; gap: 0.5rem; align-items: flex-start; font-weight: 600; margin: 1rem 0 0.25rem; }
      .check input { width: auto; min-height: 0; margin-top: 0.3rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0; }
      dt { color: var(--dash-muted); }
      dd { margin: 0; }
      .actions { margin-top: 1rem; }
      fieldset.quiet { border: 1px solid var(--dash-border); border-radius: 8px; margin: 1.25rem 0 0; padding: 0.75rem 1rem 1rem; min-width: 0; }
      fieldset.quiet legend { font-weight: 600; padding: 0 0.25rem; }
      .times { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
      @media (max-width: 480px) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.5rem; } }
    `,
  ];
  static override properties = {
    mode: {},
    settings: { state: true },
    products: { state: true },
    productId: { state: true },
    autoIssue: { state: true },
    email: { state: true },
    quiet: { state: true },
    error: { state: true },
    loadError: { state: true },
    saving: { state: true },
    done: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  settings: Settings | undefined;
  products: ProductOption[] = [];
  productId = '';
  autoIssue = false;
  email = '';
  quiet = { start: '21:00', end: '08:00', timeZone: 'Africa/Lagos' };
  error: FieldError | undefined;
  loadError = '';
  saving = false;
  done = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const [settings, products] = await Promise.all([api.get<Settings>('/organisation/settings'), api.page<ProductOption>('/products', { status: 'active', limit: 100 })]);
      this.products = products.data.filter((p) => p.approvalMode === 'partner_pushed');
      this.show(settings);
    } catch (error) {
      this.loadError = error instanceof DashboardApiError ? error.message : 'The settings could not be loaded.';
    }
  }

  private show(settings: Settings) {
    this.settings = settings;
    this.productId = settings.defaultPreapprovalProduct?.id ?? '';
    this.autoIssue = settings.autoIssueOffers;
    this.email = settings.notificationEmail ?? '';
    this.quiet = { ...settings.quietHours };
  }

  private async save(event: Event) {
    event.preventDefault();
    this.saving = true;
    this.error = undefined;
    this.done = '';
    try {
      this.show(
        await api.patch<Settings>('/organisation/settings', {
          defaultPreapprovalProductId: this.productId || null,
          autoIssueOffers: this.autoIssue,
          notificationEmail: this.email.trim() || null,
          quietHoursStart: this.quiet.start,
          quietHoursEnd: this.quiet.end,
          quietHoursTimeZone: this.quiet.timeZone,
        }),
      );
      this.done = 'Settings saved. The API uses them from now on.';
    } catch (error) {
      this.error = fieldError(error, LABELS);
      const field = this.error.field;
      await this.updateComplete;
      (this.renderRoot.querySelector(field ? `#f-${field}` : '#form-error') as HTMLElement | null)?.focus();
    } finally {
      this.saving = false;
    }
  }

  private renderOperator(settings: Settings) {
    const o = settings.operator;
    return html`<section class="card" aria-labelledby="operator-title">
      <h2 id="operator-title">Set by the platform operator</h2>
      <p class="muted">These limits apply to your organisation; ask the operator to change them.</p>
      <dl>
        <dt>Interest cap</dt><dd>${o.maxInterestRateBps === null ? 'None' : `${(o.maxInterestRateBps / 100).toFixed(2)}% a year: a pushed rate above it is refused, never lowered`}</dd>
        <dt>Pre-approvals</dt><dd>${o.preapprovalsEnabled ? `On; a pushed decision stays open ${duration(o.preapprovalTtlSeconds)}` : 'Off'}</dd>
        <dt>A loan defaults after</dt><dd>${o.defaultAfterDaysOverdue === null ? 'The platform default' : `${o.defaultAfterDaysOverdue} days overdue`} <span class="muted">(unless its product says otherwise)</span></dd>
        <dt>Live mode</dt><dd>${o.liveEnabled ? 'Enabled' : 'Not enabled yet'}</dd>
      </dl>
    </section>`;
  }

  private timeField(field: 'quietHoursStart' | 'quietHoursEnd', key: 'start' | 'end', error: string | undefined, manage: boolean) {
    const id = `f-${field}`;
    return html`<div>
      <label for=${id}>${LABELS[field]}</label>
      <input id=${id} type="time" required .value=${this.quiet[key]} ?readonly=${!manage} aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${describedBy(id, false, Boolean(error))} @input=${(e: Event) => (this.quiet = { ...this.quiet, [key]: (e.target as HTMLInputElement).value })} />
      ${fieldErrorLine(id, error)}
    </div>`;
  }

  override render() {
    const heading = html`<h1 tabindex="-1">Organisation settings</h1>`;
    if (this.loadError) return html`${heading}<p role="alert" class="error">${this.loadError}</p>`;
    const settings = this.settings;
    if (!settings) return html`${heading}<p role="status" class="muted">Loading the settings…</p>`;
    const manage = allowed('organisation.manage');
    const err = (field: string) => (this.error?.field === field ? this.error.message : undefined);
    const current = settings.defaultPreapprovalProduct;
    const offered = current && !this.products.some((p) => p.id === current.id) ? [{ ...current, approvalMode: 'partner_pushed', isActive: true }, ...this.products] : this.products;
    return html`${heading}
      <p class="muted">How the API treats your organisation's pre-approvals, in test and live mode alike.</p>
      ${this.done ? html`<p role="status" class="notice">${this.done}</p>` : nothing}
      <form class="card" @submit=${this.save} novalidate aria-labelledby="own-title">
        <h2 id="own-title">Pre-approvals and offers</h2>
        <label for="f-defaultPreapprovalProductId">${LABELS.defaultPreapprovalProductId}</label>
        <select id="f-defaultPreapprovalProductId" ?disabled=${!manage} aria-invalid=${err('defaultPreapprovalProductId') ? 'true' : 'false'}
          aria-describedby=${describedBy('f-defaultPreapprovalProductId', true, Boolean(err('defaultPreapprovalProductId')))}
          @change=${(e: Event) => (this.productId = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${this.productId === ''}>None: each issue-offer names its productId</option>
          ${offered.map((p) => html`<option value=${p.id} ?selected=${this.productId === p.id}>${p.name} (${p.code})</option>`)}
        </select>
        <p class="hint" id="f-defaultPreapprovalProductId-hint">
          What <code>POST /v1/preapprovals/{id}/issue-offer</code> uses when its body is <code>{}</code>. Only active products whose approval is
          "Your pushed credit decision" are listed${this.products.length === 0 ? html`: you have none yet.${allowed('products.manage') ? html` <a href=${href('/products')}>Define one on the Products page</a>` : ''}` : ''}.
        </p>
        ${fieldErrorLine('f-defaultPreapprovalProductId', err('defaultPreapprovalProductId'))}

        <label class="check" for="f-autoIssueOffers">
          <input id="f-autoIssueOffers" type="checkbox" .checked=${this.autoIssue} ?disabled=${!manage} aria-invalid=${err('autoIssueOffers') ? 'true' : 'false'}
            aria-describedby=${describedBy('f-autoIssueOffers', true, Boolean(err('autoIssueOffers')))} @change=${(e: Event) => (this.autoIssue = (e.target as HTMLInputElement).checked)} />
          ${LABELS.autoIssueOffers}
        </label>
        <p class="hint" id="f-autoIssueOffers-hint">Each approved decision you push gets its offer at once, priced with the default product; you do not call issue-offer.</p>
        ${fieldErrorLine('f-autoIssueOffers', err('autoIssueOffers'))}

        <label for="f-notificationEmail">${LABELS.notificationEmail}</label>
        <input id="f-notificationEmail" type="email" autocomplete="email" .value=${this.email} ?readonly=${!manage} aria-invalid=${err('notificationEmail') ? 'true' : 'false'}
          aria-describedby=${describedBy('f-notificationEmail', true, Boolean(err('notificationEmail')))} @input=${(e: Event) => (this.email = (e.target as HTMLInputElement).value)} />
        <p class="hint" id="f-notificationEmail-hint">Where we write when something needs you, e.g. a webhook endpoint switched off after repeated failures.</p>
        ${fieldErrorLine('f-notificationEmail', err('notificationEmail'))}

        <fieldset class="quiet" aria-describedby="quiet-hint">
          <legend>Borrower reminders: quiet hours</legend>
          <p class="hint" id="quiet-hint">
            No reminder is texted to a borrower between these times; one that falls due then goes when they end. The same start and end means no quiet hours.
          </p>
          <div class="times">
            ${this.timeField('quietHoursStart', 'start', err('quietHoursStart'), manage)} ${this.timeField('quietHoursEnd', 'end', err('quietHoursEnd'), manage)}
          </div>
          <label for="f-quietHoursTimeZone">${LABELS.quietHoursTimeZone}</label>
          <select id="f-quietHoursTimeZone" ?disabled=${!manage} aria-invalid=${err('quietHoursTimeZone') ? 'true' : 'false'}
            aria-describedby=${describedBy('f-quietHoursTimeZone', false, Boolean(err('quietHoursTimeZone')))}
            @change=${(e: Event) => (this.quiet = { ...this.quiet, timeZone: (e.target as HTMLSelectElement).value })}>
            ${timeZones(settings.quietHours.timeZone).map((zone) => html`<option value=${zone} ?selected=${zone === this.quiet.timeZone}>${zone.replaceAll('_', ' ')}</option>`)}
          </select>
          ${fieldErrorLine('f-quietHoursTimeZone', err('quietHoursTimeZone'))}
        </fieldset>

        ${this.error && !this.error.field ? html`<p role="alert" class="error" id="form-error" tabindex="-1">${this.error.message}</p>` : nothing}
        ${this.error?.field ? html`<p role="alert" class="visually-hidden">${LABELS[this.error.field]}: ${this.error.message}</p>` : nothing}
        ${manage
          ? html`<div class="actions"><button type="submit" ?disabled=${this.saving}>${this.saving ? 'Saving…' : 'Save settings'}</button></div>`
          : html`<p class="notice">Your role can read these settings; an owner or admin can change them.</p>`}
      </form>
      ${this.renderOperator(settings)}`;
  }
}
customElements.define('dash-settings-page', DashSettingsPage);
