import { describe, expect, it } from 'vitest';
import { CheckoutApiError } from '../../widget/checkout-api';
import { errorText, t } from '../../widget/i18n/i18n';

/**
 * The script-tag bundle carries only `enCommon`; the on-demand files add their tables when they load. A text the
 * common steps can show must be in `enCommon`, or a borrower would read a key such as `mandate.emailInvalid`.
 * (No `addEnglish` here: this file sees the checkout as the bundle has it before any on-demand file arrives.)
 */
describe('texts the common steps show without any on-demand file', () => {
  it('the offer step refusing the signer e-mail says so in words, before the mandate step has loaded', () => {
    const refused = new CheckoutApiError(400, 'validation_failed', 'body.signatureEmail: Invalid email address');
    expect(errorText(refused)).toBe('Enter an e-mail address like name@example.com.');
  });

  it('every text the common steps name is in the bundle', () => {
    for (const key of ['checkout.loading', 'checkout.retry', 'error.fields', 'mandate.emailInvalid', 'step.mandate'] as const) {
      expect(t(key), key).not.toBe(key);
    }
  });
});
