/**
 * Nigerian-first phone normalisation to E.164 without a dependency: `08012345678`,
 * `2348012345678`, `+234 801 234 5678` and `+234 (0) 801…` all become `+2348012345678`; other
 * numbers already in `+<country><number>` form are kept (8-15 digits). Anything else is null.
 * If numbers from many countries arrive, swap this for libphonenumber-js behind the same signature.
 */
export function normalisePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-().]/g, '');
  let digits: string;
  if (/^\+\d+$/.test(compact)) digits = compact.slice(1);
  else if (/^00\d+$/.test(compact)) digits = compact.slice(2);
  else if (/^0\d{10}$/.test(compact)) digits = `234${compact.slice(1)}`;
  else if (/^234\d{10}$/.test(compact)) digits = compact;
  else return null;
  if (digits.startsWith('2340')) digits = `234${digits.slice(4)}`;
  if (digits.startsWith('234')) return /^234[789]\d{9}$/.test(digits) ? `+${digits}` : null;
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}

/** `+2348012345678` → `•••• 5678`: enough for the borrower to recognise, nothing more. */
export function maskPhone(phone: string): string {
  return `•••• ${phone.slice(-4)}`;
}
