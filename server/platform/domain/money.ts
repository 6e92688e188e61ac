/**
 * Money is integer kobo (the NGN minor unit) in plain `number` fields named `…Kobo`, checked where it
 * enters (zod schemas, `nairaToKobo`) and where it is summed (`kobo()`, `addKobo`). (A branded `Kobo`
 * type was declared once and never carried by any public type; it is gone rather than half-used.)
 */
export function kobo(value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`kobo amount must be a safe integer, got ${value}`);
  return value;
}

/** Display-only naira mirror of a kobo amount; never feed it back into arithmetic. */
export function koboToNaira(amount: number): number {
  return Math.round(amount) / 100;
}

export function addKobo(a: number, b: number): number {
  return kobo(a + b);
}

/** Exact decimal → integer scaling (`server/shared/decimal.ts`, shared with the dashboard's forms). */
export { scaleDecimal } from '../../shared/decimal';
import { scaleDecimal } from '../../shared/decimal';

/** Naira (number or decimal string) to kobo, exactly; undefined when it does not convert. */
export const nairaToKobo = (naira: unknown): number | undefined => {
  const k = scaleDecimal(naira, 2);
  return k === undefined ? undefined : kobo(k);
};

/** Percent (e.g. 3.25) to basis points (325), exactly; undefined when it does not convert. */
export const percentToBps = (percent: unknown): number | undefined => scaleDecimal(percent, 2);
