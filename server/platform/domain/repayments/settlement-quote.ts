import { addKobo } from '../money';
import { outstandingOf, type InstalmentBalance } from './allocate-repayment';

/**
 * Early settlement: what a borrower pays today to close the loan, under the product's rule.
 *
 * Rules (public contract; the API docs and the offer letter quote them):
 * - The unpaid principal is always owed in full, and so are the fees of instalments already due (late fees included).
 *   Fees of instalments not yet due are not owed: they pay for periods that will not run.
 * - Interest under `to_date` (the default): the interest accrued up to today less the interest already paid, in total
 *   over the loan (never below zero; nothing already paid is refunded). An instalment due by today has accrued all its
 *   interest; the instalment whose period is running has accrued its interest pro rata by whole days elapsed, rounded
 *   down (a part day is not charged); later instalments have accrued nothing. A period runs from the previous due date
 *   (the first from the start of the loan) to its own due date.
 * - Interest under `scheduled`: the rest of the scheduled interest, as if the loan ran to term.
 * - The optional settlement fee is `feeBps` of the unpaid principal, rounded down, and never takes the quote above what
 *   the schedule still asks: a quote is never more than the loan's scheduled outstanding.
 * - The quote is valid until the end of the day it is made, Lagos time (Nigeria keeps UTC+1 all year).
 * - `settledInstalments` are the balances the quote settles: the interest and fees not owed are taken off (each bucket
 *   never below what was paid into it) and the settlement fee is added to the last unsettled instalment's fee. Paying
 *   `totalKobo` against them with `allocateRepayment` leaves exactly nothing owed.
 * - Invalid input throws RangeError: an invalid instant, a `feeBps` that is not an integer from 0 to 10,000, and the
 *   balances' own rules (see allocate-repayment.ts).
 */

export const EARLY_SETTLEMENT_INTEREST = ['to_date', 'scheduled'] as const;
export type EarlySettlementInterest = (typeof EARLY_SETTLEMENT_INTEREST)[number];

export interface EarlySettlementRule {
  interest: EarlySettlementInterest;
  /** Basis points of the unpaid principal, 0–10,000. */
  feeBps: number;
}

export const DEFAULT_EARLY_SETTLEMENT: EarlySettlementRule = { interest: 'to_date', feeBps: 0 };

export interface SettlementQuoteInput {
  instalments: readonly InstalmentBalance[];
  /** When the loan started (its disbursement), the start of the first period. */
  startedAt: string;
  /** When the quote is made. */
  asOf: string;
  rule: EarlySettlementRule;
}

export interface SettlementQuote {
  /** principalKobo + interestKobo + feeKobo + settlementFeeKobo */
  totalKobo: number;
  principalKobo: number;
  interestKobo: number;
  /** Fees of instalments due by today, late fees included, less what was paid into them. */
  feeKobo: number;
  settlementFeeKobo: number;
  /** The scheduled outstanding the quote does not ask for (scheduled outstanding − totalKobo). */
  waivedKobo: number;
  /** The last instant the quote holds: the end of its Lagos day. */
  validUntil: string;
  settledInstalments: InstalmentBalance[];
}

const DAY_MS = 86_400_000;
const LAGOS_OFFSET_MS = 3_600_000;

function instant(value: string, what: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`${what} must be an ISO instant, got ${value}`);
  return ms;
}

/** The end of the Lagos day that holds `ms`, as an ISO instant. */
export function endOfLagosDay(ms: number): string {
  const day = Math.floor((ms + LAGOS_OFFSET_MS) / DAY_MS);
  return new Date((day + 1) * DAY_MS - LAGOS_OFFSET_MS - 1).toISOString();
}

/** Interest each instalment has accrued by `asOfMs`, in due order (pro rata by whole days in the running period). */
function accruedInterest(ordered: readonly InstalmentBalance[], startedMs: number, asOfMs: number): number[] {
  let periodStart = startedMs;
  return ordered.map((i) => {
    const dueMs = instant(i.dueDate, `instalment ${i.installmentNumber} dueDate`);
    const start = periodStart;
    periodStart = dueMs;
    if (asOfMs >= dueMs) return i.interestKobo;
    if (asOfMs <= start) return 0;
    const periodDays = Math.max(1, Math.round((dueMs - start) / DAY_MS));
    const elapsedDays = Math.min(periodDays, Math.floor((asOfMs - start) / DAY_MS));
    return Math.floor((i.interestKobo * elapsedDays) / periodDays);
  });
}

/** The amount to settle the loan at `asOf` under `rule`, and the balances it settles. Pure. */
export function quoteEarlySettlement(input: SettlementQuoteInput): SettlementQuote {
  const { rule } = input;
  if (!EARLY_SETTLEMENT_INTEREST.includes(rule.interest)) throw new RangeError(`rule.interest must be one of ${EARLY_SETTLEMENT_INTEREST.join(', ')}`);
  if (!Number.isSafeInteger(rule.feeBps) || rule.feeBps < 0 || rule.feeBps > 10_000) throw new RangeError(`rule.feeBps must be an integer from 0 to 10000, got ${rule.feeBps}`);
  const startedMs = instant(input.startedAt, 'startedAt');
  const asOfMs = instant(input.asOf, 'asOf');
  const scheduled = outstandingOf(input.instalments); // validates the balances
  const ordered = [...input.instalments].sort((a, b) => a.installmentNumber - b.installmentNumber);

  // Fees: those of instalments due by today stay owed; a later one's bucket shrinks to what was paid (or its late fee).
  const settled = ordered.map((i) => {
    const due = asOfMs >= instant(i.dueDate, `instalment ${i.installmentNumber} dueDate`);
    return due ? { ...i } : { ...i, feeKobo: Math.max(0, i.paidFeeKobo - i.lateFeeKobo) };
  });

  // Interest: the total owed, then spread over the instalments oldest first, each between what was paid and its schedule.
  let interestOwed = scheduled.interestKobo;
  if (rule.interest === 'to_date') {
    const accrued = accruedInterest(ordered, startedMs, asOfMs).reduce((sum, k) => addKobo(sum, k), 0);
    const paid = ordered.reduce((sum, i) => addKobo(sum, i.paidInterestKobo), 0);
    interestOwed = Math.max(0, accrued - paid);
  }
  let toSpread = interestOwed;
  for (const i of settled) {
    const share = Math.min(toSpread, i.interestKobo - i.paidInterestKobo);
    i.interestKobo = i.paidInterestKobo + share;
    toSpread -= share;
  }

  const owedBeforeFee = outstandingOf(settled);
  const fee = Math.floor((scheduled.principalKobo * rule.feeBps) / 10_000);
  const settlementFeeKobo = Math.max(0, Math.min(fee, scheduled.totalKobo - owedBeforeFee.totalKobo));
  if (settlementFeeKobo > 0) {
    const last = [...settled].reverse().find((i) => i.principalKobo > i.paidPrincipalKobo) ?? settled.at(-1)!;
    last.feeKobo = addKobo(last.feeKobo, settlementFeeKobo);
  }

  const totalKobo = addKobo(owedBeforeFee.totalKobo, settlementFeeKobo);
  return {
    totalKobo,
    principalKobo: owedBeforeFee.principalKobo,
    interestKobo: owedBeforeFee.interestKobo,
    feeKobo: owedBeforeFee.feeKobo,
    settlementFeeKobo,
    waivedKobo: scheduled.totalKobo - totalKobo,
    validUntil: endOfLagosDay(asOfMs),
    settledInstalments: settled,
  };
}
