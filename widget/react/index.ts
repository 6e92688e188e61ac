/**
 * React wrapper of `<lc-checkout>` (`@lit/react`), for React partners:
 *
 * ```tsx
 * import { LoanCheckoutElement } from '<package>/widget/react';
 * <LoanCheckoutElement session={token} server="https://api.shop.example/checkout"
 *   onCompleted={(e) => router.push(`/loans/${e.detail.loanId}`)} onExited={() => setOpen(false)} />
 * ```
 *
 * Server-side rendering is safe: importing this module touches no DOM; the element is defined in
 * the browser after the first render (Lit takes over the properties React set before that).
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import type { CheckoutEvent } from '../embed/events';
import { defineCheckoutElements } from '../embed/module';

/** The element's properties React sets (the element class itself loads only in the browser). */
interface CheckoutElementProps {
  session?: string;
  apiBase?: string;
  locale?: string;
}
type CheckoutElement = HTMLElement & CheckoutElementProps;

/** A stand-in for the element class: @lit/react only reads which names are properties. */
const PropertyNames = class {} as unknown as { new (): CheckoutElement; prototype: CheckoutElement };
for (const name of ['session', 'apiBase', 'locale']) {
  Object.defineProperty(PropertyNames.prototype, name, { configurable: true, get: () => undefined, set: () => undefined });
}

const on = <T extends CheckoutEvent['type']>(name: string) => name as EventName<CustomEvent<CheckoutEvent<T>>>;

/** `<lc-checkout>` as a React component: its properties, and one `on…` prop per public event. */
export const LcCheckout = createComponent({
  react: React,
  tagName: 'lc-checkout',
  elementClass: PropertyNames,
  displayName: 'LcCheckout',
  events: {
    onReady: on<'ready'>('lc-ready'),
    onStepChanged: on<'step_changed'>('lc-step-changed'),
    onOtpVerified: on<'otp_verified'>('lc-otp-verified'),
    onKycSubmitted: on<'kyc_submitted'>('lc-kyc-submitted'),
    onBankCaptured: on<'bank_captured'>('lc-bank-captured'),
    onOfferSigned: on<'offer_signed'>('lc-offer-signed'),
    onOfferDeclined: on<'offer_declined'>('lc-offer-declined'),
    onMandateRedirect: on<'mandate_redirect'>('lc-mandate-redirect'),
    onMandateActive: on<'mandate_active'>('lc-mandate-active'),
    onCompleted: on<'completed'>('lc-completed'),
    onExited: on<'exited'>('lc-exited'),
    onSessionExpired: on<'session_expired'>('lc-session-expired'),
    onError: on<'error'>('lc-error'),
  },
});

export type LoanCheckoutElementProps = Omit<React.ComponentProps<typeof LcCheckout>, 'apiBase'> & {
  /** The session token your server minted. */
  session: string;
  /** Your mounted checkout server, e.g. `https://api.shop.example/checkout`. */
  server: string;
};

/** The checkout for one session against your mounted checkout server. */
export function LoanCheckoutElement({ server, ...props }: LoanCheckoutElementProps): React.ReactElement {
  React.useEffect(() => {
    defineCheckoutElements().catch((error: unknown) => console.error('[LoanCheckout] could not load the checkout elements', error));
  }, []);
  return React.createElement(LcCheckout, { ...props, apiBase: `${server.replace(/\/$/, '')}/api` });
}

export { defineCheckoutElements };
export type { CheckoutEvent, CheckoutEventType } from '../embed/events';
