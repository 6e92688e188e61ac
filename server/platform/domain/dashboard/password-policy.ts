import { COMMON_PASSWORDS } from './common-passwords';

/**
 * Dashboard password rules, after NIST SP 800-63B (rev. 3 §5.1.1.2 / rev. 4 §3.1.1.2):
 * - at least 15 characters: the dashboard signs in with a password alone (passkeys as a second factor come later);
 *   NIST allows 8 only when the password is one factor of several;
 * - at most 128 characters (NIST: allow at least 64), counted in Unicode code points, spaces and any character allowed;
 * - no composition rules (no "one digit, one symbol"), no periodic change;
 * - refused when it is on the bundled common/breached list (`common-passwords.ts`), or is the account's e-mail.
 */
export const PASSWORD_MIN_LENGTH = 15;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordProblem = 'password_too_short' | 'password_too_long' | 'password_too_common' | 'password_is_email';

export interface PasswordVerdict {
  ok: boolean;
  problem?: PasswordProblem;
  message?: string;
}

export function checkPassword(password: string, context: { email?: string } = {}): PasswordVerdict {
  // NFKC so that the same password typed on two keyboards is the same string (NIST: normalise before hashing).
  const normalised = password.normalize('NFKC');
  const length = [...normalised].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return { ok: false, problem: 'password_too_short', message: `Use at least ${PASSWORD_MIN_LENGTH} characters (a few words make a good password).` };
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return { ok: false, problem: 'password_too_long', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
  }
  const lower = normalised.toLowerCase();
  const stripped = lower.replace(/[\d!.]+$/u, '');
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(stripped) || /^(.)\1+$/u.test(lower)) {
    return { ok: false, problem: 'password_too_common', message: 'This password is too common (it appears in lists of breached passwords). Choose another.' };
  }
  const email = context.email?.trim().toLowerCase();
  if (email && (lower === email || lower === email.split('@')[0])) {
    return { ok: false, problem: 'password_is_email', message: 'Do not use your e-mail address as your password.' };
  }
  return { ok: true };
}
