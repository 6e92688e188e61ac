import { describe, expect, it } from 'vitest';
import { inFormWords } from '../../dashboard/plain-words';

const CODE_NAME = /\b[a-z]+[A-Z][a-zA-Z]*\b/;

describe('server messages in the dashboard’s words', () => {
  it('a cross-field refinement names both fields by their labels, and a switch reads on or off', () => {
    const labels = { recoveryEnabled: 'Default a loan after a set time overdue', recoveryDefaultAfterDaysOverdue: 'Default after (days overdue)' };
    expect(inFormWords('required when recoveryEnabled is true', labels)).toBe('Required when “Default a loan after a set time overdue” is on');
    expect(inFormWords('body.recoveryDefaultAfterDaysOverdue: must be at most 3650', labels)).toBe('“Default after (days overdue)”: must be at most 3650');
  });

  it('a longer code name is not cut by a shorter one inside it, and a one-word field is replaced only as its path', () => {
    const labels = { minAmountKobo: 'Smallest loan (₦)', maxAmountKobo: 'Largest loan (₦)', AmountKobo: 'x', pool: 'Pool code' };
    expect(inFormWords('minAmountKobo: must not exceed maxAmountKobo', labels)).toBe('“Smallest loan (₦)”: must not exceed “Largest loan (₦)”');
    expect(inFormWords('the pool has no balance; body.pool: unknown', labels)).toBe('The pool has no balance; “Pool code”: unknown');
  });

  it('without labels, any code name left is spelled out in words (never shown as code)', () => {
    for (const raw of ['body.notificationEmail: Invalid email address', 'query.from: a day as YYYY-MM-DD', 'events.0: unknown event; expected loanApproved', 'principalKobo must exceed 0']) {
      const shown = inFormWords(raw);
      expect(shown, raw).not.toMatch(CODE_NAME);
      expect(shown, raw).not.toMatch(/\bbody\.|\bquery\./);
    }
    expect(inFormWords('body.notificationEmail: Invalid email address')).toBe('Notification email: Invalid email address');
  });
});
