import type { FinancingView, MandateFailure, SettlementMerchantChoice } from './checkout-api';
import type { CheckoutEvent } from './embed/events';

/**
 * The events the step elements fire for `<lc-checkout>`, name → `detail` (`undefined`: none). They
 * bubble and are composed (they leave the step's shadow root); `<lc-checkout>` handles each and stops
 * it at itself. Those that share a public event's name (`lc-otp-verified`, `lc-kyc-submitted`,
 * `lc-bank-captured`, `lc-offer-signed`, `lc-offer-declined`, `lc-mandate-redirect`,
 * `lc-mandate-active`) come out of `<lc-checkout>` as that public event, with a `CheckoutEvent` detail
 * (`embed/events.ts`), which is also what `HTMLElementEventMap` says of those names.
 */
export interface StepEvents {
  'lc-otp-verified': undefined;
  'lc-kyc-submitted': { outcome: 'verified' | 'failed' | 'pending' };
  'lc-kyc-verified': undefined;
  'lc-identity-submitted': FinancingView;
  'lc-tenor-chosen': { tenorMonths: number };
  'lc-guarantors-changed': undefined;
  'lc-catalog-chosen': SettlementMerchantChoice;
  'lc-passkey-done': { registered: boolean };
  'lc-offer-signed': undefined;
  'lc-offer-declined': undefined;
  'lc-offer-changed': undefined;
  'lc-bank-captured': undefined;
  'lc-mandate-redirect': { mandateId: string; authorizationUrl: string };
  'lc-mandate-active': { mandateId: string };
  'lc-mandate-failed': { reason: MandateFailure };
  'lc-mandate-change-bank': undefined;
}

/**
 * Fires an `lc-*` event on `target`, bubbling and composed: a step's event (`StepEvents`, the detail
 * only where it has one), or `<lc-checkout>`'s public event (`domEventName(type)` with its `CheckoutEvent`).
 */
export function emit<K extends keyof StepEvents>(target: EventTarget, name: K, ...detail: StepEvents[K] extends undefined ? [] : [StepEvents[K]]): void;
export function emit(target: EventTarget, name: `lc-${string}`, detail: CheckoutEvent): void;
export function emit(target: EventTarget, name: string, detail?: unknown): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  /** The step events not named like a public event (those are declared in `embed/events.ts`). */
  interface HTMLElementEventMap {
    'lc-kyc-verified': CustomEvent<undefined>;
    'lc-identity-submitted': CustomEvent<FinancingView>;
    'lc-tenor-chosen': CustomEvent<StepEvents['lc-tenor-chosen']>;
    'lc-guarantors-changed': CustomEvent<undefined>;
    'lc-catalog-chosen': CustomEvent<SettlementMerchantChoice>;
    'lc-passkey-done': CustomEvent<StepEvents['lc-passkey-done']>;
    'lc-offer-changed': CustomEvent<undefined>;
    'lc-mandate-failed': CustomEvent<StepEvents['lc-mandate-failed']>;
    'lc-mandate-change-bank': CustomEvent<undefined>;
  }
}
