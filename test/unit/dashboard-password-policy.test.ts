import { describe, expect, it } from 'vitest';
import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../server/platform/domain/dashboard/password-policy';
import { hashPassword, verifyPassword } from '../../server/platform/domain/dashboard/password-hash';

describe('dashboard password rules (NIST SP 800-63B)', () => {
  it('when a password has 15 characters of any kind, then it is accepted without composition rules', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(15);
    expect(checkPassword('lowercase words ok')).toEqual({ ok: true });
    expect(checkPassword('ẹ̀kọ́ ilé ọ̀sán àti alẹ́')).toEqual({ ok: true });
  });

  it('when a password has 14 code points, then it is too short (emoji count as one each)', () => {
    expect(checkPassword('a'.repeat(13) + 'b').problem).toBe('password_too_short');
    expect(checkPassword('🔑🌍'.repeat(7)).problem).toBe('password_too_short');
    expect(checkPassword(`${'🔑🌍'.repeat(7)}🔑`).ok).toBe(true);
  });

  it('when a password is longer than the maximum, then it is refused; 64 characters always fit', () => {
    expect(PASSWORD_MAX_LENGTH).toBeGreaterThanOrEqual(64);
    expect(checkPassword('x y '.repeat(16) + 'zz').ok).toBe(true);
    expect(checkPassword('ab'.repeat(PASSWORD_MAX_LENGTH)).problem).toBe('password_too_long');
  });

  it('when a password is on the common list, in any case or with digits appended, or one repeated character, then it is too common', () => {
    for (const password of ['correcthorsebatterystaple', 'CorrectHorseBatteryStaple', 'passwordpassword2024!', 'qwertyuiopasdfghjkl', 'zzzzzzzzzzzzzzzzzz']) {
      expect(checkPassword(password).problem, password).toBe('password_too_common');
    }
  });

  it('when a password is the account e-mail, then it is refused', () => {
    expect(checkPassword('Ada.Obi@clinic.example', { email: 'ada.obi@clinic.example' }).problem).toBe('password_is_email');
  });

  it('when a password is hashed, then it is argon2id and verifies only itself (NFKC-normalised)', async () => {
    const hash = await hashPassword('ﬁve fine words here now');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'five fine words here now')).toBe(true);
    expect(await verifyPassword(hash, 'five fine words here no')).toBe(false);
    expect(await verifyPassword(null, 'anything at all here')).toBe(false);
  });
});
