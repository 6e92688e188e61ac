import { DEFAULT_REPAYMENT_FREQUENCY, PERIOD_DAYS } from './periods';
import type { NormalisedPricingInput, PricingInput, RepaymentFrequency } from './types';

export const MAX_RATE_BPS = 100_000;
export const MAX_TENOR_DAYS = 3650;

const FREQUENCIES = Object.keys(PERIOD_DAYS) as RepaymentFrequency[];
const INTEREST_MODELS = ['flat', 'reducing_balance'] as const;
const INSURANCE_MODES = ['automatic', 'manual', 'off'] as const;
const PREMIUM_BEARERS = ['borrower', 'tenant'] as const;

function integerIn(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new RangeError(`${name} must be one of ${allowed.join(', ')}, got ${String(value)}`);
  return value as T;
}

/**
 * Checks every field (the type alone does not stop a JS caller or a bad DB row) and fills in the
 * default frequency. Copies only the known fields, so the priced loan never echoes stray input.
 */
export function normalisePricingInput(input: PricingInput): NormalisedPricingInput {
  const bps = (name: string, value: unknown) => integerIn(name, value, 0, MAX_RATE_BPS);
  return {
    principalKobo: integerIn('principalKobo', input.principalKobo, 1, Number.MAX_SAFE_INTEGER),
    annualRateBps: bps('annualRateBps', input.annualRateBps),
    tenorDays: integerIn('tenorDays', input.tenorDays, 1, MAX_TENOR_DAYS),
    repaymentFrequency: oneOf('repaymentFrequency', input.repaymentFrequency ?? DEFAULT_REPAYMENT_FREQUENCY, FREQUENCIES),
    interestModel: oneOf('interestModel', input.interestModel, INTEREST_MODELS),
    processingFeeBps: bps('processingFeeBps', input.processingFeeBps),
    processingFeeFlatKobo: integerIn('processingFeeFlatKobo', input.processingFeeFlatKobo, 0, Number.MAX_SAFE_INTEGER),
    insuranceMode: oneOf('insuranceMode', input.insuranceMode, INSURANCE_MODES),
    insurancePremiumBps: bps('insurancePremiumBps', input.insurancePremiumBps),
    insurancePremiumBearer: oneOf('insurancePremiumBearer', input.insurancePremiumBearer, PREMIUM_BEARERS),
    lateFeeBps: bps('lateFeeBps', input.lateFeeBps),
  };
}

/**
 * Refuses terms whose total repayable could leave the safe integer range, before any arithmetic.
 * Bound: interest never exceeds simple interest on the full principal for the whole tenor plus ½
 * kobo of rounding per instalment (outstanding principal never exceeds the principal).
 */
export function assertPriceableInSafeIntegers(terms: NormalisedPricingInput, instalmentCount: number): void {
  const principal = BigInt(terms.principalKobo);
  const interest = (principal * BigInt(terms.annualRateBps * terms.tenorDays)) / 3_650_000n + BigInt(instalmentCount);
  const feeBps = BigInt(terms.processingFeeBps + terms.insurancePremiumBps);
  const fees = (principal * feeBps) / 10_000n + 2n + BigInt(terms.processingFeeFlatKobo);
  if (principal + interest + fees > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('loan too large: its total repayable could exceed Number.MAX_SAFE_INTEGER kobo');
  }
}
