import { roundHalfEven } from './rounding';

/**
 * The largest `aprBps` reported. Short loans with large fees have effective annual rates beyond
 * any float (₦1.50 back on ₦1 after one day is 1.5^365 − 1 ≈ 10^64); those report this value,
 * meaning "at least".
 */
export const MAX_APR_BPS = Number.MAX_SAFE_INTEGER;

/** One repayment as the APR sees it: `totalKobo` paid `dayOffset` days after disbursement. */
export interface Repayment {
  dayOffset: number;
  totalKobo: number;
}

/**
 * Present value of the repayments at daily rate d, minus the principal; strictly decreasing in d.
 * Written as Σ total·((1 + d)^−t − 1) + cost so that small rates do not cancel to noise.
 */
function presentValueGap(costKobo: number, repayments: readonly Repayment[], dailyRate: number): number {
  const logGrowth = Math.log1p(dailyRate);
  return repayments.reduce((gap, r) => gap + r.totalKobo * Math.expm1(-r.dayOffset * logGrowth), costKobo);
}

/**
 * The daily rate d >= 0 with Σ total_k / (1 + d)^day_k = principal, by bisection to float
 * precision: the gap is monotone, so bisection cannot diverge whatever the rate, fee or tenor.
 * 0 when the repayments do not exceed the principal.
 */
export function impliedDailyRate(principalKobo: number, repayments: readonly Repayment[]): number {
  const costKobo = repayments.reduce((sum, r) => sum + r.totalKobo, 0) - principalKobo;
  if (costKobo <= 0) return 0;
  let low = 0;
  let high = 1;
  while (presentValueGap(costKobo, repayments, high) > 0) high *= 2;
  for (let step = 0; step < 2_000; step += 1) {
    const middle = low + (high - low) / 2;
    if (middle <= low || middle >= high) break; // no float left between them
    if (presentValueGap(costKobo, repayments, middle) > 0) low = middle;
    else high = middle;
  }
  return low + (high - low) / 2;
}

/**
 * APR as an effective annual rate: (1 + d)^365 − 1 for the daily rate d of the borrower's cash
 * flows (principal received at day 0, each instalment's total paid at its day offset), in basis
 * points rounded half-to-even, saturating at `MAX_APR_BPS`. 0 when the loan costs nothing.
 */
export function aprBps(principalKobo: number, repayments: readonly Repayment[]): number {
  const dailyRate = impliedDailyRate(principalKobo, repayments);
  if (dailyRate === 0) return 0;
  const bps = Math.expm1(365 * Math.log1p(dailyRate)) * 10_000;
  return Number.isFinite(bps) && bps < MAX_APR_BPS ? roundHalfEven(bps) : MAX_APR_BPS;
}
