/**
 * Exact decimal ↔ integer scaling with no float arithmetic, shared by the server (`domain/money.ts`) and the
 * dashboard's forms (naira typed, kobo sent; percent typed, basis points sent).
 */

/**
 * `"1234.56"` × 10^places → 123456. Accepts a JSON number or a decimal string (thousands commas allowed); refuses
 * exponents, more decimals than `places` (trailing zeros aside), negatives and anything beyond the safe integer
 * range. Returns undefined when the value does not convert exactly.
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

/** The inverse, as text: 150050 with 2 places → `1500.50`, -5 → `-0.05` (a form's value, a CSV's naira column). */
export function unscaleDecimal(value: number, places: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value)).padStart(places + 1, '0');
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
