import { describe, expect, it } from 'vitest';
import { placeholders } from '../../widget/i18n/tables';
import { en } from '../../widget/i18n/en';
import { TABLES } from '../../widget/i18n/tables';
import { LINK_PAGE_EN, LINK_PAGE_TEXTS, linkPageText } from '../../server/shared/link-page-texts';
import { LOCALES } from '../../server/shared/locales';

describe('the texts of the page of a link that no longer works', () => {
  it('every language translates every key, with the same placeholders as English, in Unicode NFC', () => {
    const keys = Object.keys(LINK_PAGE_EN) as Array<keyof typeof LINK_PAGE_EN>;
    expect(Object.keys(LINK_PAGE_TEXTS).sort()).toEqual(['ha', 'ig', 'pcm', 'yo']);
    for (const [locale, table] of Object.entries(LINK_PAGE_TEXTS)) {
      expect(Object.keys(table).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        expect(placeholders(table[key]), `${locale} ${key}`).toBe(placeholders(LINK_PAGE_EN[key]));
        expect(table[key], `${locale} ${key}`).toBe(table[key].normalize('NFC'));
        if (locale !== 'pcm') expect(table[key], `${locale} ${key} is translated`).not.toBe(LINK_PAGE_EN[key]);
      }
    }
  });

  it('names the checkout\'s own button, as the checkout words it in that language', () => {
    for (const locale of LOCALES) {
      const button = locale === 'en' ? en['offer.letter'] : TABLES[locale]['offer.letter']!;
      expect(linkPageText(locale, 'next'), locale).toContain(`“${button}”`);
    }
    expect(linkPageText('ha', 'contact', { lender: 'Kobo Credit' })).toBe('Kuna da tambaya game da rancenku? Ku tuntuɓi Kobo Credit:');
  });
});
