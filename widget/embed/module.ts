/**
 * The ES module for bundlers: the same API as the script tag's global, without the global.
 * Importing it touches no DOM (safe in server-side rendering); the `lc-*` elements are defined by
 * the first `mount()` (or `defineCheckoutElements()`), so a bundler splits them into their own chunk.
 *
 * ```ts
 * import { LoanCheckout } from '<package>/widget';
 * LoanCheckout.mount('#checkout', { session, server: 'https://api.shop.example/checkout', onSuccess });
 * ```
 */
import { createLoanCheckout } from './loan-checkout';

/** Defines `<lc-checkout>` and the step elements (browser only). */
export const defineCheckoutElements = (): Promise<unknown> => import('../index');

export const LoanCheckout = createLoanCheckout(defineCheckoutElements);

export { VERSION } from './loan-checkout';
export type { LoanCheckoutApi, MountOptions, CheckoutListener } from './loan-checkout';
export { CHECKOUT_EVENT_TYPES, domEventName, returnUrlWith } from './events';
export type { CheckoutEvent, CheckoutEventData, CheckoutEventType, CheckoutMessage, CheckoutPosition, HostCommand, ReturnOutcome, StepName } from './events';
