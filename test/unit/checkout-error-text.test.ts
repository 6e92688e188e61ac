import { describe, expect, it } from 'vitest';
import { CheckoutApiError } from '../../widget/checkout-api';
import { addEnglish, errorText } from '../../widget/i18n/i18n';
import { enSteps } from '../../widget/i18n/en-steps';
import { enMandate } from '../../widget/i18n/en-mandate';

/** A field's code name, a request path or a snake_case code: never in a message the borrower reads. */
const CODE = /\b[a-z]+[A-Z][a-zA-Z]*\b|\b(?:body|query)\.|\b[a-z]+_[a-z_]+\b/;
const refused = (message: string, data?: unknown) => new CheckoutApiError(400, 'validation_failed', message, data);

describe('the checkout shows its own words for a server refusal, never the server message with a code name', () => {
  addEnglish(enSteps);
  addEnglish(enMandate);

  it('a refused field becomes the step’s message about it, or its label', () => {
    expect(errorText(refused('body.bvn: Invalid string: must match pattern /^\\d{11}$/'))).toBe('Your BVN is exactly 11 digits.');
    expect(errorText(refused('body.code: Too small: expected string to have >=6 characters'))).toBe('That code is not correct. Check the text message and try again.');
    expect(errorText(refused('body.accountNumber: Invalid string'))).toBe('An account number is exactly 10 digits.');
    expect(errorText(refused('body.signatureFullName: Too small'))).toBe('Check “Your full name (your signature)” and try again.');
    expect(errorText(refused('body.phone: not a Nigerian mobile number'))).toBe('Check “Guarantor\'s phone number” and try again.');
    expect(errorText(refused('body.email: Invalid email address'))).toBe('Enter an e-mail address like name@example.com.');
    expect(errorText(refused('Invalid input', { field: 'declaredMonthlyIncomeKobo' }))).toBe('Enter your monthly income in naira, e.g. 250,000.');
  });

  it('a field it cannot name, or a message with a code name, reads "check what you typed"; a plain message of an unnamed code stays', () => {
    expect(errorText(refused('body.fullName: Too small'))).toBe('Check what you typed and try again.');
    expect(errorText(new CheckoutApiError(409, 'some_state', 'loanId is not open'))).toBe('Check what you typed and try again.');
    expect(errorText(new CheckoutApiError(409, 'some_state', 'This loan is no longer open.'))).toBe('This loan is no longer open.');
    for (const message of ['body.bvn: x', 'body.nin: x', 'body.address: x', 'body.relationship: x', 'body.bankCode: x', 'body.dateOfBirth: x', 'body.tenorMonths: x']) {
      expect(errorText(refused(message)), message).not.toMatch(CODE);
    }
  });

  it('a provider the operator has not configured reads as "not available right now", never the operator\'s message', () => {
    const text = errorText(new CheckoutApiError(503, 'provider_not_configured', 'No live SMS provider is configured: live calls that need it are refused until one is (nothing was written).'));
    expect(text).toBe('This is not available right now. Try again later, or contact your lender.');
  });
});
