/** Integer kobo (NGN minor unit). Construct only through `kobo()`, which asserts a safe integer. */
export type Kobo = number & { readonly __brand: 'Kobo' };

export function kobo(value: number): Kobo {
  if (!Number.isSafeInteger(value)) throw new RangeError(`kobo amount must be a safe integer, got ${value}`);
  return value as Kobo;
}

/** Display-only naira mirror of a kobo amount; never feed it back into arithmetic. */
export function koboToNaira(amount: number): number {
  return Math.round(amount) / 100;
}

export function addKobo(a: number, b: number): Kobo {
  return kobo(a + b);
}
