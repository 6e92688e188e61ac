import { kobo } from '../money';
import { outstandingOf, type Allocation, type InstalmentAllocation, type InstalmentBalance } from './allocate-repayment';

/**
 * Method `wallet` (undrawn credit swept back to the pool): the returned amount reduces principal
 * only, starting with the latest instalment and moving backwards, so the loan shortens from its
 * end and the instalments falling due next are unchanged. Interest and fees are frozen in the
 * pricing snapshot and are not touched. Nothing goes beyond an instalment's unpaid principal; the
 * excess over the loan's whole unpaid principal is returned as `unallocatedKobo`.
 * Same validation as `allocateRepayment` (RangeError on invalid input).
 */
export function allocatePrincipalReturn(amountKobo: number, instalments: readonly InstalmentBalance[]): Allocation {
  if (!Number.isSafeInteger(amountKobo) || amountKobo <= 0) throw new RangeError(`amountKobo must be a positive safe integer, got ${amountKobo}`);
  outstandingOf(instalments); // validates
  let left = amountKobo;
  const applied: InstalmentAllocation[] = [];
  const newestFirst = [...instalments].sort((a, b) => b.installmentNumber - a.installmentNumber);
  for (const i of newestFirst) {
    if (left === 0) break;
    const take = Math.min(left, i.principalKobo - i.paidPrincipalKobo);
    if (take === 0) continue;
    left -= take;
    const cleared =
      i.paidFeeKobo === i.feeKobo + i.lateFeeKobo && i.paidInterestKobo === i.interestKobo && i.paidPrincipalKobo + take === i.principalKobo;
    applied.push({ installmentNumber: i.installmentNumber, feeKobo: 0, interestKobo: 0, principalKobo: take, status: cleared ? 'paid' : 'partial' });
  }
  const principal = amountKobo - left;
  return {
    appliedKobo: kobo(principal),
    unallocatedKobo: left,
    feePortionKobo: 0,
    interestPortionKobo: 0,
    principalPortionKobo: principal,
    instalments: applied.reverse(),
  };
}
