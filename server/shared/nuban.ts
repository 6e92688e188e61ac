/**
 * NUBAN (the CBN's Nigeria Uniform Bank Account Number): 10 digits, a 9-digit serial and a check
 * digit. Since the CBN's "Revised Standards on NUBAN for Banks and Other Financial Institutions"
 * (effective 20 April 2020) the check digit is computed over a 6-digit institution prefix followed
 * by the serial, 15 digits with the repeating weights 3, 7, 3; the check digit is
 * (10 − sum mod 10) mod 10. The prefix is:
 *
 * - a deposit money bank's 3-digit CBN code with three leading zeros (`058` → `000058`); the zeros
 *   add nothing, so this is the original 2010 algorithm over code + serial;
 * - an other financial institution's (microfinance, mortgage, …) 5-digit CBN code with a leading 9
 *   (`50515` → `950515`);
 * - a 6-digit prefix as it is.
 *
 * Wallet-style institutions whose account numbers are the phone number (OPay, PalmPay, the payment
 * service banks) do not follow it: the bank list says which codes take part (`Bank.nubanCode`).
 */
const WEIGHTS = [3, 7, 3] as const;

export const NUBAN_PATTERN = /^\d{10}$/;

/** The 6-digit institution prefix of the check-digit computation for a 3-, 5- or 6-digit code; undefined for any other code. */
export function nubanPrefix(institutionCode: string): string | undefined {
  if (/^\d{3}$/.test(institutionCode)) return `000${institutionCode}`;
  if (/^\d{5}$/.test(institutionCode)) return `9${institutionCode}`;
  if (/^\d{6}$/.test(institutionCode)) return institutionCode;
  return undefined;
}

/** The check digit for an institution code (3, 5 or 6 digits) and a 9-digit serial. */
export function nubanCheckDigit(institutionCode: string, serial: string): number {
  const prefix = nubanPrefix(institutionCode);
  if (!prefix || !/^\d{9}$/.test(serial)) throw new RangeError('the institution code must be 3, 5 or 6 digits and the serial 9 digits');
  const digits = `${prefix}${serial}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * WEIGHTS[i % 3]!;
  return (10 - (sum % 10)) % 10;
}

/** Whether `accountNumber` is a valid NUBAN for a 3-digit bank code or a 5-digit (or 6-digit prefixed) institution code. */
export function isValidNuban(institutionCode: string, accountNumber: string): boolean {
  if (!nubanPrefix(institutionCode) || !NUBAN_PATTERN.test(accountNumber)) return false;
  return nubanCheckDigit(institutionCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}
