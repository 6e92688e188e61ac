/**
 * NUBAN (the CBN's Nigeria Uniform Bank Account Number): 10 digits, a 9-digit serial and a check
 * digit computed over the bank code followed by the serial. Each digit is multiplied by the
 * repeating weights 3, 7, 3 (3,7,3,3,7,3,3,7,3,3,7,3 for a 3-digit bank code); the check digit is
 * (10 − sum mod 10) mod 10. Verified here for 3-digit (deposit money bank) codes only: NIP
 * institution codes of 5-6 digits do not take part in the check.
 */
const WEIGHTS = [3, 7, 3] as const;

export const NUBAN_PATTERN = /^\d{10}$/;

/** The check digit for a bank code and a 9-digit serial (both digit strings). */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  if (!/^\d+$/.test(bankCode) || !/^\d{9}$/.test(serial)) throw new RangeError('bank code must be digits and the serial 9 digits');
  const digits = `${bankCode}${serial}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * WEIGHTS[i % 3]!;
  return (10 - (sum % 10)) % 10;
}

/** Whether `accountNumber` is a valid NUBAN for a 3-digit `bankCode`. */
export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{3}$/.test(bankCode) || !NUBAN_PATTERN.test(accountNumber)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}
