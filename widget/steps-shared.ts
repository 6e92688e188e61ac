/* No imports: the build config (`widget/vite-steps.ts`) reads this in Node. */

/**
 * What the on-demand steps file (`widget/steps.ts`, built as its own IIFE; published by `installStepsRuntime` in `steps-runtime.ts`) shares with the main
 * bundle: Lit and the widget modules that hold state (the language, the API client's error class)
 * or that every step uses. The steps build maps each of these imports to this object instead of
 * bundling a second copy (`widget/vite-steps.ts`), so there is one Lit, one current language and
 * one `CheckoutApiError` on the page. A module the steps import that is not listed here fails the
 * steps build, rather than being silently duplicated.
 */
export const STEPS_RUNTIME_GLOBAL = '__lcStepsRuntime';

/** Module specifier (as resolved from `widget/`) → the name it is shared under. */
export const STEPS_RUNTIME_MODULES = {
  lit: 'lit',
  './async-action': 'asyncAction',
  './checkout-api': 'checkoutApi',
  './document-styles': 'documentStyles',
  './format': 'format',
  './i18n/i18n': 'i18n',
  './inputs': 'inputs',
  './passkeys': 'passkeys',
  './step-styles': 'stepStyles',
  './step-events': 'stepEvents',
} as const;

