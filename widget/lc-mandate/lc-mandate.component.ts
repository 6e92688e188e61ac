import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import type { CheckoutApi, Mandate } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import { mandateStyles } from './lc-mandate.styles';

/** How often, and how long, a returning borrower's page asks the rail whether it has confirmed. */
const POLL_MS = 2_000;
const POLL_LIMIT = 30;

/**
 * The direct debit: creates the mandate on the default rail and sends the borrower to the rail's
 * authorisation page by redirect (no popup: it works in webviews). Back on the page — or on any
 * later visit — a mandate that exists but is not active yet is confirmed by asking the platform to
 * activate it until the rail has confirmed. Fires `lc-mandate-redirect` (detail `{mandateId, authorizationUrl}`)
 * as the borrower leaves for the rail and `lc-mandate-active`.
 *
 * With `newTab` (embedded on a partner page, or in a partner app's webview) the rail's page opens in
 * a new tab from a link the borrower taps (no popup blocker involved), and this page confirms by
 * polling meanwhile: navigating away would lose the partner's page.
 */
export class LcMandate extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(mandateStyles)];

  static override properties = {
    api: { attribute: false },
    mandate: { attribute: false },
    newTab: { type: Boolean, attribute: 'new-tab' },
    waiting: { state: true },
    needsEmail: { state: true },
    invalidEmail: { state: true },
  };

  declare newTab: boolean;

  declare api: CheckoutApi;
  /** The loan's current mandate from the server state, if any. */
  declare mandate: Mandate | null;
  declare private waiting: boolean;
  /** The rail needs an e-mail and the borrower has none on record: ask for it here. */
  declare private needsEmail: boolean;
  declare private invalidEmail: boolean;
  private readonly create = new AsyncAction<Mandate>(this);
  private readonly confirm = new AsyncAction<Mandate>(this);
  private readonly locale = new LocaleController(this);
  private polls = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.mandate = null;
    this.newTab = false;
    this.waiting = false;
    this.needsEmail = false;
    this.invalidEmail = false;
  }


  override connectedCallback(): void {
    super.connectedCallback();
    // Back from the rail (the return URL says so), or reopened later with the bank's answer pending:
    // confirm from server-side state, never from browser memory.
    const returning = new URLSearchParams(window.location.search).get('return') === 'mandate';
    const status = this.mandate?.status;
    if (status === 'pending' || (returning && status === 'initiated')) this.startConfirming();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async start(event?: Event) {
    event?.preventDefault();
    let email: string | undefined;
    if (this.needsEmail) {
      email = this.renderRoot.querySelector<HTMLInputElement>('#lc-mandate-email')?.value.trim() ?? '';
      this.invalidEmail = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
      if (this.invalidEmail) {
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('#lc-mandate-email')?.focus();
        return;
      }
    }
    const mandate = await this.create.run((signal) => this.api.createMandate(email, signal));
    if (!mandate) {
      if (this.create.error?.code === 'email_required' && !this.needsEmail) {
        this.needsEmail = true;
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('#lc-mandate-email')?.focus();
      }
      return;
    }
    if (mandate.status === 'active') return this.done();
    if (!mandate.authorizationUrl) return this.startConfirming();
    if (this.newTab) {
      // Rendered as a link to the rail: the borrower's own tap opens the tab.
      this.mandate = mandate;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('a.lc-rail-link')?.focus();
      return;
    }
    this.redirecting(mandate.id, mandate.authorizationUrl);
    window.location.assign(mandate.authorizationUrl);
  }

  private redirecting(mandateId: string, authorizationUrl: string) {
    this.dispatchEvent(new CustomEvent('lc-mandate-redirect', { detail: { mandateId, authorizationUrl }, bubbles: true, composed: true }));
  }

  /** The link opened the rail in another tab: confirm from here while the borrower approves there. */
  private openedInNewTab(mandate: Mandate, authorizationUrl: string) {
    this.redirecting(mandate.id, authorizationUrl);
    this.startConfirming();
  }

  private startConfirming() {
    this.waiting = true;
    this.polls = 0;
    void this.poll();
  }

  private async poll() {
    const mandate = await this.confirm.run((signal) => this.api.activateMandate(signal));
    if (mandate?.status === 'active') return this.done();
    this.polls += 1;
    if (this.polls < POLL_LIMIT && this.confirm.status !== 'error') this.timer = setTimeout(() => void this.poll(), POLL_MS);
    else this.waiting = false;
  }

  private done() {
    this.waiting = false;
    this.dispatchEvent(new CustomEvent('lc-mandate-active', { bubbles: true, composed: true }));
  }

  override render() {
    if (this.waiting) {
      return html`<p role="status">${t('mandate.confirming')}</p>`;
    }
    const createError = this.create.status === 'error' && this.create.error!.code !== 'email_required' ? errorText(this.create.error!) : '';
    const error = createError || (this.confirm.status === 'error' ? errorText(this.confirm.error!) : '');
    const stalled = this.confirm.status === 'done' && this.polls >= POLL_LIMIT;
    return html`
      <p>${t('mandate.intro')}</p>
      ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
      ${stalled ? html`<p role="status">${t('mandate.stalled')}</p>` : nothing}
      ${this.renderAction()}
    `;
  }

  private renderAction() {
    const status = this.mandate?.status;
    const url = this.mandate?.authorizationUrl;
    if (status === 'initiated' && url) {
      if (this.newTab) {
        const mandate = this.mandate!;
        return html`<a part="link" class="lc-rail-link" href=${url} target="_blank" rel="noopener" @click=${() => this.openedInNewTab(mandate, url)}>${t('mandate.continueNewTab')}</a>`;
      }
      return html`<button part="button primary" type="button" @click=${() => {
        this.redirecting(this.mandate!.id, url);
        window.location.assign(url);
      }}>${t('mandate.continue')}</button>`;
    }
    if (status === 'pending') return html`<button part="button primary" type="button" @click=${this.startConfirming}>${t('mandate.checkAgain')}</button>`;
    const button = html`<button part="button primary" type=${this.needsEmail ? 'submit' : 'button'} @click=${this.needsEmail ? nothing : this.start} ?disabled=${this.create.status === 'pending'}>
      ${this.create.status === 'pending' ? t('mandate.preparing') : t('mandate.setUp')}
    </button>`;
    if (!this.needsEmail) return button;
    return html`<form @submit=${this.start} novalidate>
      <div class="lc-field">
        <label part="label" for="lc-mandate-email">${t('mandate.email')}</label>
        <input part="input" id="lc-mandate-email" type="email" autocomplete="email" maxlength="150" aria-invalid=${this.invalidEmail ? 'true' : 'false'}
          aria-describedby="lc-mandate-email-help${this.invalidEmail ? ' lc-mandate-email-error' : ''}" />
        <span id="lc-mandate-email-help">${t('mandate.emailHelp')}</span>
        ${this.invalidEmail ? html`<span id="lc-mandate-email-error" class="lc-error" part="error">${t('mandate.emailInvalid')}</span>` : nothing}
      </div>
      ${button}
    </form>`;
  }
}
