import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutState, StepName } from '../checkout-api';
import { formatDate, formatKobo } from '../format';
import { t } from '../i18n/i18n';
import { adoptDocumentStyles } from '../document-styles';

/** Light-DOM styles of the review and leave screens (scoped by the shell's element name). */
const reviewStyles = `
lc-checkout dl.lc-review { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
lc-checkout dl.lc-review dt { color: var(--lc-muted, #4b5563); }
lc-checkout dl.lc-review dd { margin: 0; text-align: end; font-weight: 600; }
lc-checkout .lc-leave-actions { display: grid; gap: 0.75rem; }
lc-checkout button.lc-secondary { background: transparent; color: var(--lc-primary, #1d4ed8); }
`;

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
  adoptDocumentStyles('lc-step-review', reviewStyles);
  const resume = html`<p><button type="button" @click=${actions.resume}>${t('history.review.continue')}</button></p>`;
  if (step === 'bank' && !state.mandate?.activatedAt) {
    const bank = state.bank;
    return html`${bank ? html`<p role="status">${t('history.review.bankNow', { bank: bank.bankName, last4: bank.accountNumberLast4 })}</p>` : nothing}
      ${actions.bank()}
      ${bank ? html`<p><button type="button" class="lc-secondary" @click=${actions.resume}>${t('history.review.keep')}</button></p>` : nothing}`;
  }
  if (step === 'offer' && state.offer) {
    const offer = state.offer;
    const last = offer.schedule[offer.schedule.length - 1];
    return html`<p role="status">${t('history.review.offerSigned')}</p>
      <dl class="lc-review">
        <dt>${t('history.review.amount')}</dt><dd>${formatKobo(offer.principalKobo)}</dd>
        <dt>${t('history.review.total')}</dt><dd>${formatKobo(offer.totalRepayableKobo)}</dd>
        <dt>${t('mandate.summary.count')}</dt><dd>${offer.schedule.length}</dd>
        ${last ? html`<dt>${t('mandate.summary.last')}</dt><dd>${formatDate(last.dueDate)}</dd>` : nothing}
      </dl>
      ${resume}`;
  }
  return html`<p role="status">${t('history.review.done')}</p>${resume}`;
}

/** Backing onto the page's first entry: ask before leaving the checkout. */
export function renderLeave(actions: { stay: () => void; leave: () => void; closed: boolean }): TemplateResult {
  adoptDocumentStyles('lc-step-review', reviewStyles);
  return html`<h2 tabindex="-1">${t('history.leave.title')}</h2>
    <p>${t('history.leave.body')}</p>
    ${actions.closed ? html`<p role="status">${t('history.leave.closed')}</p>` : nothing}
    <p class="lc-leave-actions">
      <button type="button" @click=${actions.stay}>${t('history.leave.stay')}</button>
      <button type="button" class="lc-secondary" @click=${actions.leave}>${t('history.leave.go')}</button>
    </p>`;
}

/** What the other tabs compare: where the flow stands (no personal data). */
export const progressSignature = (state: CheckoutState) =>
  [state.status, state.nextStep ?? '', state.steps.filter((s) => s.done).length, state.mandate?.id ?? '', state.mandate?.status ?? '', state.bank?.accountNumberLast4 ?? ''].join('|');
