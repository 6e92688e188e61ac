import { evenShare, roundHalfEven, scaleHalfEven, splitEvenly } from './rounding';

/** 10_000 bps × a 365-day year: the denominator of every interest amount. */
const BPS_DAY_YEAR = 3_650_000;

export interface PrincipalAndInterest {
  principalKobo: number;
  interestKobo: number;
}

/** Simple interest on `amountKobo` at `annualRateBps` for `days` actual days, exact, half-to-even. */
export function interestFor(amountKobo: number, annualRateBps: number, days: number): number {
  return scaleHalfEven(amountKobo, annualRateBps * days, BPS_DAY_YEAR);
}

/**
 * Flat: interest on the full principal for the whole tenor, then principal and interest each
 * split equally over the instalments (`splitEvenly`: the last row absorbs the residue).
 */
export function flatRows(principalKobo: number, annualRateBps: number, dayOffsets: readonly number[]): PrincipalAndInterest[] {
  const tenorDays = dayOffsets[dayOffsets.length - 1] ?? 0;
  const interest = splitEvenly(interestFor(principalKobo, annualRateBps, tenorDays), dayOffsets.length);
  return splitEvenly(principalKobo, dayOffsets.length).map((principal, i) => ({
    principalKobo: principal,
    interestKobo: interest[i] ?? 0,
  }));
}

/**
 * The equal instalment A of a reducing-balance loan, from the regular period's rate
 * r = rateBps / 10_000 × periodDays / 365: A = roundHalfEven(P·r / (1 − (1 + r)^−n)), or the
 * equal share of P when the rate is 0 (`evenShare`, so n − 1 shares never exceed P).
 *
 * Mathematically P·r / (1 − (1 + r)^−n) > P·r, so A is at least a regular period's interest on the
 * full principal; the `max` restores that when float error meets a tie (high rates, long tenors,
 * where (1 + r)^−n vanishes), so the principal part A − interest is never negative before the
 * last instalment.
 */
export function annuityPayment(principalKobo: number, annualRateBps: number, periodDays: number, count: number): number {
  if (annualRateBps === 0) return evenShare(principalKobo, count);
  const r = (annualRateBps / 10_000) * (periodDays / 365);
  // −expm1(−n·log1p(r)) = 1 − (1 + r)^−n without cancellation when r is tiny.
  const exact = (principalKobo * r) / -Math.expm1(-count * Math.log1p(r));
  return Math.max(roundHalfEven(exact), interestFor(principalKobo, annualRateBps, periodDays));
}

/**
 * Reducing balance: each period's interest is charged on the outstanding principal for that
 * period's actual days; the principal part is A − interest, kept within [0, outstanding]; the last
 * instalment clears whatever principal remains, so its total may differ from A.
 *
 * Clamp: the lower bound never binds before the last row (A >= interest, see `annuityPayment`).
 * The upper bound binds only when the loan is repaid early: A − interest exceeds the outstanding
 * principal, that row takes exactly the outstanding, and every later row carries zero principal
 * and zero interest (the last row then clears 0). Cause: rounding A and each interest moves the
 * balance by at most 1 kobo a period, and that error compounds at (1 + r), so the clamp is
 * impossible when Â / (1 + r) + 1 > ((1 + r)^(n−1) − 1) / r, with Â the unrounded annuity
 * (Â + 1 > n − 1 as r → 0). In practice it hits instalments of a few hundred kobo or less at rates
 * up to 100 % (3 kobo at 10 % over 5 monthly instalments: principal 1, 1, 1, 0, 0), and larger
 * ones only at extreme rate × tenor, where the loan is nearly interest-only and the compounding
 * is steep (e.g. 900 % weekly over two years).
 */
export function reducingBalanceRows(
  principalKobo: number,
  annualRateBps: number,
  dayOffsets: readonly number[],
  periodDays: number,
): PrincipalAndInterest[] {
  const count = dayOffsets.length;
  const instalment = annuityPayment(principalKobo, annualRateBps, periodDays, count);
  const rows: PrincipalAndInterest[] = [];
  let outstanding = principalKobo;
  let periodStart = 0;
  for (const [i, periodEnd] of dayOffsets.entries()) {
    const interest = interestFor(outstanding, annualRateBps, periodEnd - periodStart);
    const isLast = i === count - 1;
    const principal = isLast ? outstanding : Math.min(Math.max(instalment - interest, 0), outstanding);
    rows.push({ principalKobo: principal, interestKobo: interest });
    outstanding -= principal;
    periodStart = periodEnd;
  }
  return rows;
}
