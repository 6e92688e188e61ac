import { LOCALES, type Locale } from '../../../shared/locales';
import { measureSms, type SmsEncoding } from './sms-segments';
import { SMS_TEXTS, smsText, type SmsTextName } from './sms-texts';

/**
 * The values a report fills in: a lender name and a host of ordinary length, a checkout link as
 * the platform mints them (`/checkout/c/` and a 43-character token), a 6-digit code, a seven-figure
 * amount. A longer lender name or host costs more; the figures are for these.
 */
export const REFERENCE_VALUES = {
  code: '123456',
  lender: 'Kudi Finance Ltd',
  host: 'checkout.example.com',
  url: `https://checkout.example.com/checkout/c/${'x'.repeat(43)}`,
  /** The borrower's own loan page, where a failed debit's text sends them (no token: they sign in with their phone). */
  myLoanUrl: 'https://checkout.example.com/checkout/my-loan',
  minutes: 30,
  amount: 'NGN 1,250,000.00',
  date: '5 Mar 2026',
  bank: 'GTBank',
  last4: '0007',
  loanId: 'loan_01JD6Q2M9XKQ3ZC7B0A8FJ4N5T',
  /** A repayment's reference, as the loan page shows it on the receipt. */
  reference: 'RPY-019a6f2e-5b1c-7d3e-8f40-1a2b3c4d5e6f',
  outstanding: 'NGN 312,500.00',
} as const;

export interface SmsReportRow {
  text: SmsTextName | 'receiptWithDebit';
  locale: Locale;
  encoding: SmsEncoding;
  units: number;
  segments: number;
}

/** The full text each message is sent as, for the reference values. */
export function referenceText(name: SmsReportRow['text'], locale: Locale): string {
  const v = REFERENCE_VALUES;
  switch (name) {
    case 'otp':
      return `${smsText('otp', locale, v)}\n\n@${v.host} #${v.code}`;
    case 'receipt':
      return smsText('receipt', locale, { ...v, debit: '' }) + smsText('receiptLink', locale, { url: v.myLoanUrl });
    case 'debitFailed':
    case 'paymentReceived':
      return smsText(name, locale, { ...v, url: v.myLoanUrl });
    case 'receiptWithDebit':
      return smsText('receipt', locale, { ...v, debit: smsText('receiptDebit', locale, v) }) + smsText('receiptLink', locale, { url: v.myLoanUrl });
    default:
      return smsText(name, locale, v);
  }
}

export function smsSegmentReport(): SmsReportRow[] {
  const names = [...(Object.keys(SMS_TEXTS) as SmsTextName[]).filter((n) => n !== 'receiptDebit' && n !== 'receiptLink'), 'receiptWithDebit'] as const;
  return names.flatMap((text) => LOCALES.map((locale) => ({ text, locale, ...measureSms(referenceText(text, locale)) })));
}
