import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, CheckoutApiError, CheckoutState, Mandate, MandateFailure, OfferFacts } from '../checkout-api';
import { formatDate, formatKobo } from '../format';
import { stepBaseStyles } from '../step-styles';
import { LocaleController, refusedField, t, type MessageKey } from '../i18n/i18n';
import { mandateStyles } from './lc-mandate.styles';

/** How often, and how long, a returning borrower's page asks the rail whether it has confirmed. */
const POLL_MS = 2_000;
const POLL_LIMIT = 30;

/** The platform's answers for a mandate that ended without becoming active (see `POST /v1/checkout/mandate/activate`). */
const FAILURE_CODES: Record<string, MandateFailure> = { mandate_declined: 'declined', mandate_failed: 'failed', mandate_expired: 'expired' };

/** Every code this step can meet, in words: the network, the rail, and a generic sentence for anything else — never the server's text. */
const mandateErrorText = ({ code }: CheckoutApiError) => t(code === 'network_error' || code === 'rail_unavailable' ? `error.${code}` : 'error.unexpected_error');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The direct debit. Restates what will be debited (the bank and masked account, the amount per
 * repayment, how many, the first and last dates), asks for the e-mail up front when none is on
 * record, creates the mandate on the default rail and sends the borrower to the rail's
 * authorisation page by redirect (no popup: it works in webviews). Back on the page — or on any
 * later visit — a mandate that exists but is not active yet is confirmed by asking the platform to
 * activate it until the rail has confirmed.
 *
 * A mandate refused, failed or expired is never a dead end: the step says what happened in plain
 * words and offers "Try again" (a fresh mandate), "Use another bank account" and the lender's name.
 *
 * Events: `lc-mandate-redirect` (detail `{mandateId, authorizationUrl}`) as the borrower leaves for
 * the rail, `lc-mandate-active` (detail `{mandateId}`), `lc-mandate-failed` (detail `{reason}`: the rail refused, failed
 * or let it expire) and `lc-mandate-change-bank` (the borrower wants another account).
 *
 * With `newTab` (embedded on a partner page, or in a partner app's webview) the rail's page opens in
 * a new tab from a link the borrower taps (no popup blocker involved), and this page confirms by
 * polling meanwhile: navigating away would lose the partner's page.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary The direct debit: what will be debited, then the rail's authorisation page, confirmed on return.
 * @fires {CustomEvent<{mandateId: string; authorizationUrl: string}>} lc-mandate-redirect - the borrower leaves for the rail (the public `lc-mandate-redirect`).
 * @fires {CustomEvent<{mandateId: string}>} lc-mandate-active - the mandate is active (the public `lc-mandate-active`).
 * @fires {CustomEvent<{reason: MandateFailure}>} lc-mandate-failed - the rail refused, failed or let the mandate expire; `detail.reason`.
 * @fires lc-mandate-change-bank - the borrower wants to use another account.
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart secondary - the step's other actions
 * @csspart error - error messages
 * @csspart input - text inputs and selects
 * @csspart label - field labels
 * @csspart link - the link that opens the rail's page in a new tab (embedded)
 * @csspart notice - why a mandate ended (refused, failed or expired)
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 */
export class LcMandate extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(mandateStyles)];

  static override properties = {
    api: { attribute: false },
    mandate: { attribute: false },
    bank: { attribute: false },
    offer: { attribute: false },
    emailHint: { attribute: false },
    organisation: { attribute: false },
    newTab: { type: Boolean, attribute: 'new-tab' },
    waiting: { state: true },
    invalidEmail: { state: true },
    failure: { state: true },
  };

  declare newTab: boolean;
  declare api: CheckoutApi;
  /** The loan's current mandate from the server state, if any. */
  declare mandate: Mandate | null;
  /** The captured account the mandate debits. */
  declare bank: CheckoutState['bank'];
  /** The signed offer: its schedule gives the amounts and dates restated here. */
  declare offer: OfferFacts | null;
  /** The e-mail on record, masked; null: ask for one here. */
  declare emailHint: string | null;
  /** The lender's name, for "talk to …". */
  declare organisation: string;
  declare private waiting: boolean;
  declare private invalidEmail: boolean;
  /** Why the latest mandate ended, as learned on this page (the state's `mandate.failure` otherwise). */
  declare private failure: MandateFailure | null;
  private readonly create = new AsyncAction<Mandate>(this);
  private readonly confirm = new AsyncAction<Mandate>(this);
  private readonly locale = new LocaleController(this);
  private polls = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.mandate = null;
    this.bank = null;
    this.offer = null;
    this.emailHint = null;
    this.organisation = '';
    this.newTab = false;
    this.waiting = false;
    this.invalidEmail = false;
    this.failure = null;
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

  private get ended(): MandateFailure | null {
    return this.failure ?? this.mandate?.failure ?? null;
  }

  private async start(event?: Event) {
    event?.preventDefault();
    let email: string | undefined;
    if (!this.emailHint) {
      email = this.renderRoot.querySelector<HTMLInputElement>('#lc-mandate-email')?.value.trim() ?? '';
      this.invalidEmail = !EMAIL.test(email);
      if (this.invalidEmail) {
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('#lc-mandate-email')?.focus();
        return;
      }
    }
    this.confirm.reset();
    const mandate = await this.create.run((signal) => this.api.createMandate(email, signal));
    // The server refused the e-mail: say so under the field, in the checkout's words.
    if (this.create.error && refusedField(this.create.error) === 'email') {
      this.create.reset();
      this.invalidEmail = true;
    }
    if (!mandate) return;
    this.failure = null;
    this.mandate = mandate;
    if (mandate.status === 'active') return this.done(mandate);
    if (!mandate.authorizationUrl) return this.startConfirming();
    if (this.newTab) {
      // Rendered as a link to the rail: the borrower's own tap opens the tab.
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('a.lc-rail-link')?.focus();
      return;
    }
    this.redirecting(mandate.id, mandate.authorizationUrl);
    window.location.assign(mandate.authorizationUrl);
  }

  private redirecting(mandateId: string, authorizationUrl: string) {
    emit(this, 'lc-mandate-redirect', { mandateId, authorizationUrl });
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
    if (mandate?.status === 'active') return this.done(mandate);
    const failure = this.confirm.status === 'error' ? FAILURE_CODES[this.confirm.error!.code] : undefined;
    if (failure) {
      this.failure = failure;
      this.waiting = false;
      // The host reads the state again: the step (and any other tab) shows the mandate as it now is.
      emit(this, 'lc-mandate-failed', { reason: failure });
      return;
    }
    this.polls += 1;
    if (this.polls < POLL_LIMIT && this.confirm.status !== 'error') this.timer = setTimeout(() => void this.poll(), POLL_MS);
    else this.waiting = false;
  }

  private done(mandate: Mandate) {
    this.waiting = false;
    emit(this, 'lc-mandate-active', { mandateId: mandate.id });
  }

  private changeBank() {
    emit(this, 'lc-mandate-change-bank');
  }

  override render() {
    if (this.waiting) return html`<p role="status">${t('mandate.confirming')}</p>`;
    const ended = this.ended;
    const createError = this.create.status === 'error' ? mandateErrorText(this.create.error!) : '';
    const confirmError = this.confirm.status === 'error' && !FAILURE_CODES[this.confirm.error!.code] ? mandateErrorText(this.confirm.error!) : '';
    const error = createError || confirmError;
    const stalled = this.confirm.status === 'done' && this.polls >= POLL_LIMIT;
    const notices = html`${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
      ${stalled ? html`<p role="status">${t('mandate.stalled')}</p>` : nothing}`;
    // After a failure the ways forward come first (on a small phone they stay above the fold); the summary follows.
    if (ended) {
      return html`${this.renderFailure(ended)} ${notices} ${this.renderAction(ended)} ${this.renderSummary()}
        <p class="lc-contact">${t('mandate.contact', { organisation: this.organisation })}</p>`;
    }
    return html`<p>${t('mandate.intro')}</p> ${this.renderSummary()} ${notices} ${this.renderAction(ended)}`;
  }

  private renderFailure(failure: MandateFailure) {
    return html`<p class="lc-failure" part="notice" role="alert"><strong>${t(`mandate.failed.${failure}` as MessageKey)}</strong></p>`;
  }

  /**
   * What will be debited: from the captured account and the signed offer's schedule. The platform
   * splits every amount evenly with the remainder on the last instalment (`splitEvenly`), so all
   * repayments but the last are equal: the last gets its own row when it differs.
   */
  private renderSummary() {
    const schedule = this.offer?.schedule ?? [];
    const row = (label: MessageKey, value: string) => html`<div><dt>${t(label)}</dt><dd>${value}</dd></div>`;
    const first = schedule[0];
    const last = schedule[schedule.length - 1];
    return html`<section class="lc-summary" aria-labelledby="lc-mandate-summary"><h3 id="lc-mandate-summary">${t('mandate.summary.title')}</h3><dl>
      ${this.bank ? row('mandate.summary.account', `${this.bank.bankName} ••••${this.bank.accountNumberLast4}`) : nothing}
      ${first && last
        ? html`${row('mandate.summary.instalment', formatKobo(first.totalKobo))}
          ${last.totalKobo !== first.totalKobo ? row('mandate.summary.lastAmount', formatKobo(last.totalKobo)) : nothing}
          ${row('mandate.summary.count', String(schedule.length))} ${row('mandate.summary.first', formatDate(first.dueDate))} ${row('mandate.summary.last', formatDate(last.dueDate))}`
        : nothing}
    </dl></section>`;
  }

  private renderAction(ended: MandateFailure | null) {
    const status = this.mandate?.status;
    const url = this.mandate?.authorizationUrl;
    if (!ended && status === 'initiated' && url) {
      if (this.newTab) {
        const mandate = this.mandate!;
        return html`<a part="link" class="lc-rail-link" href=${url} target="_blank" rel="noopener" @click=${() => this.openedInNewTab(mandate, url)}>${t('mandate.continueNewTab')}</a>`;
      }
      return html`<button part="button primary" type="button" @click=${() => {
        this.redirecting(this.mandate!.id, url);
        window.location.assign(url);
      }}>${t('mandate.continue')}</button>`;
    }
    if (!ended && status === 'pending') return html`<button part="button primary" type="button" @click=${this.startConfirming}>${t('mandate.checkAgain')}</button>`;
    const busy = this.create.status === 'pending';
    const label = busy ? t('mandate.preparing') : ended ? t('mandate.tryAgain') : t('mandate.setUp');
    return html`<form @submit=${this.start} novalidate>
      ${this.emailHint
        ? nothing
        : html`<div class="lc-field">
            <label part="label" for="lc-mandate-email">${t('mandate.email')}</label>
            <input part="input" id="lc-mandate-email" name="email" type="email" autocomplete="email" inputmode="email" maxlength="150" required
              aria-invalid=${this.invalidEmail ? 'true' : 'false'}
              aria-describedby="lc-mandate-email-help${this.invalidEmail ? ' lc-mandate-email-error' : ''}" />
            <span id="lc-mandate-email-help">${t('mandate.emailHelp')}</span>
            ${this.invalidEmail ? html`<span id="lc-mandate-email-error" class="lc-error" part="error">${t('mandate.emailInvalid')}</span>` : nothing}
          </div>`}
      <div class="lc-actions">
        <button part="button primary" type="submit" ?disabled=${busy}>${label}</button>
        ${ended ? html`<button part="button secondary" class="lc-secondary" type="button" @click=${this.changeBank}>${t('mandate.changeBank')}</button>` : nothing}
      </div>
    </form>`;
  }
}
