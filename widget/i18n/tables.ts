import { en, type MessageKey } from './en.ts';
import { ha } from './ha.ts';
import { LOCALE_NAMES, type Locale, type Messages } from './i18n.ts';
import { ig } from './ig.ts';
import { pcm } from './pcm.ts';
import { yo } from './yo.ts';

/**
 * Every table, for the build (which writes each non-English one to `locales/{locale}.json` and fails
 * on an incomplete one), for `npm run i18n:report` and for tests. The widget itself never imports
 * this file: English is built in and the others are fetched when asked for.
 */
export const TABLES: Record<Exclude<Locale, 'en'>, Messages> = { pcm, yo, ha, ig };

/**
 * Locales allowed to ship while some keys still fall back to English: the build lets them through
 * and the language menu marks them as partial (from `partialLabels()`). Empty: every shipped
 * language translates every key, and the build fails on any other locale missing one. A new
 * language can be listed here while its table is being written.
 */
export const PARTIAL: readonly Exclude<Locale, 'en'>[] = [];

/** Locales that must translate every key (the build fails otherwise): every shipped one not listed as partial. */
export const COMPLETE: readonly Locale[] = (Object.keys(TABLES) as Exclude<Locale, 'en'>[]).filter((locale) => !PARTIAL.includes(locale));

export interface Coverage {
  locale: Locale;
  translated: number;
  total: number;
  missing: MessageKey[];
  /** Keys a table has that English does not (typos, removed texts). */
  unknown: string[];
  /** Translations whose `{placeholders}` differ from the English text's. */
  placeholderMismatch: MessageKey[];
  /** Translations not in Unicode NFC (the same letter spelled with different code points compares unequal, and searches and tests miss it). */
  notNfc: MessageKey[];
}

/** The `{placeholders}` of a text, sorted (two texts agree when these are equal). */
export const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

export function coverage(): Coverage[] {
  const keys = Object.keys(en) as MessageKey[];
  return (Object.entries(TABLES) as [Exclude<Locale, 'en'>, Messages][]).map(([locale, table]) => ({
    locale,
    translated: keys.filter((k) => table[k] !== undefined).length,
    total: keys.length,
    missing: keys.filter((k) => table[k] === undefined),
    unknown: Object.keys(table).filter((k) => !(k in en)),
    placeholderMismatch: keys.filter((k) => table[k] !== undefined && placeholders(table[k]!) !== placeholders(en[k])),
    notNfc: keys.filter((k) => table[k] !== undefined && table[k] !== table[k]!.normalize('NFC')),
  }));
}

/**
 * The language menu's mark for a locale whose table misses keys, in that language's own words (its
 * menu entry carries its `lang`). Build-side only: the bundle gets the finished labels, never this.
 */
export const PARTIAL_MARK: Record<Exclude<Locale, 'en'>, string> = {
  pcm: '{language} (we never translate am finish: {percent} %)',
  yo: '{language} (a kò tíì túmọ̀ gbogbo rẹ̀: {percent} %)',
  ha: '{language} (an fassara wani sashi kawai: {percent} %)',
  ig: '{language} (a sụgharịala naanị akụkụ: {percent} %)',
};

/**
 * The menu labels of the locales whose tables miss keys (`Hausa (an fassara wani sashi kawai: 62 %)`,
 * the share translated rounded down so a partial table never shows 100): the coverage data the build
 * gives the widget for the language menu. Empty when every table is complete.
 */
export function partialLabels(rows = coverage()): Partial<Record<Locale, string>> {
  return Object.fromEntries(
    rows
      .filter((row) => row.missing.length > 0)
      .map((row) => [row.locale, PARTIAL_MARK[row.locale as Exclude<Locale, 'en'>].replace('{language}', LOCALE_NAMES[row.locale]).replace('{percent}', String(Math.floor((100 * row.translated) / row.total)))]),
  );
}

/** The problems that fail the build: a complete locale missing a key, a key English lacks, placeholders that differ from English, text not in Unicode NFC. */
export function problems(rows = coverage(), complete: readonly Locale[] = COMPLETE): string[] {
  return rows.flatMap((row) => [
    ...(complete.includes(row.locale) && row.missing.length ? [`${row.locale} must be complete; missing: ${row.missing.join(', ')}`] : []),
    ...(row.unknown.length ? [`${row.locale} has keys English does not: ${row.unknown.join(', ')}`] : []),
    ...(row.placeholderMismatch.length ? [`${row.locale} placeholders differ from English: ${row.placeholderMismatch.join(', ')}`] : []),
    ...(row.notNfc.length ? [`${row.locale} texts not in Unicode NFC: ${row.notNfc.join(', ')}`] : []),
  ]);
}

/** The report `npm run i18n:report` prints. */
export function coverageReport(rows = coverage(), options: { keys?: boolean } = {}): string {
  return rows
    .map((row) => {
      const head = `  ${row.locale.padEnd(4)} ${row.translated}/${row.total} (${Math.floor((100 * row.translated) / row.total)} %)`;
      const missing = options.keys && row.missing.length ? `\n       falls back to English: ${row.missing.join(', ')}` : '';
      return head + missing;
    })
    .join('\n');
}
