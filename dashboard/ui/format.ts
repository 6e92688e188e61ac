/** Kobo (integer) as naira for people: `₦1,234.50`. Never arithmetic on the result. */
export function naira(kobo: number | string | null | undefined): string {
  if (kobo === null || kobo === undefined || kobo === '') return '—';
  const value = typeof kobo === 'string' ? Number(kobo) : kobo;
  return new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2 }).format(value / 100);
}

/** An ISO instant as local date and time (`27 Nov 2026, 09:14`). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** An ISO date (`2026-11-27`) as `27 Nov 2026`. */
export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: iso.length === 10 ? 'UTC' : undefined }).format(date);
}

/**
 * A number as a person types or pastes it into a naira or percent field: spaces of any kind (`2 500 000`, a copied
 * narrow no-break space), a leading `₦` or `NGN` and a trailing `%` are dropped; commas are left for the exact parser
 * (`scaleDecimal`), which accepts them as thousands separators. Nothing else is guessed.
 */
export function typedNumber(text: string): string {
  return text
    .replace(/[\s\u00a0\u202f\u2009]/g, '')
    .replace(/^(₦|NGN)/i, '')
    .replace(/%$/, '');
}
