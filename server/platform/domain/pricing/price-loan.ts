/**
 * Prices a loan and builds its repayment schedule. Pure: no clock, no I/O.
 *
 * Conventions (the public contract):
 * - Amounts are integer kobo (safe integers), rates basis points; every computed amount is rounded
 *   half-to-even to the kobo, and every split goes through `splitEvenly` (rounding.ts), whose last
 *   part absorbs the residue, so the rows add up exactly to the totals and no amount is negative.
 * - Interest is the annual nominal rate pro-rated on a 365-day year over actual days.
 * - Instalments fall due every `PERIOD_DAYS[frequency]` days (monthly when unset); there are
 *   ceil(tenor / period) of them and the last falls due on the tenor day, so it may be shorter.
 * - flat: interest on the full principal for the tenor; reducing_balance: equal instalments
 *   (annuity) with interest on the outstanding balance; see interest.ts for both.
 * - Borrower-borne fees (processing fee + a borrower-borne insurance premium) are spread equally
 *   over the instalments as `feeKobo`; a tenant-borne premium is reported but not charged.
 * - APR is an effective annual rate of the borrower's cash flows; see apr.ts.
 */
import { aprBps } from './apr';
import { pricingFees } from './fees';
import { flatRows, reducingBalanceRows, type PrincipalAndInterest } from './interest';
import { PERIOD_DAYS, periodEnds } from './periods';
import { splitEvenly, sumKobo } from './rounding';
import type { NormalisedPricingInput, PricedInstalment, PricedLoan, PricingInput } from './types';
import { assertPriceableInSafeIntegers, normalisePricingInput } from './validate-input';

export type { NormalisedPricingInput, PricedInstalment, PricedLoan, PricingInput, RepaymentFrequency } from './types';
export { PERIOD_DAYS } from './periods';
export { lateFeeFor } from './fees';
export { MAX_APR_BPS } from './apr';

function principalAndInterestRows(terms: NormalisedPricingInput, dayOffsets: number[], periodDays: number): PrincipalAndInterest[] {
  return terms.interestModel === 'flat'
    ? flatRows(terms.principalKobo, terms.annualRateBps, dayOffsets)
    : reducingBalanceRows(terms.principalKobo, terms.annualRateBps, dayOffsets, periodDays);
}

function toInstalments(rows: PrincipalAndInterest[], dayOffsets: number[], feeShares: number[]): PricedInstalment[] {
  return rows.map((row, i) => {
    const feeKobo = feeShares[i] ?? 0;
    return {
      installmentNumber: i + 1,
      dayOffset: dayOffsets[i] ?? 0,
      principalKobo: row.principalKobo,
      interestKobo: row.interestKobo,
      feeKobo,
      totalKobo: sumKobo([row.principalKobo, row.interestKobo, feeKobo]),
    };
  });
}

/** Prices `input`; throws RangeError when a field is out of range or the totals would not be safe integers. */
export function priceLoan(input: PricingInput): PricedLoan {
  const terms = normalisePricingInput(input);
  const periodDays = PERIOD_DAYS[terms.repaymentFrequency];
  const dayOffsets = periodEnds(terms.tenorDays, periodDays);
  assertPriceableInSafeIntegers(terms, dayOffsets.length);

  const rows = principalAndInterestRows(terms, dayOffsets, periodDays);
  const fees = pricingFees(terms);
  const instalments = toInstalments(rows, dayOffsets, splitEvenly(fees.totalFeesKobo, dayOffsets.length));
  const totalInterestKobo = sumKobo(rows.map((row) => row.interestKobo));
  const costOfCreditKobo = sumKobo([totalInterestKobo, fees.totalFeesKobo]);

  return {
    input: terms,
    periodDays,
    instalmentCount: instalments.length,
    totalInterestKobo,
    ...fees,
    costOfCreditKobo,
    totalRepayableKobo: sumKobo([terms.principalKobo, costOfCreditKobo]),
    aprBps: aprBps(terms.principalKobo, instalments),
    instalments,
  };
}
