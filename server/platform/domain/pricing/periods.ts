import type { RepaymentFrequency } from './types';

/** Length in days of one repayment period. A "month" is 30 days. */
export const PERIOD_DAYS: Readonly<Record<RepaymentFrequency, number>> = Object.freeze({
  daily: 1,
  weekly: 7,
  biweekly: 14,
  monthly: 30,
});

export const DEFAULT_REPAYMENT_FREQUENCY: RepaymentFrequency = 'monthly';

/**
 * The day each instalment falls due: ceil(tenor / period) instalments, the k-th (1-based) at
 * min(k × period, tenor). Only the last period can be shorter than the others.
 */
export function periodEnds(tenorDays: number, periodDays: number): number[] {
  const count = Math.ceil(tenorDays / periodDays);
  return Array.from({ length: count }, (_, i) => Math.min((i + 1) * periodDays, tenorDays));
}
