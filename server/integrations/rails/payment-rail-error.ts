import type { RailName } from './payment-rail';

/**
 * Raised by a payment-rail adapter when the provider refuses a request (a 4xx with its own error
 * code), fails (5xx), answers something unreadable, or cannot be reached in time. `code` is the
 * provider's code or one of `rail_unreachable`, `rail_timeout`, `rail_bad_response`; `retryable`
 * says whether the same call may succeed later (network trouble, 5xx, 429) — a refusal never does;
 * `outcomeUnknown` says the request may have taken effect (a timeout or a 5xx on a write): the
 * collector then looks the charge up by its reference instead of reading it as failed.
 */
export class PaymentRailError extends Error {
  override readonly name = 'PaymentRailError';
  constructor(
    readonly rail: RailName,
    readonly code: string,
    message: string,
    readonly httpStatus: number | null,
    readonly retryable: boolean,
    options?: { cause?: unknown; outcomeUnknown?: boolean },
  ) {
    super(message, { cause: options?.cause });
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
  }

  readonly outcomeUnknown: boolean;
}
