import { describe, expect, it } from 'vitest';
import { cleanInput, digits, phoneNumber } from '../../widget/inputs';

describe('paste-tolerant inputs (clean first, then the length limit)', () => {
  it.each([
    ['0123 456 785', 10, '0123456785'], // a pasted account number with spaces: nothing dropped
    ['477 707', 6, '477707'], // a pasted code with a space
    ['0123-456-785', 10, '0123456785'],
    ['0123\u00a0456\u2013785', 10, '0123456785'], // a no-break space and an en dash from a chat app
    ['2222 2222 222', 11, '22222222222'],
    ['01234567890123', 10, '0123456789'], // too long: the limit applies to the digits
  ])('%j keeps %i digits: %s', (raw, max, expected) => {
    expect(digits(raw, max)).toBe(expected);
  });

  it('keeps a phone number\'s leading + and its digits', () => {
    expect(phoneNumber('+234 803 123 4567')).toBe('+2348031234567');
    expect(phoneNumber('0803-123-4567')).toBe('08031234567');
    expect(phoneNumber(' (0803) 123 4567 ')).toBe('08031234567');
  });

  it('rewrites the field it handles and passes the cleaned value on', () => {
    const field = { value: '0123 456 785' };
    let seen = '';
    cleanInput((v) => digits(v, 10), (v) => (seen = v))({ target: field } as unknown as Event);
    expect(field.value).toBe('0123456785');
    expect(seen).toBe('0123456785');
  });
});
