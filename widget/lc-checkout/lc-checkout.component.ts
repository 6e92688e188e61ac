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
import '../lc-identity/lc-identity';
import '../lc-decision/lc-decision';
import { checkoutStyles } from './lc-checkout.styles';

/** What the hosted page's server saw (the `state` attribute). */
type PageState = 'ready' | 'expired' | 'revoked' | 'missing' | 'unavailable';

const STEP_TITLES: Record<StepName, string> = {
  otp: 'Confirm your phone number',
  kyc: 'Confirm your identity',
  identity: 'Confirm your identity',
  decision: 'Choose your repayment plan',
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
 */
export class LcCheckout extends LitElement {
  static override properties = {
    apiBase: { attribute: 'api' },
    pageState: { attribute: 'state' },
  };

  declare apiBase: string;
  declare pageState: PageState;
  private readonly load = new AsyncAction<CheckoutState>(this);
  private shownStep: string | undefined;
  private notice = '';

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
  private get api(): CheckoutApi {
    if (this.client?.base !== this.apiBase) this.client = new CheckoutApi(this.apiBase);
    return this.client;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.pageState === 'ready') void this.refresh();
  }

  private async offerChanged() {
    this.notice = 'The lender updated this offer. Please review the new terms before you sign.';
    await this.refresh();
  }

  private async refresh() {
    await this.load.run((signal) => this.api.state(signal));
    const code = this.load.error?.code;
    if (code && SESSION_ENDED[code]) this.pageState = SESSION_ENDED[code];
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const step = this.pageState !== 'ready' ? this.pageState : (this.load.value?.nextStep ?? this.load.value?.status);
    if (step && step !== this.shownStep) {
      const first = this.shownStep === undefined;
      this.shownStep = step;
      // Focus follows the flow to each new step (not on first load: the page has just opened).
      if (!first) this.querySelector<HTMLElement>('h2')?.focus();
      this.dispatchEvent(new CustomEvent('lc-step-changed', { detail: { step }, bubbles: true, composed: true }));
    }
  }

  override render() {
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
    `;
  }

  /** A patient-financing application's endings: approved and done, rejected with its reason, expired. */
  private renderFinancingEnd(state: CheckoutState) {
    const financing = state.financing!;
    if (state.status === 'complete') {
      return html`<h2 tabindex="-1">You're all set</h2>
        <p role="status">Your repayments are set up. ${state.organisationName} will be notified and paid directly; you can close this page.</p>`;
    }
    if (state.status === 'declined') {
      return html`<h2 tabindex="-1">Offer declined</h2><p role="status">You declined this offer. Talk to ${state.organisationName} about other ways to pay.</p>`;
    }
    if (financing.status === 'expired') {
      return html`<h2 tabindex="-1">This application has expired</h2><p role="status">Ask ${state.organisationName} to start a new one.</p>`;
    }
    const why: Record<string, string> = {
      identity_mismatch: 'We could not confirm your identity with the details given.',
      delinquent: 'Your credit history does not meet our lending criteria at the moment.',
      unaffordable: 'The repayments would be too high for the income you told us.',
      amount_above_risk_limit: 'This amount is above what we can lend you at the moment.',
      outside_policy: 'This amount is outside what we finance.',
    };
    return html`<h2 tabindex="-1">We can't offer you financing</h2>
      <p role="status">${why[financing.rejectionReason ?? ''] ?? 'This application is closed.'} ${state.organisationName} has been told; talk to them about other ways to pay.</p>`;
  }

  private renderStep(state: CheckoutState) {
    if (state.financing && ['complete', 'declined', 'closed'].includes(state.status)) return this.renderFinancingEnd(state);
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
            : step === 'identity'
              ? html`<lc-identity .api=${this.api} amount-kobo=${state.financing?.amountKobo ?? 0} @lc-identity-submitted=${this.refresh}></lc-identity>`
            : step === 'decision' && state.financing
              ? html`<lc-decision .api=${this.api} .financing=${state.financing} @lc-tenor-chosen=${this.refresh}></lc-decision>`
            : step === 'guarantors'
              ? html`<lc-guarantors .api=${this.api} required=${state.guarantorsRequired} .guarantors=${state.guarantors ?? []}
                  @lc-guarantors-changed=${this.refresh}></lc-guarantors>`
            : step === 'mandate'
              ? html`<lc-mandate .api=${this.api} .mandate=${state.mandate} @lc-mandate-active=${this.refresh}></lc-mandate>`
              : html`<p role="status">Continue this step in the lender's app: it is not available on this page yet.</p>`;
    return html`<h2 tabindex="-1">${STEP_TITLES[step]}</h2>${body}`;
  }
}
