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

/**
 * Exact decimal → integer scaling with no float arithmetic: `"1234.56"` naira × 100 → 123456 kobo.
 * Accepts a JSON number or a decimal string; refuses exponents, more decimals than the unit holds
 * (trailing zeros aside), negatives and anything beyond the safe integer range. Returns undefined
 * when the value does not convert exactly.
 */
export function scaleDecimal(value: unknown, places: number): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/,/g, '');
  } else return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return undefined;
  const digits = `${match[1]}${fraction.padEnd(places, '0')}`.replace(/^0+(?=\d)/, '');
  const result = Number(digits);
  return Number.isSafeInteger(result) ? result : undefined;
}

/** Naira (number or decimal string) to kobo, exactly; undefined when it does not convert. */
export const nairaToKobo = (naira: unknown): number | undefined => {
  const k = scaleDecimal(naira, 2);
  return k === undefined ? undefined : kobo(k);
};

/** Percent (e.g. 3.25) to basis points (325), exactly; undefined when it does not convert. */
export const percentToBps = (percent: unknown): number | undefined => scaleDecimal(percent, 2);
