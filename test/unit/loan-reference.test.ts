import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loanIdSuffix, loanReference } from '../../server/shared/loan-reference';
import { newId } from '../../server/shared/ids';

describe('the short loan reference', () => {
  it('is eight Crockford base32 characters in two groups, the same for the same loan', () => {
    const id = newId();
    expect(loanReference(id)).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(loanReference(id)).toBe(loanReference(id));
    expect(loanReference('01890a5d-ac96-774b-bcce-b302099a8057')).toBe(loanReference('01890a5d-ac96-774b-bcce-b302099a8057'.toUpperCase()));
  });

  it("comes from the id's random end, so loans made in the same millisecond still differ", () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    expect(new Set(ids.map(loanReference)).size).toBe(ids.length);
  });

  it('reads the last 40 bits exactly (each 5 bits one character)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 40n) - 1n }), (bits) => {
        const id = `00000000-0000-7000-8000-00${bits.toString(16).padStart(10, '0')}`;
        const ref = loanReference(id).replace('-', '');
        const back = [...ref].reduce((n, c) => n * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c)), 0n);
        expect(back).toBe(bits);
      }),
    );
  });

  it("reads back to the id's last ten hex digits however a person types it, and refuses what cannot be a reference", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 40n) - 1n }), (bits) => {
        const suffix = bits.toString(16).padStart(10, '0');
        const ref = loanReference(`00000000-0000-7000-8000-00${suffix}`);
        for (const typed of [ref, ref.toLowerCase(), ref.replace('-', ''), ` ${ref.replace('-', ' ')} `]) expect(loanIdSuffix(typed)).toBe(suffix);
      }),
    );
    expect(loanIdSuffix('0OIL-1111')).toBe(loanIdSuffix('0011-1111'));
    for (const bad of ['', '1Q4Z', '1Q4Z-Z9YW1', '1Q4Z-Z9YU', '1Q4Z_Z9YW', 'no-such-reference']) expect(loanIdSuffix(bad), bad).toBeNull();
  });
});
