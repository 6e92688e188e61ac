import { scaleHalfEven } from './rounding';
import type { PricingInput } from './types';

export interface PricingFees {
  processingFeeKobo: number;
  /** The whole premium, 0 when insurance is off. */
  insurancePremiumKobo: number;
  borrowerInsurancePremiumKobo: number;
  tenantInsurancePremiumKobo: number;
  /** Borrower-borne: processing fee + borrower premium. A tenant-borne premium is not in here. */
  totalFeesKobo: number;
}

type FeeTerms = Pick<
  PricingInput,
  'principalKobo' | 'processingFeeBps' | 'processingFeeFlatKobo' | 'insuranceMode' | 'insurancePremiumBps' | 'insurancePremiumBearer'
>;

/** `bps` basis points of `amountKobo`, half-to-even. */
export function bpsOf(amountKobo: number, bps: number): number {
  return scaleHalfEven(amountKobo, bps, 10_000);
}

/** One-off fees of a loan, each rounded half-to-even on its own. */
export function pricingFees(terms: FeeTerms): PricingFees {
  const processingFeeKobo = bpsOf(terms.principalKobo, terms.processingFeeBps) + terms.processingFeeFlatKobo;
  const insurancePremiumKobo = terms.insuranceMode === 'off' ? 0 : bpsOf(terms.principalKobo, terms.insurancePremiumBps);
  const borrowerInsurancePremiumKobo = terms.insurancePremiumBearer === 'borrower' ? insurancePremiumKobo : 0;
  return {
    processingFeeKobo,
    insurancePremiumKobo,
    borrowerInsurancePremiumKobo,
    tenantInsurancePremiumKobo: insurancePremiumKobo - borrowerInsurancePremiumKobo,
    totalFeesKobo: processingFeeKobo + borrowerInsurancePremiumKobo,
  };
}

/**
 * The late fee added once to an instalment when it becomes overdue:
 * roundHalfEven(unpaidKobo × lateFeeBps / 10_000). Not part of the initial schedule.
 */
export function lateFeeFor(unpaidKobo: number, lateFeeBps: number): number {
  if (!Number.isSafeInteger(unpaidKobo) || unpaidKobo < 0) throw new RangeError(`unpaidKobo must be a safe integer >= 0, got ${unpaidKobo}`);
  if (!Number.isSafeInteger(lateFeeBps) || lateFeeBps < 0) throw new RangeError(`lateFeeBps must be an integer >= 0, got ${lateFeeBps}`);
  return bpsOf(unpaidKobo, lateFeeBps);
}
