import { describe, expect, it } from 'vitest';
import { en } from '../../widget/i18n/en';
import { resolveLocale, t, tp, useMessages, errorText, type Messages } from '../../widget/i18n/i18n';
import { localesPlugin } from '../../widget/i18n/vite-locales';
import { COMPLETE, coverage, PARTIAL_MARK, partialLabels, placeholders, problems, TABLES } from '../../widget/i18n/tables';

describe('checkout texts', () => {
  it('resolves language tags to a supported locale, English last', () => {
    expect(resolveLocale('yo-NG')).toBe('yo');
    expect(resolveLocale('PCM')).toBe('pcm');
    expect(resolveLocale(['fr-FR', 'ha_NG', 'en'])).toBe('ha');
    expect(resolveLocale('fr')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale('')).toBe('en');
  });

  it('every shipped table translates every key, with the same placeholders as English, in Unicode NFC', () => {
    expect([...COMPLETE].sort()).toEqual(['ha', 'ig', 'pcm', 'yo']);
    const keys = Object.keys(en) as (keyof typeof en)[];
    for (const [locale, table] of Object.entries(TABLES)) {
      expect(Object.keys(table).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        const text = table[key]!;
        expect(text.trim().length, `${locale} ${key}`).toBeGreaterThan(0);
        expect(placeholders(text), `${locale} ${key}`).toBe(placeholders(en[key]));
        expect(text, `${locale} ${key}`).toBe(text.normalize('NFC'));
      }
    }
    expect(problems()).toEqual([]);
  });

  it('the Nigerian languages are written in their own orthography', () => {
    const all = (table: Messages) => Object.values(table).join(' ');
    // Yorùbá: tone marks and under-dots, never the "sh" spelling of ṣ.
    for (const letter of ['ẹ', 'ọ', 'ṣ', 'à', 'á', 'ì', 'í', 'ò', 'ó', 'ù', 'ú', 'ǹ']) expect(all(TABLES.yo), letter).toContain(letter);
    expect(all(TABLES.yo)).not.toMatch(/sh/i);
    // Hausa: the hooked letters (ƴ, not 'y), never an apostrophe spelling of them.
    for (const letter of ['ɓ', 'ɗ', 'ƙ', 'ƴ']) expect(all(TABLES.ha), letter).toContain(letter);
    expect(all(TABLES.ha)).not.toMatch(/['’][bdy]/i);
    // Igbo: the dotted vowels.
    for (const letter of ['ị', 'ọ', 'ụ']) expect(all(TABLES.ig), letter).toContain(letter);
  });

  it('the financial terms of docs/languages are used consistently: every text with the English term has the glossary term', () => {
    const glossary: [RegExp, Record<'yo' | 'ha' | 'ig', string>][] = [
      [/direct[- ]debit/i, { yo: 'àyọkúrò tààrà', ha: 'cirar kuɗi kai-tsaye', ig: 'mwepụ ego ozugbo' }],
      [/guarantor/i, { yo: 'onídùúró', ha: 'lamuni', ig: 'nkwado' }],
      [/\binterest\b/i, { yo: 'èlé', ha: 'kuɗin ruwa', ig: 'ọmụrụnwa' }],
      [/late fee/i, { yo: 'owó ìtanràn ìsanpẹ́', ha: 'tarar jinkiri', ig: 'ntaramahụhụ mbubreyo' }],
      [/instalment/i, { yo: 'ìpín ìsanpadà', ha: 'kashin biya', ig: 'akụkụ nkwụghachi' }],
      [/cost of credit/i, { yo: 'iye tí ẹ̀yáwó ń ná yín', ha: 'jimillar kuɗin rance', ig: 'ọnụ ahịa mbinye ego' }],
      [/\bAPR\b/, { yo: 'APR', ha: 'APR', ig: 'APR' }],
      [/\blender\b/i, { yo: 'ayánilówó', ha: 'mai ba da rance', ig: 'onye mbinye ego' }],
    ];
    const inconsistent: string[] = [];
    for (const [english, terms] of glossary) {
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        if (!english.test(en[key].replace(/\{\w+\}/g, ''))) continue;
        for (const locale of ['yo', 'ha', 'ig'] as const) {
          const term = terms[locale].normalize('NFC');
          if (!TABLES[locale][key]!.toLowerCase().includes(term.toLowerCase())) inconsistent.push(`${locale} ${key}: ${term}`);
        }
      }
    }
    expect(inconsistent).toEqual([]);
  });

  it('the build fails on a missing key unless the locale may ship partial, and on text not in NFC', () => {
    const keys = Object.keys(en) as (keyof typeof en)[];
    const row = { ...coverage().find((r) => r.locale === 'yo')!, translated: keys.length - 1, missing: [keys[3]!] };
    expect(problems([row], ['yo'])).toEqual([`yo must be complete; missing: ${keys[3]}`]);
    expect(problems([row], [])).toEqual([]);
    expect(problems([{ ...row, missing: [], notNfc: ['otp.send'] }], ['yo'])).toEqual(['yo texts not in Unicode NFC: otp.send']);
    expect(partialLabels([row])).toEqual({ yo: `Yorùbá (a kò tíì túmọ̀ gbogbo rẹ̀: ${Math.floor((100 * (keys.length - 1)) / keys.length)} %)`.normalize('NFC') });
    expect(partialLabels()).toEqual({});
  });

  it('the build hands the widget the coverage data the language menu reads, and fails on a problem before bundling', () => {
    const plugin = localesPlugin();
    const config = (plugin.config as () => { define: Record<string, string> })();
    // Nothing is partial: `null`, and the menu shows the languages' names alone.
    expect(config.define.__LC_LOCALE_PARTIAL__).toBe('null');
    expect(Object.keys(JSON.parse(config.define.__LC_LOCALE_FILES__!)).sort()).toEqual(['ha', 'ig', 'pcm', 'yo']);
    let failed = '';
    (plugin.buildStart as (this: { error: (message: string) => never }) => void).call({ error: (message: string) => ((failed = message), undefined as never) });
    expect(failed).toBe('');
  });

  it('the language menu marks a partial language, in that language\'s own words', () => {
    const keys = Object.keys(en) as (keyof typeof en)[];
    const hausa = { ...coverage().find((r) => r.locale === 'ha')!, translated: 166, missing: keys.slice(0, keys.length - 166) };
    expect(partialLabels([hausa])).toEqual({ ha: `Hausa (an fassara wani sashi kawai: ${Math.floor((100 * 166) / keys.length)} %)` });
    // Every shipped table is complete: the build marks nothing (and the menu's label code folds away).
    expect(partialLabels()).toEqual({});
    for (const [locale, mark] of Object.entries(PARTIAL_MARK)) {
      expect(placeholders(mark), locale).toBe('language,percent');
      expect(mark, locale).toBe(mark.normalize('NFC'));
    }
  });

  it('falls back to English for a key the table lacks, fills placeholders and picks the plural form', () => {
    // A partial table (as a partner override or a language listed in PARTIAL would be).
    useMessages('yo', { 'otp.send': TABLES.yo['otp.send'] });
    expect(t('otp.send')).toBe(TABLES.yo['otp.send']);
    expect(t('otp.help')).toBe(en['otp.help']);
    expect(t('checkout.progress', { n: 2, m: 5 })).toBe('Step 2 of 5');
    useMessages('yo', TABLES.yo);
    expect(t('checkout.progress', { n: 2, m: 5 })).toBe('Ìgbésẹ̀ 2 nínú 5');
    useMessages('ig', TABLES.ig);
    expect(tp('guarantors.needed', 2, { confirmed: 1 })).toBe('Mbinye ego a chọrọ ndị nkwado 2: 1 n’ime 2 ekwenyela.');
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
