import { describe, expect, it } from 'vitest';
import { paymentRange } from '../../server/platform/domain/borrower-loans/pay-now-rules';
import { phoneSpellings } from '../../server/platform/domain/borrower-loans/borrower-phone';

describe('pay now range', () => {
  it('is ₦100 up to the outstanding', () => {
    expect(paymentRange(250_000)).toEqual({ minKobo: 10_000, maxKobo: 250_000 });
  });
  it('lets a borrower who owes less than ₦100 pay exactly what is left', () => {
    expect(paymentRange(4_321)).toEqual({ minKobo: 4_321, maxKobo: 4_321 });
  });
  it('is empty when nothing is owed', () => {
    expect(paymentRange(0)).toEqual({ minKobo: 0, maxKobo: 0 });
  });
});

describe('phone spellings a borrower record may hold', () => {
  it('covers the international, 234…, national and bare forms of a Nigerian number', () => {
    expect(phoneSpellings('+2348031234567')).toEqual(['+2348031234567', '2348031234567', '08031234567', '8031234567']);
  });
  it('keeps a foreign number as it is', () => {
    expect(phoneSpellings('+447700900123')).toEqual(['+447700900123']);
  });
});
