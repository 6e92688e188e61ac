import { describe, expect, it } from 'vitest';
import { en } from '../../widget/i18n/en';
import { resolveLocale, t, tp, useMessages, errorText } from '../../widget/i18n/i18n';
import { COMPLETE, coverage, TABLES } from '../../widget/i18n/tables';

describe('checkout texts', () => {
  it('resolves language tags to a supported locale, English last', () => {
    expect(resolveLocale('yo-NG')).toBe('yo');
    expect(resolveLocale('PCM')).toBe('pcm');
    expect(resolveLocale(['fr-FR', 'ha_NG', 'en'])).toBe('ha');
    expect(resolveLocale('fr')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale('')).toBe('en');
  });

  it('Pidgin translates every key, with the same placeholders as English', () => {
    for (const locale of COMPLETE) {
      const row = coverage().find((r) => r.locale === locale)!;
      expect(row.missing).toEqual([]);
      expect(row.placeholderMismatch).toEqual([]);
    }
  });

  it('no table has a key English lacks or a placeholder English does not fill', () => {
    for (const row of coverage()) {
      expect(row.unknown, row.locale).toEqual([]);
      expect(row.placeholderMismatch, row.locale).toEqual([]);
    }
  });

  it('falls back to English for a key the table lacks, fills placeholders and picks the plural form', () => {
    useMessages('yo', TABLES.yo);
    expect(t('otp.send')).toBe(TABLES.yo['otp.send']);
    expect(TABLES.yo['otp.help']).toBeUndefined();
    expect(t('otp.help')).toBe(en['otp.help']);
    expect(t('checkout.progress', { n: 2, m: 5 })).toBe('Step 2 of 5');
    useMessages('pcm', TABLES.pcm);
    expect(t('checkout.progress', { n: 2, m: 5 })).toBe('Step 2 for 5');
    expect(tp('guarantors.needed', 1, { confirmed: 0 })).toBe('Dis loan need 1 guarantor: 0 for 1 don confirm.');
    expect(tp('guarantors.needed', 2, { confirmed: 1 })).toBe('Dis loan need 2 guarantors: 1 for 2 don confirm.');
    expect(errorText({ code: 'otp_incorrect', message: 'server text' })).toBe(TABLES.pcm['error.otp_incorrect']);
    expect(errorText({ code: 'something_new', message: 'server text' })).toBe('server text');
    useMessages('en', {});
    expect(t('checkout.progress', { n: 1 })).toBe('Step 1 of {m}');
  });
});
