/* No imports: the build config (`widget/vite-steps.ts`) reads this in Node. */

/**
 * The files the script-tag bundle loads on first need, each its own IIFE reading the shared modules
 * below from the bundle: the rarer steps (`steps.ts`: managed KYC, guarantors, the settlement catalog,
 * the passkey offer, patient financing's identity and decision, an ended link's page), the last step
 * every borrower reaches but none needs before the first screen (`mandate-step.ts`: the direct debit,
 * fetched ahead while the offer or the bank step is shown), and test mode's hints (`test-hints-step.ts`,
 * never fetched in live mode).
 * `folders` and `files` (from `widget/`, without `.ts`) are what each file bundles in; `tags` the
 * elements it defines. The ES module build imports both with the rest (`widget/index.ts`).
 */
export const ON_DEMAND_FILES = {
  'checkout-steps.js': {
    entry: 'steps',
    folders: ['lc-kyc', 'lc-guarantors', 'lc-catalog', 'lc-passkey', 'lc-identity', 'lc-decision', 'lc-ended'],
    files: ['webauthn', 'steps-english', 'i18n/en-steps'],
  },
  'checkout-mandate.js': {
    entry: 'mandate-step',
    folders: ['lc-mandate'],
    files: ['mandate-english', 'i18n/en-mandate'],
  },
  'checkout-test-hints.js': {
    entry: 'test-hints-step',
    folders: ['lc-test-hints'],
    files: ['test-hints-english', 'i18n/en-test-hints'],
  },
} as const;

export type OnDemandFile = keyof typeof ON_DEMAND_FILES;

/** Each on-demand element and the file that defines it (its folder's name is its tag). */
export const ON_DEMAND_TAGS: ReadonlyMap<string, OnDemandFile> = new Map(
  (Object.keys(ON_DEMAND_FILES) as OnDemandFile[]).flatMap((file) => ON_DEMAND_FILES[file].folders.map((tag) => [tag, file] as const)),
);

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

