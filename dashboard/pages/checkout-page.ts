import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { allowed } from '../session';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';

/** The branding fields of `/v1/checkout-settings` (server/shared/checkout-contract.ts BRANDING_FIELDS), as this form shows them. */
const BRANDING = [
  { field: 'displayName', label: 'Display name', hint: 'Shown in the checkout\'s header; empty: your organisation\'s name.', type: 'text' },
  { field: 'logoUrl', label: 'Logo URL', hint: 'An https:// image about 40 px tall, shown instead of the name.', type: 'url' },
  { field: 'supportEmail', label: 'Support e-mail', hint: 'In the footer.', type: 'email' },
  { field: 'supportPhone', label: 'Support phone', hint: 'In the footer, e.g. 0700 123 4567.', type: 'tel' },
  { field: 'supportUrl', label: 'Help page URL', hint: '', type: 'url' },
  { field: 'privacyUrl', label: 'Privacy notice URL', hint: '', type: 'url' },
  { field: 'termsUrl', label: 'Terms URL', hint: '', type: 'url' },
] as const;
type BrandingField = (typeof BRANDING)[number]['field'] | 'brandColor';

interface Settings extends Record<BrandingField, string | null> {
  allowedOrigins: string[];
  returnUrl: string | null;
  updatedAt: string | null;
  organisationName: string;
}

interface Form extends Record<BrandingField, string> {
  allowedOrigins: string;
  returnUrl: string;
}

/** Each API field's label on this form: the words a refusal is shown in. */
const LABELS: Record<string, string> = {
  allowedOrigins: 'Allowed origins',
  returnUrl: 'Return URL',
  brandColor: 'Brand colour',
  ...Object.fromEntries(BRANDING.map((b) => [b.field, b.label])),
};
/** Pages and images the borrower's browser opens: https, as the server requires (plain http only for localhost in test mode). */
const WEB_URL_FIELDS = ['logoUrl', 'supportUrl', 'privacyUrl', 'termsUrl'] as const;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `https://shop.example/` as the origin it names (`https://shop.example`); anything with a path is left for the server to refuse. */
const trimOrigin = (value: string) => (/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+\/+$/i.test(value) ? value.replace(/\/+$/, '') : value);

/** The refusal of a web URL the server would also refuse, said before sending; undefined when it may be sent. */
function webUrlProblem(value: string, mode: 'test' | 'live'): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full address starting with https://';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && mode === 'test' && LOOPBACK.has(url.hostname)) return undefined;
  return mode === 'test' ? 'Use an https:// address (plain http only for localhost in test mode).' : 'Use an https:// address.';
}

const HEX = /^#[0-9a-f]{6}$/i;
const DEFAULT_COLOUR = '#1d4ed8';

/** base64url of UTF-8 JSON: the preview's path segment. */
function encodeDraft(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const toForm = (s: Settings): Form => ({
  allowedOrigins: s.allowedOrigins.join('\n'),
  returnUrl: s.returnUrl ?? '',
  displayName: s.displayName ?? '',
  logoUrl: s.logoUrl ?? '',
  brandColor: s.brandColor ?? '',
  supportEmail: s.supportEmail ?? '',
  supportPhone: s.supportPhone ?? '',
  supportUrl: s.supportUrl ?? '',
  privacyUrl: s.privacyUrl ?? '',
  termsUrl: s.termsUrl ?? '',
});

/**
 * Checkout settings: the origins that may embed the checkout, the hosted page's return URL and the branding, with a
 * live preview of the real hosted checkout in a phone frame (360×640). The preview is an iframe of the hosted page's
 * preview mode (`/dashboard/api/checkout/preview/<mode>/<draft>`): the real widget bundle reading a fixture state
 * with the draft branding, reloaded as the partner types (before saving). docs/dashboard/checkout.md.
 */
export class DashCheckoutPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .layout { display: grid; gap: 1.5rem; grid-template-columns: minmax(0, 1fr); }
      @media (min-width: 960px) { .layout { grid-template-columns: minmax(0, 1fr) 384px; align-items: start; } .preview { position: sticky; top: 1rem; } }
      fieldset { border: 1px solid var(--dash-border); border-radius: 12px; padding: 0.5rem 1rem 1rem; margin: 0 0 1rem; background: #fff; min-width: 0; }
      legend { font-weight: 700; padding: 0 0.25rem; }
      textarea { min-height: 5rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9rem; }
      .colour { display: flex; gap: 0.5rem; align-items: center; }
      .colour input[type='color'] { width: 3rem; min-width: 3rem; padding: 0.2rem; }
      .colour input[type='text'] { max-width: 10rem; }
      .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; margin-top: 1rem; }
      .phone { width: 360px; max-width: 100%; height: 640px; box-sizing: content-box; border: 12px solid #1a1f36; border-radius: 32px; overflow: hidden; background: #fff; margin: 0 auto; }
      .phone iframe { display: block; width: 360px; max-width: 100%; height: 640px; border: 0; }
      @media (max-width: 420px) { .phone { border-width: 0; border-radius: 12px; outline: 1px solid var(--dash-border); } }
      .preview h2 { margin-top: 0; }
      .jump { margin: 0 0 1rem; }
      @media (min-width: 960px) { .jump { display: none; } }
    `,
  ];
  static override properties = {
    mode: {},
    form: { state: true },
    saved: { state: true },
    status: { state: true },
    error: { state: true },
    draftUrl: { state: true },
    previewState: { state: true },
    fieldErr: { state: true },
  };
  declare mode: 'test' | 'live';
  declare form: Form | undefined;
  declare saved: Settings | undefined;
  declare status: 'loading' | 'idle' | 'saving' | 'saved' | 'load-error';
  declare error: string;
  /** The refusal of the last save, beside its field when it names one. */
  declare fieldErr: FieldError | undefined;
  declare draftUrl: string;
  /** The preview frame: loading a draft, showing it, or refused (the page answered an error instead of the checkout). */
  declare previewState: 'loading' | 'shown' | 'failed';
  private previewTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.mode = 'test';
    this.status = 'loading';
    this.error = '';
    this.draftUrl = '';
    this.previewState = 'loading';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.previewTimer);
  }

  private async load() {
    this.status = 'loading';
    try {
      this.saved = await api.get<Settings>('/checkout/settings');
      this.form = toForm(this.saved);
      this.status = 'idle';
      this.refreshPreview(true);
    } catch (error) {
      this.error = error instanceof DashboardApiError ? error.message : 'The settings could not be loaded.';
      this.status = 'load-error';
    }
  }

  /** The draft branding as the preview takes it: every field that has a value. */
  private draft(): Record<string, string> {
    const form = this.form!;
    const draft: Record<string, string> = {};
    for (const field of [...BRANDING.map((b) => b.field), 'brandColor'] as BrandingField[]) if (form[field].trim()) draft[field] = form[field].trim();
    return draft;
  }

  /** Reloads the preview frame with the draft, a moment after the last keystroke. */
  private refreshPreview(now = false) {
    clearTimeout(this.previewTimer);
    const update = () => {
      const url = `/dashboard/api/checkout/preview/${this.mode === 'live' ? 'live' : 'test'}/${encodeDraft(this.draft())}`;
      // The first load sets the frame's src; later drafts replace its document, so typing adds no entries to the
      // tab's history (a new src would: Back would walk through the drafts instead of leaving the page).
      const frame = this.renderRoot?.querySelector<HTMLIFrameElement>('iframe');
      this.previewState = 'loading';
      if (frame?.contentWindow && this.draftUrl) frame.contentWindow.location.replace(url);
      else this.draftUrl = url;
    };
    if (now) update();
    else this.previewTimer = setTimeout(update, 250);
  }

  /** The frame loaded a document: the checkout page, or an error answer (the session ended, a refused draft). */
  private previewLoaded(event: Event) {
    const doc = (event.target as HTMLIFrameElement).contentDocument;
    this.previewState = doc && doc.contentType !== 'text/html' ? 'failed' : 'shown';
  }

  private edit(field: keyof Form, value: string) {
    this.form = { ...this.form!, [field]: value };
    if (this.status === 'saved') this.status = 'idle';
    if (field !== 'allowedOrigins' && field !== 'returnUrl') this.refreshPreview();
  }

  private get dirty(): boolean {
    return this.saved !== undefined && this.form !== undefined && JSON.stringify(toForm(this.saved)) !== JSON.stringify(this.form);
  }

  private async save(event: Event) {
    event.preventDefault();
    const form = this.form!;
    const value = (v: string) => (v.trim() === '' ? null : v.trim());
    const origins = form.allowedOrigins.split(/[\s,]+/).map((o) => trimOrigin(o.trim())).filter(Boolean);
    const body: Record<string, unknown> = { allowedOrigins: origins, returnUrl: value(form.returnUrl) };
    for (const field of [...BRANDING.map((b) => b.field), 'brandColor'] as BrandingField[]) body[field] = value(form[field]);
    // What was typed shows as it is saved (a trailing slash gone), so the field and the stored list agree.
    this.form = { ...form, allowedOrigins: origins.join('\n') };
    this.error = '';
    this.fieldErr = undefined;
    for (const field of WEB_URL_FIELDS) {
      const problem = body[field] ? webUrlProblem(String(body[field]), this.mode) : undefined;
      if (problem) return this.showFieldError({ field, message: problem });
    }
    this.status = 'saving';
    try {
      this.saved = await api.patch<Settings>('/checkout/settings', body);
      this.saved.organisationName ??= '';
      this.form = toForm(this.saved);
      this.status = 'saved';
      this.refreshPreview(true);
    } catch (error) {
      this.status = 'idle';
      const refused = fieldError(error, LABELS, 'The settings could not be saved.');
      // The colour's own row shows no error line: its refusal stays above the buttons.
      if (refused.field && refused.field !== 'brandColor') this.showFieldError(refused);
      else this.error = refused.message;
    }
  }

  /** A refusal beside its field, the field focused so it is read out and in view (not a message far below it). */
  private async showFieldError(refused: FieldError) {
    this.fieldErr = refused;
    await this.updateComplete;
    const control = this.renderRoot.querySelector<HTMLElement>(`#f-${refused.field}`);
    control?.focus();
    control?.scrollIntoView({ block: 'center' });
  }

  private errorOf(field: string): string | undefined {
    return this.fieldErr?.field === field ? this.fieldErr.message : undefined;
  }

  private input(field: keyof Form, label: string, options: { type?: string; hint?: string; placeholder?: string } = {}) {
    const id = `f-${field}`;
    const readonly = !allowed('checkout.manage');
    const error = this.errorOf(field);
    return html`<label for=${id}>${label}</label>
      <input id=${id} name=${field} type=${options.type ?? 'text'} .value=${this.form![field]} ?readonly=${readonly} placeholder=${options.placeholder ?? ''}
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy(id, Boolean(options.hint), Boolean(error))} @input=${(e: Event) => this.edit(field, (e.target as HTMLInputElement).value)} />
      ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : nothing}${fieldErrorLine(id, error)}`;
  }

  override render() {
    const heading = html`<h1 tabindex="-1">Checkout</h1>`;
    if (this.status === 'loading') return html`${heading}<p role="status">Loading the checkout settings…</p>`;
    if (this.status === 'load-error' || !this.form) {
      return html`${heading}<p role="alert" class="error">${this.error}</p><button class="secondary" @click=${this.load}>Try again</button>`;
    }
    const form = this.form;
    const manage = allowed('checkout.manage');
    const colour = HEX.test(form.brandColor) ? form.brandColor.toLowerCase() : DEFAULT_COLOUR;
    return html`${heading}
      <p class="muted">How your ${this.mode} checkout looks and where it may be embedded. The preview shows your changes before you save.</p>
      <p class="jump"><button type="button" class="secondary" @click=${() => this.renderRoot.querySelector('#preview-heading')?.scrollIntoView()}>See the preview</button></p>
      <div class="layout">
        <form @submit=${this.save} novalidate aria-label="Checkout settings">
          <fieldset>
            <legend>Embedding</legend>
            <label for="f-allowedOrigins">Allowed origins</label>
            <textarea id="f-allowedOrigins" name="allowedOrigins" .value=${form.allowedOrigins} ?readonly=${!manage}
              aria-invalid=${this.errorOf('allowedOrigins') ? 'true' : 'false'} aria-describedby=${describedBy('f-allowedOrigins', true, Boolean(this.errorOf('allowedOrigins')))}
              placeholder="https://shop.example" @input=${(e: Event) => this.edit('allowedOrigins', (e.target as HTMLTextAreaElement).value)}></textarea>
            <p class="hint" id="f-allowedOrigins-hint">One per line, exactly an origin (no path), at most 10. Your pages at these origins may embed the checkout and receive its events.${this.mode === 'test' ? ' http://localhost is allowed in test mode.' : ''}</p>
            ${fieldErrorLine('f-allowedOrigins', this.errorOf('allowedOrigins'))}
            ${this.input('returnUrl', 'Return URL', { type: 'url', hint: 'Where the hosted checkout sends the borrower at the end (https or your app\'s scheme). Empty: no redirect.', placeholder: 'https://shop.example/done' })}
          </fieldset>
          <fieldset>
            <legend>Branding</legend>
            <label for="f-brandColor">Brand colour</label>
            <div class="colour">
              <input id="f-brandColor-picker" type="color" aria-label="Pick the brand colour" .value=${colour} ?disabled=${!manage}
                @input=${(e: Event) => this.edit('brandColor', (e.target as HTMLInputElement).value)} />
              <input id="f-brandColor" name="brandColor" type="text" .value=${form.brandColor} ?readonly=${!manage} placeholder="#1d4ed8" aria-describedby="f-brandColor-hint"
                @input=${(e: Event) => this.edit('brandColor', (e.target as HTMLInputElement).value)} />
            </div>
            <p class="hint" id="f-brandColor-hint">#rrggbb: buttons, links and the progress bar. Text on it stays readable whatever the colour.</p>
            ${BRANDING.map((b) => this.input(b.field, b.label, { type: b.type, hint: b.hint || undefined, placeholder: b.field === 'displayName' ? this.saved?.organisationName : undefined }))}
          </fieldset>
          ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
          ${this.fieldErr?.field ? html`<p role="alert" class="visually-hidden">${LABELS[this.fieldErr.field]}: ${this.fieldErr.message}</p>` : nothing}
          ${manage
            ? html`<div class="actions">
                <button type="submit" ?disabled=${this.status === 'saving'}>${this.status === 'saving' ? 'Saving…' : 'Save settings'}</button>
                <span role="status" class="muted">${this.status === 'saved' ? 'Saved.' : this.dirty ? 'Unsaved changes: the preview shows them.' : this.saved?.updatedAt ? `Last saved ${when(this.saved.updatedAt)}.` : ''}</span>
              </div>`
            : html`<p class="notice">Your role can read these settings; an owner, admin or developer can change them.</p>`}
        </form>
        <section class="preview" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <p class="hint">The real checkout at a phone's size, with sample data and no real borrower.</p>
          <div class="phone">
            ${this.draftUrl ? html`<iframe title="Checkout preview" src=${this.draftUrl} width="360" height="640" @load=${this.previewLoaded}></iframe>` : nothing}
          </div>
          <p role="status" class="hint">${this.previewState === 'loading' ? 'Updating the preview…' : this.previewState === 'failed' ? 'The preview could not be shown; check your connection or sign in again.' : ''}</p>
        </section>
      </div>`;
  }
}
customElements.define('dash-checkout-page', DashCheckoutPage);
