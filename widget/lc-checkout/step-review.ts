import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutState, StepName } from '../checkout-api';
import { t } from '../i18n/i18n';

/**
 * A done step shown again (Back, or "Use another bank account" after a refused mandate): the bank
 * step stays editable until the direct debit is active (the platform says so too), the signed
 * offer is read-only, any other done step just says so. "Continue" returns to the current step.
 */
export function renderReview(
  state: CheckoutState,
  step: StepName,
  actions: { bank: () => TemplateResult; resume: () => void },
): TemplateResult {
  const resume = html`<p><button type="button" @click=${actions.resume}>${t('history.review.continue')}</button></p>`;
  if (step === 'bank' && !state.mandate?.activatedAt) {
    const bank = state.bank;
    return html`${bank ? html`<p role="status">${t('history.review.bankNow', { account: `${bank.bankName} ••••${bank.accountNumberLast4}` })}</p>` : nothing}
      ${actions.bank()}
      ${bank ? html`<p class="lc-exit"><button type="button" @click=${actions.resume}>${t('history.review.keep')}</button></p>` : nothing}`;
  }
  if (step === 'offer') return html`<p role="status">${t('history.review.offerSigned')}</p>${resume}`;
  return html`<p role="status">${t('history.review.done')}</p>${resume}`;
}

/**
 * Backing onto the page's first entry: ask before leaving. Back once more leaves (Android's own
 * "press Back again to exit"; a tab opened from an SMS then closes), "Stay" returns to the step.
 */
export function renderLeave(stay: () => void): TemplateResult {
  return html`<h2 tabindex="-1">${t('history.leave.title')}</h2>
    <p>${t('history.leave.body')}</p>
    <p><button type="button" @click=${stay}>${t('history.leave.stay')}</button></p>`;
}

/** What the other tabs compare: where the flow stands (no personal data). */
export const progressSignature = (state: CheckoutState) => `${state.status} ${state.nextStep} ${state.mandate?.status} ${state.bank?.accountNumberLast4}`;
