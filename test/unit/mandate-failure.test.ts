import { describe, expect, it } from 'vitest';
import { mandateFailure } from '../../server/platform/domain/mandates/mandate';
import { maskEmail } from '../../server/platform/domain/checkout/checkout-state';

describe('mandateFailure: why a mandate ended, in the borrower\'s terms', () => {
  it.each([
    ['failed', 'refused', 'declined'],
    ['failed', 'pending', 'failed'],
    ['cancelled', 'pending', 'failed'],
    ['cancelled', 'cancelled', 'failed'],
    ['expired', 'pending', 'expired'],
    ['initiated', 'pending', null],
    ['pending', 'approved', null],
    ['active', 'active', null],
  ] as const)('status %s at provider status %s → %s', (status, providerStatus, expected) => {
    expect(mandateFailure({ status, providerStatus })).toBe(expected);
  });
});

describe('maskEmail', () => {
  it('keeps the first letter and the domain', () => {
    expect(maskEmail('tunde.bello@example.com')).toBe('t•••@example.com');
    expect(maskEmail('a@b.ng')).toBe('a•••@b.ng');
  });

  it('never echoes something that is not an address', () => {
    expect(maskEmail('@example.com')).toBe('•••');
    expect(maskEmail('no-at-sign')).toBe('•••');
  });
});
