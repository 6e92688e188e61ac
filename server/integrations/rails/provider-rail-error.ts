import { ProviderError } from '../provider-http';
import type { RailName } from './payment-rail';
import { PaymentRailError } from './payment-rail-error';
import { PaymentRailOutcomeUnknown } from '../paystack/payment-rail-outcome-unknown';

/** The shared provider client's codes → the rail error's documented ones. */
const RAIL_CODES: Record<string, string> = {
  provider_timeout: 'rail_timeout',
  provider_unreachable: 'rail_unreachable',
  provider_bad_response: 'rail_bad_response',
  provider_circuit_open: 'rail_circuit_open',
};

/**
 * A provider-backed rail's failure as the platform reads it: `ProviderError` → `PaymentRailError`; for a money-moving
 * call (`unknownOutcomeOf` = its reference) an outcome that may have taken effect becomes `PaymentRailOutcomeUnknown`.
 * `provider` names the provider in the message of a failure that is not the client's own ("talking to Paystack").
 */
export function railErrorOf(rail: RailName, provider: string, error: unknown, unknownOutcomeOf: string | undefined): PaymentRailError {
  if (!(error instanceof ProviderError)) {
    const message = `${rail}: unexpected failure talking to ${provider} (${(error as Error)?.message ?? String(error)}).`;
    return unknownOutcomeOf
      ? new PaymentRailOutcomeUnknown(rail, 'rail_unreachable', message, null, unknownOutcomeOf, { cause: error })
      : new PaymentRailError(rail, 'rail_unreachable', message, null, true, { cause: error });
  }
  const code = RAIL_CODES[error.code] ?? error.code;
  const message = `${rail} (${error.message})`;
  // An unreadable answer to a write that was not a clear refusal (a 2xx, a 5xx or no status) may hide an accepted charge.
  const unreadable = error.code === 'provider_bad_response' && (error.httpStatus === null || error.httpStatus < 300 || error.httpStatus >= 500);
  if (unknownOutcomeOf && (error.outcomeUnknown || unreadable)) return new PaymentRailOutcomeUnknown(rail, code, message, error.httpStatus, unknownOutcomeOf, { cause: error });
  return new PaymentRailError(rail, code, message, error.httpStatus, error.retryable, { cause: error });
}
