import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import { CheckoutApi, type CheckoutState, type StepName } from '../checkout-api';
import { currentLocale, errorText, LOCALE_NAMES, LOCALES, LocaleController, setLocale, t, type MessageKey } from '../i18n/i18n';
import { applyTheme, type CheckoutTheme } from '../theme';
import { devicePasskeysAvailable } from '../passkeys';
import '../lc-otp/lc-otp';
import '../lc-offer/lc-offer';
import '../lc-bank/lc-bank';
import { SessionLiveness } from '../session-liveness';
import { whenStepDefined } from '../steps-loader';
import { checkoutStyles } from './lc-checkout.styles';
import { formatDate, formatKobo } from '../format';
import { loanReference } from '../../server/shared/loan-reference';
import { CheckoutEvents } from '../embed/checkout-events';
import type { CheckoutPosition } from '../embed/events';
import { LEAVE_GUARD, StepHistory } from './step-history';
import { TabSync } from './tab-sync';

declare const __LC_LOCALE_PARTIAL__: Partial<Record<string, string>> | null | undefined;
/**
 * The language menu's labels of the locales whose tables still miss keys (`partialLabels()` in
 * tables.ts, from the build's coverage data; the mark is in the language's own words): `null` when
 * every table is complete and in builds without the locales plugin. The menu shows
 * `PARTIAL_LABELS?.[locale] ?? LOCALE_NAMES[locale]`, which a build with no partial locale folds to the name. Kept
 * here, its only reader, not in i18n.ts: the steps runtime re-exports i18n.ts whole, and every export costs bytes.
 */
const PARTIAL_LABELS: Partial<Record<string, string>> | null = typeof __LC_LOCALE_PARTIAL__ === 'undefined' ? null : __LC_LOCALE_PARTIAL__;

import { progressSignature, renderLeave, renderReview } from './step-review';

// The shell's icons (decorative: each sits beside text that says the same).
const svg = (d: string) => html`<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d=${d} /></svg>`;
const GLOBE = svg('M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0h20M12 2c-5 6-5 14 0 20c5-6 5-14 0-20');
const LOCK = svg('M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4');
const CHECK = svg('M5 13l4 4L19 7');

const LOCALE_KEY = 'lc-checkout.locale';
/**
 * The borrower's remembered pick, after saving `pick` when given. Storage can be missing or throw (private
 * modes, some webviews): the pick then lasts for this page only. One function for both, for the bundle's size.
 */
const storedLocale = (pick?: string) => {
  try {
    if (pick) localStorage.setItem(LOCALE_KEY, pick);
    return localStorage.getItem(LOCALE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** What the hosted page's server saw (the `state` attribute). */
type PageState = 'ready' | 'expired' | 'revoked' | 'unknown' | 'missing' | 'unavailable' | 'returned';

const stepTitle = (step: StepName) => t(`step.${step}` as MessageKey);
const ended = (state: string) =>
  t(state === 'expired' ? 'checkout.ended.expired' : state === 'revoked' ? 'checkout.ended.revoked' : state === 'missing' ? 'checkout.ended.missing' : 'checkout.ended.unavailable');

const REJECTION_REASONS = ['identity_mismatch', 'delinquent', 'unaffordable', 'amount_above_risk_limit', 'outside_policy'];

const SESSION_ENDED: Record<string, PageState> = {
  checkout_session_expired: 'expired',
  checkout_session_revoked: 'revoked',
  checkout_session_missing: 'missing',
  UNAUTHENTICATED: 'unknown',
};

/** The public events name a link that is not recognised `missing` (no session), as before the page told it apart from `expired`. */
const publicReason = (state: PageState) => (state === 'unknown' ? 'missing' : state);

/**
 * The checkout: reads the flow's state from the server (never from browser memory), shows the
 * step it needs next with "step n of m", moves focus to each new step's heading, and resumes at
 * the right step after a reload or a return from the rail.
 *
 * Around the step: the lender's branding from its checkout settings (logo or name, brand colour,
 * footer with "Secured by", privacy, terms and support contact), a TEST MODE strip in test mode, a
 * compact language menu; the done screen is a receipt (amount, account, first debit, reference).
 *
 * Hosted (the checkout server's page): the session is the httpOnly cookie. Embedded (created by
 * `LoanCheckout.mount`, or with the `session` property set): the token is sent as a header to the
 * checkout server at `api`, and the rail opens in a new tab. Either way it fires the public event
 * set of `embed/events.ts` (`lc-ready`, `lc-step-changed`, … `lc-error`) with `CheckoutEvent` details.
 *
 * The element's public contract: the events below (also posted to an allowed parent or opener and to
 * the webview bridges; docs/embedding.md), the parts of the steps inside it (`lc-checkout ::part(button
 * primary)`) and the `--lc-*` custom properties, which a partner sets on `lc-checkout` (its own rule wins).
 *
 * @summary The borrower checkout: every step of the loan's flow, from the phone code to the direct debit.
 * @fires {CustomEvent<CheckoutEvent<'ready'>>} lc-ready - the first state has been read and the first screen is rendered.
 * @fires {CustomEvent<CheckoutEvent<'step_changed'>>} lc-step-changed - a new screen is shown (`step`, `previousStep`).
 * @fires {CustomEvent<CheckoutEvent<'otp_verified'>>} lc-otp-verified - the phone is verified.
 * @fires {CustomEvent<CheckoutEvent<'kyc_submitted'>>} lc-kyc-submitted - KYC details went to the platform (`outcome`).
 * @fires {CustomEvent<CheckoutEvent<'bank_captured'>>} lc-bank-captured - the bank account was captured.
 * @fires {CustomEvent<CheckoutEvent<'offer_signed'>>} lc-offer-signed - the borrower signed the offer (`documentReference`).
 * @fires {CustomEvent<CheckoutEvent<'offer_declined'>>} lc-offer-declined - the borrower declined the offer (`documentReference`).
 * @fires {CustomEvent<CheckoutEvent<'mandate_redirect'>>} lc-mandate-redirect - the borrower is sent to the rail's page (`mandateId`, `authorizationUrl`).
 * @fires {CustomEvent<CheckoutEvent<'mandate_active'>>} lc-mandate-active - the direct debit is active (`mandateId`).
 * @fires {CustomEvent<CheckoutEvent<'completed'>>} lc-completed - every step is done.
 * @fires {CustomEvent<CheckoutEvent<'exited'>>} lc-exited - the borrower (or the host) left before the end (`step`, `by`).
 * @fires {CustomEvent<CheckoutEvent<'session_expired'>>} lc-session-expired - the session ended (`reason`).
 * @fires {CustomEvent<CheckoutEvent<'error'>>} lc-error - something failed that the borrower cannot fix on this screen (`code`, `status`).
 * @csspart button - every button of a step (with `primary` or `secondary`)
 * @csspart primary - a step's main action
 * @csspart secondary - a step's other actions
 * @csspart input - text inputs and selects
 * @csspart label - field labels
 * @csspart error - error messages
 * @csspart link - links inside a step (the offer letter, the rail in a new tab)
 * @csspart headline - the offer's repayment per instalment
 * @csspart warning - the bank step's "account in another name" box
 * @csspart notice - why a mandate ended
 * @cssprop --lc-primary - the brand colour: main actions, the progress meter (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (set with `--lc-primary` by the theme, AA whatever the brand)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-font - the font-family list (`theme.fontFamily`)
 * @cssprop --lc-text - body text
 * @cssprop --lc-muted - secondary text
 * @cssprop --lc-border - control borders
 * @cssprop --lc-subtle - dividers and the progress track
 * @cssprop --lc-surface - control backgrounds
 * @cssprop --lc-danger - errors
 * @cssprop --lc-success - the done screen's tick
 * @cssprop --lc-focus - the focus ring
 * @cssprop --lc-notice-bg - the background of notices (code sent, new link sent)
 * @cssprop --lc-control - the height of controls (48 px)
 * @cssprop --lc-s1 - spacing, 4 px
 * @cssprop --lc-s2 - spacing, 8 px
 * @cssprop --lc-s3 - spacing, 12 px
 * @cssprop --lc-s4 - spacing, 16 px
 * @cssprop --lc-s5 - spacing, 24 px
 * @cssprop --lc-s6 - spacing, 32 px
 * @cssprop --lc-t-xs - type size, 12 px
 * @cssprop --lc-t-sm - type size, 14 px
 * @cssprop --lc-t-md - type size, 16 px (body and inputs)
 * @cssprop --lc-t-lg - type size, 18 px
 * @cssprop --lc-t-xl - type size, 20 px (step headings)
 * @cssprop --lc-t-2xl - type size, 28 px (the offer's headline amount)
 */
export class LcCheckout extends LitElement {
  static override properties = {
    apiBase: { attribute: 'api' },
    pageState: { attribute: 'state' },
    session: { attribute: false },
    locale: { reflect: true },
    theme: { type: Object },
  };

  declare apiBase: string;
  declare pageState: PageState;
  /** The language asked for (`pcm`, `yo-NG`…); unset = the browser's languages, then English. */
  declare locale: string | undefined;
  /** Brand colour, radius and font (the `theme` attribute takes the same object as JSON). */
  declare theme: CheckoutTheme | undefined;
  private readonly texts = new LocaleController(this);
  /** Embedded mode: the checkout session token (kept in memory only, never in storage or a URL). */
  declare session: string | undefined;
  private readonly events = new CheckoutEvents(this);
  private readonly load = new AsyncAction<CheckoutState>(this);
  /** The session slides while the page is open (never past its cap); "waiting for the lender" reads the state again by itself. */
  private readonly liveness = new SessionLiveness(this, () => this.api.refreshSession(), () => this.refresh());
  private shownStep: string | undefined;
  private notice = '';
  /** After OTP, where this browser can make a passkey and the borrower has none here: the optional passkey offer. */
  private offerPasskey = false;
  // Step history and second-tab sync (step-history.ts, tab-sync.ts).
  /** A done step shown again (Back, or "Use another bank account"); undefined: the current step. */
  private reviewing: StepName | undefined;
  /** Backed onto the page's first entry: asking before leaving. */
  private leaving = false;
  private readonly stepHistory = new StepHistory((view) => this.historyView(view));
  private readonly tabs = new TabSync(() => void this.refresh());

  constructor() {
    super();
    this.apiBase = '/checkout/api';
    this.pageState = 'ready';
  }

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-checkout', checkoutStyles);
    // Light DOM: the one-time-code input must not sit behind a shadow root (autofill).
    this.replaceChildren();
    return this;
  }

  /** One client per endpoint base, so the steps keep the same `.api` across renders. */
  private client: CheckoutApi | undefined;
  get api(): CheckoutApi {
    if (this.client?.base !== this.apiBase || this.client.token !== this.session) {
      this.client = new CheckoutApi(this.apiBase, this.session, (code) => this.sessionEnded(code));
    }
    return this.client;
  }

  /**
   * The first state read or any step's call found the session over: show the ended state, and nothing of the loan stays
   * on the page. The host hears it once (`session_expired`), so it can mint a new session for the borrower.
   */
  private sessionEnded(code: string) {
    const wasReady = this.pageState === 'ready';
    this.pageState = SESSION_ENDED[code] ?? 'expired';
    if (wasReady) this.events.sessionEnded(publicReason(this.pageState) as 'expired' | 'revoked' | 'missing');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Properties set before the element was defined (LoanCheckout.mount from the ES module, React) are
    // applied by Lit in the first update: read the endpoint, the token and the language only after it.
    void this.updateComplete.then(async () => {
      if (!this.isConnected) return;
      const partner = this.locale;
      void this.applyLocale(storedLocale() ?? partner ?? navigator.languages);
      if (this.pageState !== 'ready') return this.events.loadSettings(true);
      // The partner's `locale` (attribute or mount option) goes to the session, so the code, the texts and the
      // letter follow it until the borrower picks another (negotiate-locale.ts); best effort, like the menu's pick.
      if (partner) this.api.call('POST', '/language', { locale: partner, chosenBy: 'partner' }).catch(() => 0);
      await this.refresh();
      this.events.loadSettings(this.pageState !== 'ready');
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stepHistory.stop();
    this.tabs.stop();
  }

  get checkoutState(): CheckoutState | undefined {
    return this.load.value;
  }

  /** Reads the state again (the host's `refresh` message). */
  reload(): void {
    if (this.pageState === 'ready') void this.refresh();
  }

  private async applyLocale(requested: string | readonly string[]) {
    this.lang = await setLocale(requested, this.apiBase);
    // On the hosted page the page's own title and heading follow the language too.
    this.updateTitle();
  }

  /**
   * The hosted page's `<h1>` and `<title>`: the task in the borrower's language ("Loan confirmed" once
   * the checkout is complete), the title with the lender's name.
   */
  private updateTitle() {
    const heading = document.querySelector('h1.lc-page-title');
    if (!heading) return;
    const state = this.load.value;
    heading.textContent = t(state?.status === 'complete' ? 'page.titleDone' : 'page.title');
    document.title = state ? `${heading.textContent} · ${this.lenderName(state)}` : heading.textContent;
    document.documentElement.lang = this.lang;
  }

  private lenderName = (state: CheckoutState) => state.branding?.displayName ?? state.organisationName;
  /** The logo failed to load (a broken link): the header shows the name instead. */
  private logoFailed = false;
  private brandApplied: string | null | undefined;

  /** The borrower's own pick wins over the page's default, and is remembered across reloads and the rail's round trip. */
  private onLanguage(event: Event) {
    const locale = (this.locale = (event.target as HTMLSelectElement).value);
    storedLocale(locale);
    void this.applyLocale(locale);
    // Kept server side so the code, the receipt and the letter follow it; best effort, the page works without it.
    this.api.call('POST', '/language', { locale }).catch(() => 0);
  }

  private async offerChanged() {
    this.notice = t('checkout.offerChanged');
    await this.refresh();
  }

  /** The phone is verified: load the next step, and decide (quickly, never blocking) whether to offer a passkey first. */
  private async otpVerified() {
    const offer = devicePasskeysAvailable().then(async (device) => {
      if (!device) return false;
      const status = await this.api.passkeys().catch(() => undefined);
      return Boolean(status?.available && status.registered === 0);
    });
    const [, show] = await Promise.all([this.refresh(), offer]);
    this.offerPasskey = show && this.load.value?.status === 'in_progress';
    this.requestUpdate();
  }

  private passkeyDone() {
    this.offerPasskey = false;
    this.requestUpdate();
  }

  private async refresh() {
    await this.load.run((signal) => this.api.state(signal));
    if (this.load.status === 'done') this.liveness.expiresIn(this.load.value?.session.expiresInSeconds);
    const error = this.load.status === 'error' ? this.load.error : undefined;
    if (error && SESSION_ENDED[error.code]) this.sessionEnded(error.code);
    else if (error) this.events.failed(error.code, error.status);
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const live = this.pageState === 'ready' && !this.events.hasExited ? this.load.value?.status : undefined;
    this.liveness.state = live === 'waiting_for_lender' ? 'waiting' : live === 'in_progress' ? 'live' : 'off';
    // The lender's brand colour from its checkout settings; a `theme` given to the element (or the router) wins.
    const brand = this.load.value?.branding?.brandColor;
    if (changed.has('theme') || brand !== this.brandApplied) {
      this.brandApplied = brand;
      // An embed passes its theme with every key, set or not: a key it left undefined keeps the saved colour.
      applyTheme(this, { ...this.theme, brandColor: this.theme?.brandColor ?? brand ?? undefined });
    }
    this.updateTitle();
    const step = this.events.hasExited
      ? 'exited'
      : this.pageState !== 'ready'
        ? this.pageState
        : this.offerPasskey
          ? 'passkey'
          : (this.load.value?.nextStep ?? this.load.value?.status);
    if (step && step !== this.shownStep) {
      const first = this.shownStep === undefined;
      this.shownStep = step;
      // Focus follows the flow to each new step (not on first load: the page has just opened).
      if (!first) void this.focusHeading();
      this.events.stepChanged(publicReason(step as PageState) as CheckoutPosition);
    }
    this.followHistory();
  }

  /** After each state read: tell other tabs when the flow moved, and keep the browser history one entry per step (hosted only). */
  private followHistory() {
    const state = this.load.value;
    if (!state || this.pageState !== 'ready' || this.events.hasExited) return;
    this.tabs.follow(state.session.id);
    this.tabs.seen(progressSignature(state));
    // Embedded, or the hosted page inside someone's frame (the demo's phone, a partner's iframe): their history is not ours to fill.
    if (this.events.embedded || window.self !== window.top) return;
    const current = state.nextStep ?? state.status;
    if (!this.stepHistory.started) {
      const at = state.nextStep ? state.steps.findIndex((s) => s.name === state.nextStep) : state.steps.length;
      const view = this.stepHistory.start(state.session.id, state.steps.slice(0, at).filter((s) => s.done).map((s) => s.name), current);
      // Reloaded on a reviewed step: show it again (on the current one nothing changes, and focus stays put).
      if (view && view !== current) this.historyView(view);
    } else if (this.stepHistory.moved(current) && (this.reviewing || this.leaving)) {
      // The flow moved on (here or in another tab) while a done step or the leave prompt showed: show where it is now.
      this.reviewing = undefined;
      this.leaving = false;
      this.requestUpdate();
    }
  }

  /** An entry of the history became current (Back/Forward, or a reload on it). */
  private historyView(view: string) {
    const state = this.load.value;
    this.leaving = view === LEAVE_GUARD;
    const step = state?.steps.find((s) => s.name === view);
    this.reviewing = !this.leaving && step?.done && view !== state?.nextStep ? step.name : undefined;
    this.showAndFocus();
  }

  /** Renders, then moves focus to the new heading (a screen reader announces where Back led). */
  private showAndFocus() {
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('h2')?.focus());
  }

  /** Shows a done step again on purpose (the mandate step's "Use another bank account"). */
  private review(step: StepName) {
    this.reviewing = step;
    this.stepHistory.push(step);
    this.showAndFocus();
  }

  /** From a review or the leave prompt back to the current step. */
  private resume() {
    this.reviewing = undefined;
    this.leaving = false;
    this.stepHistory.push();
    this.showAndFocus();
  }

  private async bankChanged() {
    // The state first: the mandate step that follows must see the new account, not the old mandate.
    await this.refresh();
    this.resume();
  }

  /** The new step's heading takes the focus; the ended page renders its own, a moment later. */
  private async focusHeading() {
    await this.querySelector('lc-ended')?.updateComplete;
    this.querySelector<HTMLElement>('h2')?.focus();
  }

  override render() {
    if (this.events.hasExited) {
      return html`<h2 tabindex="-1">${t('checkout.exited.title')}</h2><p role="status">${t('checkout.exited.body')}</p>`;
    }
    if (this.pageState === 'returned') return html`<h2 tabindex="-1">${t('checkout.returned.title')}</h2><p role="status">${t('checkout.returned.body')}</p>`;
    if (this.pageState !== 'ready') return this.onDemand('lc-ended', html`<lc-ended .api=${this.api} reason=${this.pageState}></lc-ended>`, true);
    const state = this.load.value;
    if (!state) {
      if (this.load.status === 'error') {
        return html`<h2 tabindex="-1">${t('checkout.error.title')}</h2>
          <p class="lc-error" role="alert">${errorText(this.load.error!)}</p>
          <button type="button" @click=${this.refresh}>${t('checkout.retry')}</button>`;
      }
      return html`<p role="status">${t('checkout.loading')}</p>`;
    }
    const shown = this.leaving ? null : (this.reviewing ?? state.nextStep);
    const index = shown ? state.steps.findIndex((s) => s.name === shown) : -1;
    return html`
      ${this.renderHeader(state)}
      ${index >= 0 && !this.offerPasskey
        ? html`<div class="lc-progress">${t('checkout.progress', { n: index + 1, m: state.steps.length })}
            <span class="lc-meter" aria-hidden="true">${state.steps.map((_, i) => html`<span class=${i <= index ? 'lc-on' : ''}></span>`)}</span></div>`
        : nothing}
      ${this.renderStep(state)}
      ${this.events.canExit && state.status !== 'complete' && state.status !== 'declined'
        ? html`<p class="lc-exit"><button type="button" class="lc-secondary" @click=${this.leave}>${t('checkout.leave')}</button></p>`
        : nothing}
      ${this.renderFooter(state)}
    `;
  }

  /**
   * A thin TEST MODE strip in test mode, then one compact row: the lender (logo, else name) and the language. The name
   * is never cut (a name cut short is one the borrower cannot check): one too long for the row beside the language has
   * the row to itself and wraps, the language below it on the right (the row wraps; styles).
   */
  private renderHeader(state: CheckoutState) {
    const name = this.lenderName(state);
    const logo = state.branding?.logoUrl;
    return html`<header>
      ${state.mode === 'test' ? html`<p class="lc-badge">${t('checkout.testMode')}</p>` : nothing}
      <div class="lc-bar"><span class="lc-brand">${logo && !this.logoFailed
        ? html`<img class="lc-logo" src=${logo} alt=${name} @error=${() => ((this.logoFailed = true), this.requestUpdate())} />`
        : html`<span class="lc-name">${name}</span>`}</span>
      <label class="lc-language">${GLOBE}<span class="lc-visually-hidden">${t('checkout.language')}</span>
        <select @change=${this.onLanguage}>
          ${LOCALES.map((l) => html`<option value=${l} lang=${l} ?selected=${l === currentLocale()}>${PARTIAL_LABELS?.[l] ?? LOCALE_NAMES[l]}</option>`)}
        </select>
      </label></div>
    </header>`;
  }

  /** Secured by the platform; the lender's privacy notice, terms and support contact when its settings give them. */
  private renderFooter(state: CheckoutState) {
    const b = state.branding;
    if (!b) return nothing;
    const page = (url: string | null, label: string) => (url ? html`<a href=${url} target="_blank" rel="noopener">${label}</a>` : nothing);
    return html`<footer class="lc-foot">
      <p>${LOCK}${t('checkout.securedBy', { platform: b.securedBy })}</p>
      <p>
        ${page(b.privacyUrl, t('checkout.privacy'))}${page(b.termsUrl, t('checkout.terms'))}${page(b.supportUrl, t('checkout.help'))}
        ${b.supportEmail ? html`<a href="mailto:${b.supportEmail}">${b.supportEmail}</a>` : nothing}
        ${b.supportPhone ? html`<a href="tel:${b.supportPhone.replace(/[^\d+]/g, '')}">${b.supportPhone}</a>` : nothing}
      </p>
    </footer>`;
  }

  /** The done screen as a receipt: amount, the account repayments come from, the first debit, the reference. */
  private renderReceipt(state: CheckoutState, body: string) {
    const first = state.offer?.schedule[0];
    const row = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value}</dd>`;
    return html`<div class="lc-done">${CHECK}<h2 tabindex="-1">${t('checkout.complete.title')}</h2><p role="status">${body} ${this.payoutText(state)}</p></div>
      ${state.loan
        ? html`<dl class="lc-receipt">
            ${row(t('receipt.amount'), formatKobo(state.offer?.principalKobo ?? state.loan.principalKobo))}
            ${state.bank ? row(t('receipt.account'), `${state.bank.bankName} ••••${state.bank.accountNumberLast4}`) : nothing}
            ${first ? row(t('receipt.firstDebit'), t('receipt.firstDebitValue', { amount: formatKobo(first.totalKobo), date: formatDate(first.dueDate) })) : nothing}
            ${row(t('receipt.reference'), html`<span class="lc-ref">${loanReference(state.loan.id)}</span>`)}
          </dl>
          ${state.loan.receiptSentAt ? html`<p>${t('receipt.texted')}</p>` : nothing}
          <p><a href=${this.myLoanHref(state)}>${t('receipt.myLoan')}</a></p>`
        : nothing}
      <p>${t('checkout.complete.body')}</p>`;
  }

  /** The borrower's own loan page beside this checkout server's endpoints (`<mount>/my-loan/`): see the loan, pay early, pay off. */
  private myLoanHref(state: CheckoutState) {
    return `${new URL('../my-loan/', new URL(`${this.apiBase}/`, location.href))}${state.mode === 'test' ? '?mode=test' : ''}`;
  }

  /** When and where the money goes, as far as the platform knows (`payout`): released on a date, or once the lender releases it. */
  private payoutText(state: CheckoutState) {
    const payout = state.payout;
    const lender = this.lenderName(state);
    if (!payout || payout.to === 'lender' || (payout.to === 'merchant' && !payout.merchantName)) return '';
    const to = payout.to === 'merchant' ? payout.merchantName! : t(payout.to === 'wallet' ? 'payout.toWallet' : 'payout.toBank', { lender });
    return payout.releasedAt ? t('payout.released', { lender, to, date: formatDate(payout.releasedAt) }) : t('payout.pending', { lender, to });
  }

  private leave() {
    this.events.exit('borrower');
  }

  /** A patient-financing application's endings: approved and done, rejected with its reason, expired. */
  private renderFinancingEnd(state: CheckoutState) {
    const financing = state.financing!;
    const organisation = state.organisationName;
    if (state.status === 'complete') return this.renderReceipt(state, t('financing.complete.body', { organisation }));
    if (state.status === 'declined') {
      return html`<h2 tabindex="-1">${t('checkout.declined.title')}</h2><p role="status">${t('financing.declined.body', { organisation })}</p>`;
    }
    if (financing.status === 'expired') {
      return html`<h2 tabindex="-1">${t('financing.expired.title')}</h2><p role="status">${t('financing.expired.body', { organisation })}</p>`;
    }
    const reason = REJECTION_REASONS.includes(financing.rejectionReason ?? '') ? financing.rejectionReason! : 'other';
    return html`<h2 tabindex="-1">${t('financing.rejected.title')}</h2>
      <p role="status">${t(`financing.reason.${reason}` as MessageKey)} ${t('financing.rejected.body', { organisation })}</p>`;
  }

  private renderStep(state: CheckoutState) {
    if (this.leaving) return renderLeave(() => this.resume());
    if (this.reviewing) {
      const body = renderReview(state, this.reviewing, {
        bank: () => html`<lc-bank .api=${this.api} @lc-bank-captured=${this.bankChanged}></lc-bank>`,
        resume: () => this.resume(),
      });
      return html`<h2 tabindex="-1">${stepTitle(this.reviewing)}</h2>${body}`;
    }
    if (state.financing && ['complete', 'declined', 'closed'].includes(state.status)) return this.renderFinancingEnd(state);
    if (state.status === 'complete') return this.renderReceipt(state, t('receipt.confirmed', { organisation: this.lenderName(state) }));
    if (state.status === 'declined') return html`<h2 tabindex="-1">${t('checkout.declined.title')}</h2><p role="status">${t('checkout.declined.body')}</p>`;
    if (state.status === 'closed') return html`<h2 tabindex="-1">${t('checkout.closed.title')}</h2><p role="status">${ended('revoked')}</p>`;
    if (state.status === 'waiting_for_lender') {
      return html`<h2 tabindex="-1">${t('checkout.waiting.title')}</h2><p role="status">${t('checkout.waiting.body')}</p>`;
    }
    if (this.offerPasskey) {
      return html`<h2 tabindex="-1">${t('passkey.offer.title')}</h2>
        ${this.onDemand('lc-passkey', html`<lc-passkey .api=${this.api} @lc-passkey-done=${this.passkeyDone}></lc-passkey>`)}`;
    }
    const step = state.nextStep!;
    const body =
      step === 'otp'
        ? html`<lc-otp .api=${this.api} phone-hint=${state.phoneHint ?? ''} .challenge=${state.otpChallenge} @lc-otp-verified=${this.otpVerified}></lc-otp>`
        : step === 'offer' && state.offer
          ? html`${this.notice ? html`<p role="status">${this.notice}</p>` : nothing}
              <lc-offer .api=${this.api} .offer=${state.offer} borrower-name=${state.borrower ? `${state.borrower.firstName} ${state.borrower.lastName}` : ''} @lc-offer-signed=${this.refresh} @lc-offer-declined=${this.refresh}
                @lc-offer-changed=${this.offerChanged}></lc-offer>`
          : step === 'bank'
            ? html`<lc-bank .api=${this.api} @lc-bank-captured=${this.refresh}></lc-bank>`
            : step === 'kyc'
              ? html`<lc-kyc .api=${this.api} @lc-kyc-verified=${this.refresh}></lc-kyc>`
            : step === 'catalog'
              ? html`<lc-catalog .api=${this.api} .chosen=${state.settlementMerchant} @lc-catalog-chosen=${this.refresh}></lc-catalog>`
            : step === 'identity'
              ? html`<lc-identity .api=${this.api} amount-kobo=${state.financing?.amountKobo ?? 0} @lc-identity-submitted=${this.refresh}></lc-identity>`
            : step === 'decision' && state.financing
              ? html`<lc-decision .api=${this.api} .financing=${state.financing} @lc-tenor-chosen=${this.refresh}></lc-decision>`
            : step === 'guarantors'
              ? html`<lc-guarantors .api=${this.api} required=${state.guarantorsRequired} .guarantors=${state.guarantors ?? []}
                  @lc-guarantors-changed=${this.refresh}></lc-guarantors>`
            : step === 'mandate'
              ? html`<lc-mandate .api=${this.api} .mandate=${state.mandate} .bank=${state.bank} .offer=${state.offer} .emailHint=${state.borrower?.emailHint ?? null}
                  .organisation=${state.organisationName} ?new-tab=${this.events.railInNewTab} @lc-mandate-active=${this.refresh}
                  @lc-mandate-failed=${this.refresh} @lc-mandate-change-bank=${() => this.review('bank')}></lc-mandate>`
              : html`<p role="status">${t('checkout.stepElsewhere')}</p>`;
    // The mandate step comes on demand: fetched ahead while the borrower reads the offer or gives the account.
    if (step === 'offer' || step === 'bank') whenStepDefined('lc-mandate', this.apiBase)?.catch(() => undefined);
    return html`<h2 tabindex="-1">${stepTitle(step)}</h2>${this.onDemand(`lc-${step}`, body)}${state.mode === 'test' && (step === 'otp' || step === 'bank') ? this.testHints(step, state.sandboxInbox) : nothing}`;
  }

  /** Test mode only: where the code is, the sandbox's account numbers (`lc-test-hints`, in the on-demand steps file: nothing more to download in live mode). */
  private testHints(step: string, inbox: string | null | undefined) {
    const loading = whenStepDefined('lc-test-hints', this.apiBase);
    if (!loading) return html`<lc-test-hints step=${step} inbox=${inbox ?? ''}></lc-test-hints>`;
    loading.then(() => this.requestUpdate(), () => undefined);
    return nothing;
  }

  /** The script-tag bundle loads the rarer steps on first need (`steps-loader.ts`): until then a status line, and a way forward if the load fails. */
  private stepsFailed = false;
  private awaitedSteps: Promise<void> | undefined;
  private onDemand(tag: string, body: unknown, ownHeading = false) {
    const loading = this.stepsFailed ? undefined : whenStepDefined(tag, this.apiBase);
    if (this.stepsFailed) {
      return html`${ownHeading ? html`<h2 tabindex="-1">${t('checkout.error.title')}</h2>` : nothing}<p class="lc-error" role="alert">${ended('unavailable')}</p>
        <button type="button" @click=${() => {
          this.stepsFailed = false;
          this.requestUpdate();
        }}>${t('checkout.retry')}</button>`;
    }
    if (!loading) return body;
    // One continuation per load, not one per render while it is in flight.
    if (loading === this.awaitedSteps) return html`<p role="status">${t('checkout.loading')}</p>`;
    this.awaitedSteps = loading;
    loading.then(
      () => this.requestUpdate(),
      () => {
        this.stepsFailed = true;
        this.requestUpdate();
      },
    );
    return html`<p role="status">${t('checkout.loading')}</p>`;
  }
}
