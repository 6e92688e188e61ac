import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../server/shared/locales';
import { LOCALES as WIDGET_LOCALES } from '../../widget/i18n/i18n';
import { measureSms } from '../../server/platform/domain/languages/sms-segments';
import { smsSegmentReport, referenceText } from '../../server/platform/domain/languages/sms-report';
import { SMS_TEXTS, smsText } from '../../server/platform/domain/languages/sms-texts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

describe('measureSms', () => {
  it('counts GSM-7 texts at 160 a part and 153 a part once split', () => {
    expect(measureSms('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(measureSms('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(measureSms('a'.repeat(306)).segments).toBe(2);
    expect(measureSms('a'.repeat(307)).segments).toBe(3);
  });

  it('counts the extension characters twice', () => {
    expect(measureSms('€{}')).toEqual({ encoding: 'GSM-7', units: 6, segments: 1 });
  });

  it('when one character is outside GSM-7 (₦, ẹ, ƙ, ụ), then the whole text is UCS-2 at 70 a part, 67 once split', () => {
    for (const c of ['₦', 'ẹ', 'ƙ', 'ụ', 'ṅ', 'ɗ']) expect(measureSms(`${c}${'a'.repeat(69)}`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(measureSms(`ẹ${'a'.repeat(70)}`).segments).toBe(2);
    expect(measureSms(`ẹ${'a'.repeat(134)}`).segments).toBe(3);
  });

  it('counts a combining tone mark as a code unit of its own', () => {
    expect(measureSms('ẹ́').units).toBe(2);
  });
});

describe('SMS texts', () => {
  it('ships the languages the widget ships', () => {
    expect([...LOCALES]).toEqual([...WIDGET_LOCALES]);
  });

  it('has every text in every language, with the same placeholders as English', () => {
    for (const [name, texts] of Object.entries(SMS_TEXTS)) {
      for (const locale of LOCALES) {
        expect(texts[locale], `${name}.${locale}`).toBeTruthy();
        expect(placeholders(texts[locale]), `${name}.${locale}`).toBe(placeholders(texts.en));
      }
    }
  });

  it('writes Yoruba, Hausa and Igbo in their own letters', () => {
    expect(smsText('otp', 'yo', { code: '1', lender: 'L' })).toMatch(/[ẹọṣ]/u);
    expect(smsText('otp', 'ha', { code: '1', lender: 'L' })).toMatch(/[ɓɗƙƴ]/u);
    expect(smsText('otp', 'ig', { code: '1', lender: 'L' })).toMatch(/[ịọụṅ]/u);
  });

  it('keeps English and Pidgin in GSM-7 (amounts as NGN, never ₦)', () => {
    for (const row of smsSegmentReport().filter((r) => r.locale === 'en' || r.locale === 'pcm')) expect(row.encoding, `${row.text}.${row.locale}`).toBe('GSM-7');
  });

  // The figures docs/languages/README.md states, for the reference values (16-character lender, 20-character host).
  it.each([
    ['otp', { en: 1, pcm: 1, yo: 2, ha: 2, ig: 2 }],
    ['offerReady', { en: 2, pcm: 2, yo: 3, ha: 3, ig: 3 }],
    ['renewedLink', { en: 2, pcm: 2, yo: 3, ha: 3, ig: 3 }],
    ['receipt', { en: 2, pcm: 2, yo: 3, ha: 2, ig: 3 }],
    ['receiptWithDebit', { en: 2, pcm: 2, yo: 5, ha: 5, ig: 5 }],
    ['mandateExpired', { en: 2, pcm: 2, yo: 3, ha: 3, ig: 3 }],
    ['mandateExpiredNoLink', { en: 1, pcm: 1, yo: 2, ha: 2, ig: 2 }],
    ['debitReminder', { en: 1, pcm: 1, yo: 2, ha: 2, ig: 2 }],
    ['debitFailed', { en: 1, pcm: 1, yo: 2, ha: 1, ig: 2 }],
    ['paymentReceived', { en: 2, pcm: 2, yo: 3, ha: 3, ig: 3 }],
    ['loanPaidOff', { en: 1, pcm: 1, yo: 2, ha: 2, ig: 2 }],
  ] as const)('%s costs the parts the README states in each language', (text, parts) => {
    const rows = smsSegmentReport().filter((row) => row.text === text);
    expect(Object.fromEntries(rows.map((row) => [row.locale, row.segments]))).toEqual(parts);
  });

  it('sends the OTP with the WebOTP line last', () => {
    expect(referenceText('otp', 'yo').endsWith('\n\n@checkout.example.com #123456')).toBe(true);
  });
});
