import { describe, expect, it } from 'vitest';
import { codeFrom } from '../../widget/lc-otp/otp-code';

describe('the OTP code box reads what was typed or pasted', () => {
  it.each([
    ['477 707', '477707'],
    ['477-707', '477707'],
    [' 4 7 7 7 0 7 ', '477707'],
    ['Your code: 477707.', '477707'],
    ['4777071', '477707'],
    ['47 77', '4777'],
    ['', ''],
  ])('when it is %j, then the code is %j (separators out first, then the 6-digit limit)', (typed, code) => {
    expect(codeFrom(typed)).toBe(code);
  });
});
