import { describe, expect, it } from 'vitest';
import { typedNumber } from '../../dashboard/ui/format';
import { scaleDecimal } from '../../server/shared/decimal';

describe('a naira or percent typed or pasted into a dashboard form', () => {
  it('drops spaces of every kind, a leading ₦ or NGN and a trailing %, and converts exactly', () => {
    const kobo = (text: string) => scaleDecimal(typedNumber(text), 2);
    expect(kobo('₦ 1 234 567.89')).toBe(123_456_789);
    expect(kobo('NGN 2,500,000.50')).toBe(250_000_050);
    expect(kobo('1\u202f000\u00a0000')).toBe(100_000_000);
    expect(kobo(' 36.5% ')).toBe(3650);
    expect(kobo('ngn5')).toBe(500);
  });

  it('guesses nothing else: a minus, letters, a comma decimal, three decimals stay refused', () => {
    for (const text of ['-5', '12abc', '1.234,56', '10.005', '₦', '', '1e3', '$5']) expect(scaleDecimal(typedNumber(text), 2), text).toBeUndefined();
  });
});
