import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidNuban, nubanCheckDigit } from '../../server/platform/domain/payouts/nuban';

describe('NUBAN check digit (CBN algorithm)', () => {
  it('accepts the CBN specification\'s worked example: bank 011, serial 000001457 → 0000014579', () => {
    expect(nubanCheckDigit('011', '000001457')).toBe(9);
    expect(isValidNuban('011', '0000014579')).toBe(true);
  });

  // Worked by hand: weights 3,7,3,3,7,3,3,7,3,3,7,3 over bank code + serial; check = (10 − sum mod 10) mod 10.
  it.each([
    ['058', '0123456785'], // sum 215 → 5
    ['044', '1234567895'], // sum 235 → 5
    ['033', '2012345674'], // sum 156 → 4
    ['057', '1000000001'], // sum 59 → 1
  ])('accepts bank %s account %s', (bank, account) => {
    expect(isValidNuban(bank, account)).toBe(true);
  });

  it('a check digit that sums to a multiple of ten is 0, not 10', () => {
    // 0,1,1 · 3,7,3 = 10; serial zeros add nothing.
    expect(nubanCheckDigit('011', '000000000')).toBe(0);
    expect(isValidNuban('011', '0000000000')).toBe(true);
  });

  it.each([
    ['a wrong check digit', '011', '0000014578'],
    ['the right number under another bank', '058', '0000014579'],
    ['nine digits', '011', '000001457'],
    ['eleven digits', '011', '00000145790'],
    ['letters', '011', '00000145a9'],
    ['an institution code that is not 3, 5 or 6 digits', '5021', '0000014579'],
    ['an institution code with letters', '05a', '0000014579'],
  ])('refuses %s', (_name, bank, account) => {
    expect(isValidNuban(bank, account)).toBe(false);
  });

  it('for any bank code and serial exactly one last digit makes a valid NUBAN', () => {
    const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
    fc.assert(
      fc.property(digits(3), digits(9), (bank, serial) => {
        const valid = Array.from({ length: 10 }, (_, d) => isValidNuban(bank, `${serial}${d}`));
        expect(valid.filter(Boolean)).toHaveLength(1);
        expect(valid[nubanCheckDigit(bank, serial)]).toBe(true);
      }),
    );
  });

  it('catches every single-digit substitution in the serial (weights are coprime with 10)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (n, position, delta) => {
        const serial = String(n).padStart(9, '0');
        const account = `${serial}${nubanCheckDigit('011', serial)}`;
        const changed = account.slice(0, position) + ((Number(account[position]) + delta) % 10) + account.slice(position + 1);
        expect(isValidNuban('011', changed)).toBe(false);
      }),
    );
  });
});
