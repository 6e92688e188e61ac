/**
 * The checkout's public event set: one typed map, delivered three ways (DOM events on
 * `<lc-checkout>`, `postMessage` to an allowed parent or opener, and the webview bridges), plus
 * the hosted page's return-URL redirect for the outcomes. Payloads carry opaque ids and outcomes
 * only: never a name, phone, BVN, account number or amount.
 *
 * Stability: this is a public contract (docs/embedding.md). Within `version: 1` event types and
 * fields are only ever added, never renamed or removed; a breaking change gets `version: 2`.
 *
 * This module is types and pure helpers only: safe to import without a DOM (server-side rendering).
 */
export type StepName = 'otp' | 'kyc' | 'guarantors' | 'offer' | 'bank' | 'mandate';
/** A step, or where the flow stands when no step is left (`complete`, `declined`, `waiting_for_lender`, `closed`). */
export type CheckoutPosition = StepName | 'complete' | 'declined' | 'waiting_for_lender' | 'closed' | 'expired' | 'revoked' | 'missing' | 'unavailable' | 'returned' | 'exited';

/** What each event carries besides `type`, `version`, `sessionId` and `loanId`. */
export interface CheckoutEventData {
  /** The first state has been read and the first screen is rendered. */
  ready: { step: CheckoutPosition };
  step_changed: { step: CheckoutPosition; previousStep: CheckoutPosition | null };
  otp_verified: Record<string, never>;
  /** KYC details went to the platform; `outcome` is what the identity check said. */
  kyc_submitted: { outcome: 'verified' | 'failed' | 'pending' };
  bank_captured: Record<string, never>;
  offer_signed: { documentReference: string };
  offer_declined: { documentReference: string };
  /** The borrower is sent to the rail's page (a new tab when embedded or in a webview): native apps open `authorizationUrl` out of the app. */
  mandate_redirect: { mandateId: string; authorizationUrl: string };
  mandate_active: { mandateId: string };
  /** Every step is done. */
  completed: Record<string, never>;
  /** The borrower (or the host, by message) left before the end. */
  exited: { step: CheckoutPosition | null; by: 'borrower' | 'host' };
  session_expired: { reason: 'expired' | 'revoked' | 'missing' };
  /** Something failed that the borrower cannot fix on this screen; `code` is the machine-readable error. */
  error: { code: string; status: number };
}

export type CheckoutEventType = keyof CheckoutEventData;

export type CheckoutEvent<T extends CheckoutEventType = CheckoutEventType> = {
  [K in T]: { type: K; version: 1; sessionId: string | null; loanId: string | null } & CheckoutEventData[K];
}[T];

export const CHECKOUT_EVENT_TYPES: readonly CheckoutEventType[] = [
  'ready',
  'step_changed',
  'otp_verified',
  'kyc_submitted',
  'bank_captured',
  'offer_signed',
  'offer_declined',
  'mandate_redirect',
  'mandate_active',
  'completed',
  'exited',
  'session_expired',
  'error',
];

/** The DOM event name of a type on `<lc-checkout>`: `lc-` + the type in kebab case (`lc-step-changed`). */
export const domEventName = (type: CheckoutEventType) => `lc-${type.replace(/_/g, '-')}` as const;

/** Messages the checkout posts (`postMessage`, webview bridges) have this shape. */
export interface CheckoutMessage {
  source: 'loan-checkout';
  event: CheckoutEvent;
}

/** Messages a host may post to the checkout; anything else, or from an origin not allowed, is dropped. */
export interface HostCommand {
  source: 'loan-checkout-host';
  command: 'exit' | 'refresh';
}

/** The outcome the hosted page's return URL carries. */
export type ReturnOutcome = 'completed' | 'declined' | 'exited' | 'expired';

/**
 * The partner's return URL with only the outcome and opaque ids added (existing query kept; ours
 * replace any of the same name). Works for https URLs and custom schemes (`myapp://done`).
 */
export function returnUrlWith(returnUrl: string, outcome: ReturnOutcome, ids: { loanId: string | null; sessionId: string | null }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('outcome', outcome);
  if (ids.loanId) url.searchParams.set('loanId', ids.loanId);
  else url.searchParams.delete('loanId');
  if (ids.sessionId) url.searchParams.set('checkoutSessionId', ids.sessionId);
  else url.searchParams.delete('checkoutSessionId');
  return url.href;
}

declare global {
  interface HTMLElementEventMap {
    'lc-ready': CustomEvent<CheckoutEvent<'ready'>>;
    'lc-step-changed': CustomEvent<CheckoutEvent<'step_changed'>>;
    'lc-otp-verified': CustomEvent<CheckoutEvent<'otp_verified'>>;
    'lc-kyc-submitted': CustomEvent<CheckoutEvent<'kyc_submitted'>>;
    'lc-bank-captured': CustomEvent<CheckoutEvent<'bank_captured'>>;
    'lc-offer-signed': CustomEvent<CheckoutEvent<'offer_signed'>>;
    'lc-offer-declined': CustomEvent<CheckoutEvent<'offer_declined'>>;
    'lc-mandate-redirect': CustomEvent<CheckoutEvent<'mandate_redirect'>>;
    'lc-mandate-active': CustomEvent<CheckoutEvent<'mandate_active'>>;
    'lc-completed': CustomEvent<CheckoutEvent<'completed'>>;
    'lc-exited': CustomEvent<CheckoutEvent<'exited'>>;
    'lc-session-expired': CustomEvent<CheckoutEvent<'session_expired'>>;
    'lc-error': CustomEvent<CheckoutEvent<'error'>>;
  }
}
