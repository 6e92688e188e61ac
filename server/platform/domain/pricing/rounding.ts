/**
 * Rounding and splitting of integer kobo. Every computed amount in pricing is rounded
 * half-to-even (banker's rounding), so ties do not drift upwards across a loan book, and every
 * split goes through `splitEvenly`, whose parts always add up exactly to the total.
 */

/**
 * numerator / denominator rounded to the nearest integer, ties to the even neighbour.
 * Exact for any size of bigint, so `principal × rateBps × days / (10_000 × 365)` never touches a float.
 */
export function roundHalfEvenDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('roundHalfEvenDiv: denominator must not be 0');
  if (denominator < 0n) return roundHalfEvenDiv(-numerator, -denominator);
  // Floor division, so that 0 <= remainder < denominator whatever the numerator's sign.
  let quotient = numerator / denominator;
  let remainder = numerator % denominator;
  if (remainder < 0n) {
    quotient -= 1n;
    remainder += denominator;
  }
  const twice = 2n * remainder;
  const roundsUp = twice > denominator || (twice === denominator && quotient % 2n !== 0n);
  return roundsUp ? quotient + 1n : quotient;
}

/**
 * A float rounded half-to-even. Only for values that are floats by nature (the annuity formula,
 * the APR); amounts derived from integers go through `roundHalfEvenDiv` instead.
 */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`roundHalfEven: ${x} is not finite`);
  const floor = Math.floor(x);
  const fraction = x - floor; // exact: the fractional part of a double is itself a double
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** A bigint as a JS number, refusing anything outside the safe integer range. */
export function toSafeInteger(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`amount ${value} is outside the safe integer range`);
  }
  return Number(value);
}

/** amountKobo × numerator / denominator, computed exactly and rounded half-to-even. */
export function scaleHalfEven(amountKobo: number, numerator: number, denominator: number): number {
  return toSafeInteger(roundHalfEvenDiv(BigInt(amountKobo) * BigInt(numerator), BigInt(denominator)));
}

function assertSplittable(total: number, parts: number): void {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError(`total must be a safe integer >= 0, got ${total}`);
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError(`parts must be an integer >= 1, got ${parts}`);
}

/**
 * The equal share of `total` over `parts`, i.e. every part but the last in `splitEvenly`.
 *
 * Rule: share = roundHalfEven(total / parts) and the last part = total − (parts − 1) × share.
 * When rounding up makes (parts − 1) × share exceed total (3 into 5: share 1, last −1), the share
 * is floor(total / parts) instead, so no part is ever negative. Either way the last part differs
 * from the share by less than `parts` kobo.
 */
export function evenShare(total: number, parts: number): number {
  assertSplittable(total, parts);
  const t = BigInt(total);
  const n = BigInt(parts);
  const rounded = roundHalfEvenDiv(t, n);
  return Number((n - 1n) * rounded > t ? t / n : rounded);
}

/**
 * Splits `total` kobo into `parts` non-negative integers that add up exactly to `total`:
 * `parts − 1` equal shares (`evenShare`, rule above) and a last part that absorbs the residue.
 */
export function splitEvenly(total: number, parts: number): number[] {
  const share = evenShare(total, parts);
  const last = total - share * (parts - 1); // exact: share × (parts − 1) <= total
  return [...Array.from({ length: parts - 1 }, () => share), last];
}

/** Sum of safe integers, refusing a result outside the safe integer range. */
export function sumKobo(amounts: readonly number[]): number {
  return toSafeInteger(amounts.reduce((sum, amount) => sum + BigInt(amount), 0n));
}
