import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kobo, koboToNaira, nairaToKobo, percentToBps } from '../../server/platform/domain/money';

describe('nairaToKobo', () => {
  it.each([
    ['1234.56', 123456],
    [1234.56, 123456],
    ['1,234.56', 123456],
    [0.1, 10],
    [0.29, 29],
    [1.005e2, 10050],
    ['100', 10000],
    ['100.500', 10050],
    [0, 0],
  ])('converts %s naira to %s kobo exactly', (naira, expected) => {
    expect(nairaToKobo(naira)).toBe(expected);
  });

  it.each([['10.005'], [-1], ['1e5'], [1e21], ['abc'], [''], [null], [{}], [Number.NaN], ['90071992547409.92']])(
    'refuses %s',
    (value) => {
      expect(nairaToKobo(value)).toBeUndefined();
    },
  );

  it('round-trips every whole kobo amount written with two decimals, as a string and as a number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000_00 }), (k) => {
        const text = `${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;
        expect(nairaToKobo(text)).toBe(k);
        expect(nairaToKobo(Number(text))).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('percentToBps', () => {
  it.each([
    [4.5, 450],
    ['3.25', 325],
    [36, 3600],
    [0, 0],
  ])('converts %s%% to %s bps', (percent, bps) => expect(percentToBps(percent)).toBe(bps));

  it('refuses fractions of a basis point', () => expect(percentToBps(4.125)).toBeUndefined());
});

describe('kobo', () => {
  it('refuses anything but a safe integer', () => {
    expect(() => kobo(1.5)).toThrow(RangeError);
    expect(() => kobo(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(kobo(42)).toBe(42);
  });

  it('mirrors naira for display only', () => expect(koboToNaira(123456)).toBe(1234.56));
});
