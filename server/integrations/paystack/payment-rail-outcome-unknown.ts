import type { RailName } from '../rails/payment-rail';
import { PaymentRailError } from '../rails/payment-rail-error';

/**
 * Raised instead of a plain `PaymentRailError` when a money-moving request may have reached the
 * provider and taken effect (a timeout, a 5xx, a dropped connection, an unreadable 200): the
 * platform does not know whether the debit exists. The caller must read it back by `reference`
 * (`readCharge`) before doing anything else, and must never record it as failed on this error
 * alone. `retryable` is false on purpose: the next step is a read, not the same call again.
 *
 * (The domain recognises it by `outcomeUnknown`, see `isOutcomeUnknown` in domain/ports.ts.)
 */
export class PaymentRailOutcomeUnknown extends PaymentRailError {
  override readonly outcomeUnknown = true as const;
  constructor(
    rail: RailName,
    code: string,
    message: string,
    httpStatus: number | null,
    /** The platform's reference of the request whose outcome is unknown (the charge reference). */
    readonly reference: string,
    options?: { cause?: unknown },
  ) {
    super(rail, code, message, httpStatus, false, options);
  }
}

