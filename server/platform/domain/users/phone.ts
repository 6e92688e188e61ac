import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Phone numbers to E.164, parsed by libphonenumber-js (Nigeria as the default region, so national
 * numbers with their trunk 0 work): `08012345678`, `2348012345678`, `+234 801 234 5678`,
 * `+234 (0) 801…` and `00234…` all become `+2348012345678`. A Nigerian number must be a mobile-shaped
 * national number (10 digits starting 7, 8 or 9: what can receive an OTP); other countries' numbers
 * must be possible numbers for their country. The library's validity ranges are not used: they
 * refuse newly allocated prefixes (and the sandbox's test numbers) as operators add them.
 * Anything else is null.
 */
export function normalisePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-().]/g, '');
  if (!/^(\+|00)?\d{5,17}$/.test(compact)) return null;
  // `234…` without a plus is an international number written without its prefix, not a national one.
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : /^234\d{10,11}$/.test(compact) ? `+${compact}` : compact;
  const parsed = parsePhoneNumberFromString(international.replace(/^\+2340/, '+234'), 'NG');
  if (!parsed) return null;
  if (parsed.countryCallingCode === '234') return /^[789]\d{9}$/.test(parsed.nationalNumber) ? parsed.number : null;
  return parsed.isPossible() ? parsed.number : null;
}

/**
 * The patient-financing initiation's rule: a Nigerian mobile number written `080…` (national), `234…` or
 * `+234…` (spaces and dashes allowed), as E.164; anything else (another country, a landline shape) is null.
 */
export function normaliseNigerianMobile(raw: string): string | null {
  const compact = raw.trim().replace(/[\s\-]/g, '');
  if (!/^(0[789]\d{9}|234[789]\d{9}|\+234[789]\d{9})$/.test(compact)) return null;
  const e164 = normalisePhone(compact);
  return e164?.startsWith('+234') ? e164 : null;
}

/** `+2348012345678` → `•••• 5678`: enough for the borrower to recognise, nothing more. */
export function maskPhone(phone: string): string {
  return `•••• ${phone.slice(-4)}`;
}
