import { addKobo, kobo } from '../money';

/**
 * Repayment allocation: how one repayment is split across a loan's instalments.
 *
 * Rules (public contract; the API docs quote them):
 * - All amounts are integer kobo (safe integers). Nothing is ever split proportionally, so no
 *   rounding happens: every kobo applied lands in exactly one bucket.
 * - Instalments are settled one at a time in due order, oldest first, ordered by
 *   `installmentNumber` (the schedule numbers instalments in due order; `dueDate` is not used for
 *   ordering). The input may be in any order.
 * - Within an instalment the order is strictly fee → interest → principal (Fineract's standard
 *   "principal last" strategy). The fee bucket is `feeKobo + lateFeeKobo`: late fees are fees.
 * - A bucket's outstanding is its amount minus what was already paid into it. Nothing is applied
 *   beyond a bucket's outstanding, so a later instalment receives money only once every earlier
 *   one is fully paid, and a payment equal to the first instalment's total clears exactly it.
 * - Whatever exceeds the loan's whole outstanding is returned as `unallocatedKobo`, not applied.
 * - Invalid input throws RangeError: an amount that is not a positive safe integer, a balance
 *   field that is not a non-negative safe integer, paid above due in any bucket, a repeated
 *   `installmentNumber`, or totals beyond Number.MAX_SAFE_INTEGER.
 */

export interface InstalmentBalance {
  installmentNumber: number;
  /** ISO date; informational here (ordering is by `installmentNumber`). */
  dueDate: string;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  lateFeeKobo: number;
  paidPrincipalKobo: number;
  paidInterestKobo: number;
  /** Already paid into the fee bucket, late-fee payments included. */
  paidFeeKobo: number;
}

export interface InstalmentAllocation {
  installmentNumber: number;
  /** Applied by this payment, per bucket. */
  feeKobo: number;
  interestKobo: number;
  principalKobo: number;
  /** after this payment: 'paid' when every bucket is fully paid, 'partial' when something but not all is paid, else unchanged 'pending' */
  status: 'paid' | 'partial' | 'pending';
}

export interface Allocation {
  /** Applied to the loan; always feePortionKobo + interestPortionKobo + principalPortionKobo. */
  appliedKobo: number;
  /** The excess over the loan's whole outstanding; appliedKobo + unallocatedKobo = amount. */
  unallocatedKobo: number;
  feePortionKobo: number;
  interestPortionKobo: number;
  principalPortionKobo: number;
  /** Only instalments that received something, oldest first. */
  instalments: InstalmentAllocation[];
}

interface Outstanding {
  feeKobo: number;
  interestKobo: number;
  principalKobo: number;
}

function nonNegative(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative safe integer kobo, got ${value}`);
}

/** What one instalment still owes per bucket; throws RangeError on invalid fields or paid > due. */
function owedBy(i: InstalmentBalance): Outstanding {
  const at = `instalment ${i.installmentNumber}`;
  if (!Number.isSafeInteger(i.installmentNumber)) throw new RangeError(`installmentNumber must be a safe integer, got ${i.installmentNumber}`);
  for (const key of ['principalKobo', 'interestKobo', 'feeKobo', 'lateFeeKobo', 'paidPrincipalKobo', 'paidInterestKobo', 'paidFeeKobo'] as const) {
    nonNegative(i[key], `${at} ${key}`);
  }
  const feeDue = addKobo(i.feeKobo, i.lateFeeKobo);
  if (i.paidFeeKobo > feeDue) throw new RangeError(`${at}: paidFeeKobo ${i.paidFeeKobo} exceeds fee + late fee ${feeDue}`);
  if (i.paidInterestKobo > i.interestKobo) throw new RangeError(`${at}: paidInterestKobo ${i.paidInterestKobo} exceeds interestKobo ${i.interestKobo}`);
  if (i.paidPrincipalKobo > i.principalKobo) throw new RangeError(`${at}: paidPrincipalKobo ${i.paidPrincipalKobo} exceeds principalKobo ${i.principalKobo}`);
  return { feeKobo: feeDue - i.paidFeeKobo, interestKobo: i.interestKobo - i.paidInterestKobo, principalKobo: i.principalKobo - i.paidPrincipalKobo };
}

/** Validated copy sorted oldest first; rejects repeated instalment numbers. */
function inDueOrder(instalments: readonly InstalmentBalance[]): InstalmentBalance[] {
  const sorted = [...instalments].sort((a, b) => a.installmentNumber - b.installmentNumber);
  sorted.forEach((i, index) => {
    owedBy(i);
    if (index > 0 && sorted[index - 1]!.installmentNumber === i.installmentNumber) {
      throw new RangeError(`installmentNumber ${i.installmentNumber} appears more than once`);
    }
  });
  return sorted;
}

/** The loan's outstanding per bucket and in total; throws RangeError on invalid balances. */
export function outstandingOf(instalments: readonly InstalmentBalance[]): Outstanding & { totalKobo: number } {
  let feeKobo = 0;
  let interestKobo = 0;
  let principalKobo = 0;
  for (const i of inDueOrder(instalments)) {
    const owed = owedBy(i);
    feeKobo = addKobo(feeKobo, owed.feeKobo);
    interestKobo = addKobo(interestKobo, owed.interestKobo);
    principalKobo = addKobo(principalKobo, owed.principalKobo);
  }
  return { feeKobo, interestKobo, principalKobo, totalKobo: addKobo(addKobo(feeKobo, interestKobo), principalKobo) };
}

/** Splits `amountKobo` across the instalments by the rules in this file's header. Pure. */
export function allocateRepayment(amountKobo: number, instalments: readonly InstalmentBalance[]): Allocation {
  if (!Number.isSafeInteger(amountKobo) || amountKobo <= 0) throw new RangeError(`amountKobo must be a positive safe integer, got ${amountKobo}`);
  outstandingOf(instalments); // validates and guards every total below against unsafe sums
  let left = amountKobo;
  const portions: Outstanding = { feeKobo: 0, interestKobo: 0, principalKobo: 0 };
  const applied: InstalmentAllocation[] = [];
  for (const i of inDueOrder(instalments)) {
    if (left === 0) break;
    const owed = owedBy(i);
    const take: Outstanding = { feeKobo: 0, interestKobo: 0, principalKobo: 0 };
    for (const bucket of ['feeKobo', 'interestKobo', 'principalKobo'] as const) {
      take[bucket] = Math.min(left, owed[bucket]);
      left -= take[bucket];
      portions[bucket] += take[bucket];
    }
    if (take.feeKobo + take.interestKobo + take.principalKobo === 0) continue;
    const cleared = take.feeKobo === owed.feeKobo && take.interestKobo === owed.interestKobo && take.principalKobo === owed.principalKobo;
    applied.push({ installmentNumber: i.installmentNumber, ...take, status: cleared ? 'paid' : 'partial' });
  }
  return {
    appliedKobo: kobo(amountKobo - left),
    unallocatedKobo: left,
    feePortionKobo: portions.feeKobo,
    interestPortionKobo: portions.interestKobo,
    principalPortionKobo: portions.principalKobo,
    instalments: applied,
  };
}

/**
 * Applies an allocation to the balances (returns new objects, does not mutate) — for callers and tests.
 * Keeps the input order. Throws RangeError when the allocation names an unknown instalment or
 * would pay a bucket beyond its due, i.e. when it was not computed from these balances.
 */
export function applyAllocation(instalments: readonly InstalmentBalance[], allocation: Allocation): InstalmentBalance[] {
  inDueOrder(instalments);
  const byNumber = new Map(allocation.instalments.map((a) => [a.installmentNumber, a]));
  const result = instalments.map((i) => {
    const a = byNumber.get(i.installmentNumber);
    if (!a) return { ...i };
    byNumber.delete(i.installmentNumber);
    for (const key of ['feeKobo', 'interestKobo', 'principalKobo'] as const) nonNegative(a[key], `allocation to instalment ${i.installmentNumber} ${key}`);
    const next: InstalmentBalance = {
      ...i,
      paidFeeKobo: addKobo(i.paidFeeKobo, a.feeKobo),
      paidInterestKobo: addKobo(i.paidInterestKobo, a.interestKobo),
      paidPrincipalKobo: addKobo(i.paidPrincipalKobo, a.principalKobo),
    };
    owedBy(next);
    return next;
  });
  const unknown = [...byNumber.keys()];
  if (unknown.length > 0) throw new RangeError(`allocation names instalments not in the balances: ${unknown.join(', ')}`);
  return result;
}
