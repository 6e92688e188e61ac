import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import { CheckoutApi, type CheckoutState, type StepName } from '../checkout-api';
import '../lc-otp/lc-otp';
import '../lc-offer/lc-offer';
import '../lc-bank/lc-bank';
import '../lc-mandate/lc-mandate';
import '../lc-kyc/lc-kyc';
import '../lc-guarantors/lc-guarantors';
import { checkoutStyles } from './lc-checkout.styles';
import { CheckoutEvents } from '../embed/checkout-events';
import type { CheckoutPosition } from '../embed/events';

/** What the hosted page's server saw (the `state` attribute). */
type PageState = 'ready' | 'expired' | 'revoked' | 'missing' | 'unavailable' | 'returned';

const STEP_TITLES: Record<StepName, string> = {
  otp: 'Confirm your phone number',
  kyc: 'Confirm your identity',
  guarantors: 'Add your guarantors',
  offer: 'Review and sign your offer',
  bank: 'Your bank account',
  mandate: 'Set up your repayments',
};

const ENDED: Record<string, string> = {
  expired: 'This link has expired. Ask the lender who sent it for a new one.',
  revoked: 'This link has been withdrawn. Ask the lender who sent it for a new one.',
  missing: 'Open the link the lender sent you to continue.',
  unavailable: 'We cannot reach the lending service right now. Please try again in a moment.',
  returned: 'You are done at your bank. Close this tab and go back to finish your loan checkout.',
};

const SESSION_ENDED: Record<string, PageState> = {
  checkout_session_expired: 'expired',
  checkout_session_revoked: 'revoked',
  checkout_session_missing: 'missing',
};

/**
 * The checkout: reads the flow's state from the server (never from browser memory), shows the
 * step it needs next with "step n of m", moves focus to each new step's heading, and resumes at
 * the right step after a reload or a return from the rail.
 *
 * Hosted (the checkout server's page): the session is the httpOnly cookie. Embedded (created by
 * `LoanCheckout.mount`, or with the `session` property set): the token is sent as a header to the
 * checkout server at `api`, and the rail opens in a new tab. Either way it fires the public event
 * set of `embed/events.ts` (`lc-ready`, `lc-step-changed`, … `lc-error`) with `CheckoutEvent` details.
 */
export class LcCheckout extends LitElement {
  static override properties = {
    apiBase: { attribute: 'api' },
    pageState: { attribute: 'state' },
    session: { attribute: false },
    locale: { attribute: 'locale' },
  };

  declare apiBase: string;
  declare pageState: PageState;
  /** Embedded mode: the checkout session token (kept in memory only, never in storage or a URL). */
  declare session: string | undefined;
  /** BCP 47 tag of the borrower's language. English only for now: the seam where locale tables will be loaded lazily. */
  declare locale: string;
  private readonly events = new CheckoutEvents(this);
  private readonly load = new AsyncAction<CheckoutState>(this);
  private shownStep: string | undefined;
  private notice = '';

  constructor() {
    super();
    this.apiBase = '/checkout/api';
    this.pageState = 'ready';
    this.locale = 'en';
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
    if (this.client?.base !== this.apiBase || this.client.token !== this.session) this.client = new CheckoutApi(this.apiBase, this.session);
    return this.client;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Properties set before the element was defined (LoanCheckout.mount from the ES module, React) are
    // applied by Lit in the first update: read the endpoint and the token only after it.
    void this.updateComplete.then(async () => {
      if (!this.isConnected) return;
      if (this.pageState !== 'ready') return this.events.loadSettings(true);
      await this.refresh();
      this.events.loadSettings(this.pageState !== 'ready');
    });
  }

  get checkoutState(): CheckoutState | undefined {
    return this.load.value;
  }

  /** Reads the state again (the host's `refresh` message). */
  reload(): void {
    if (this.pageState === 'ready') void this.refresh();
  }

  private async offerChanged() {
    this.notice = 'The lender updated this offer. Please review the new terms before you sign.';
    await this.refresh();
  }

  private async refresh() {
    await this.load.run((signal) => this.api.state(signal));
    const error = this.load.status === 'error' ? this.load.error : undefined;
    if (error && SESSION_ENDED[error.code]) {
      this.pageState = SESSION_ENDED[error.code]!;
      this.events.sessionEnded(this.pageState as 'expired' | 'revoked' | 'missing');
    } else if (error) this.events.failed(error.code, error.status);
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const step = this.events.hasExited ? 'exited' : this.pageState !== 'ready' ? this.pageState : (this.load.value?.nextStep ?? this.load.value?.status);
    if (step && step !== this.shownStep) {
      const first = this.shownStep === undefined;
      this.shownStep = step;
      // Focus follows the flow to each new step (not on first load: the page has just opened).
      if (!first) this.querySelector<HTMLElement>('h2')?.focus();
      this.events.stepChanged(step as CheckoutPosition);
    }
  }

  override render() {
    if (this.events.hasExited) {
      return html`<h2 tabindex="-1">You left the checkout</h2><p role="status">Nothing more was sent. You can come back to it from the lender.</p>`;
    }
    if (this.pageState === 'returned') return html`<h2 tabindex="-1">Back from your bank</h2><p role="status">${ENDED.returned}</p>`;
    if (this.pageState !== 'ready') {
      return html`<h2 tabindex="-1">This checkout is not available</h2>
        <p role="status">${ENDED[this.pageState] ?? ENDED.unavailable}</p>`;
    }
    const state = this.load.value;
    if (!state) {
      if (this.load.status === 'error') {
        return html`<h2 tabindex="-1">Something went wrong</h2>
          <p class="lc-error" role="alert">${this.load.error!.message}</p>
          <button type="button" @click=${this.refresh}>Try again</button>`;
      }
      return html`<p role="status">Loading your loan checkout…</p>`;
    }
    const index = state.nextStep ? state.steps.findIndex((s) => s.name === state.nextStep) : -1;
    return html`
      <p class="lc-org">${state.organisationName}</p>
      ${index >= 0 ? html`<p class="lc-progress">Step ${index + 1} of ${state.steps.length}</p>` : nothing}
      ${this.renderStep(state)}
      ${this.events.canExit && state.status !== 'complete' && state.status !== 'declined'
        ? html`<p class="lc-exit"><button type="button" class="lc-secondary" @click=${this.leave}>Leave the checkout</button></p>`
        : nothing}
    `;
  }

  private leave() {
    this.events.exit('borrower');
  }

  private renderStep(state: CheckoutState) {
    if (state.status === 'complete') {
      return html`<h2 tabindex="-1">You're all set</h2><p role="status">Your loan checkout is complete. You can close this page.</p>`;
    }
    if (state.status === 'declined') return html`<h2 tabindex="-1">Offer declined</h2><p role="status">You declined this offer.</p>`;
    if (state.status === 'closed') return html`<h2 tabindex="-1">This checkout is closed</h2><p role="status">${ENDED.revoked}</p>`;
    if (state.status === 'waiting_for_lender') {
      return html`<h2 tabindex="-1">Waiting for the lender</h2><p role="status">The lender is reviewing your application. Check back soon.</p>`;
    }
    const step = state.nextStep!;
    const body =
      step === 'otp'
        ? html`<lc-otp .api=${this.api} phone-hint=${state.phoneHint ?? ''} @lc-otp-verified=${this.refresh}></lc-otp>`
        : step === 'offer' && state.offer
          ? html`${this.notice ? html`<p role="status">${this.notice}</p>` : nothing}
              <lc-offer .api=${this.api} .offer=${state.offer} @lc-offer-signed=${this.refresh} @lc-offer-declined=${this.refresh}
                @lc-offer-changed=${this.offerChanged}></lc-offer>`
          : step === 'bank'
            ? html`<lc-bank .api=${this.api} @lc-bank-captured=${this.refresh}></lc-bank>`
            : step === 'kyc'
              ? html`<lc-kyc .api=${this.api} @lc-kyc-verified=${this.refresh}></lc-kyc>`
            : step === 'guarantors'
              ? html`<lc-guarantors .api=${this.api} required=${state.guarantorsRequired} .guarantors=${state.guarantors ?? []}
                  @lc-guarantors-changed=${this.refresh}></lc-guarantors>`
            : step === 'mandate'
              ? html`<lc-mandate .api=${this.api} .mandate=${state.mandate} ?new-tab=${this.events.railInNewTab} @lc-mandate-active=${this.refresh}></lc-mandate>`
              : html`<p role="status">Continue this step in the lender's app: it is not available on this page yet.</p>`;
    return html`<h2 tabindex="-1">${STEP_TITLES[step]}</h2>${body}`;
  }
}
