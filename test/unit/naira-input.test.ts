import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKobo, parseNairaToKobo } from '../../widget/format';

describe('the income field: naira typed, integer kobo sent', () => {
  it.each([
    ['200,000', 20_000_000],
    ['₦ 250000.5', 25_000_050],
    ['0.01', 1],
    ['1,234.56', 123_456],
  ])('%j → %i kobo', (text, kobo) => {
    expect(parseNairaToKobo(text)).toBe(kobo);
  });

  it.each([['0'], ['-5'], ['1.234'], ['1e5'], ['abc'], ['']])('%j is refused', (text) => {
    expect(parseNairaToKobo(text)).toBeNull();
  });

  it('round-trips any whole-kobo amount written with two decimals, exactly (no floats)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999 }), (kobo) => {
        const text = `${Math.floor(kobo / 100)}.${String(kobo % 100).padStart(2, '0')}`;
        expect(parseNairaToKobo(text)).toBe(kobo);
        expect(parseNairaToKobo(formatKobo(kobo))).toBe(kobo);
      }),
    );
  });
});
