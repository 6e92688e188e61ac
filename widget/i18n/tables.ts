import { en, type MessageKey } from './en.ts';
import { ha } from './ha.ts';
import type { Locale, Messages } from './i18n.ts';
import { ig } from './ig.ts';
import { pcm } from './pcm.ts';
import { yo } from './yo.ts';

/**
 * Every table, for the build (which writes each non-English one to `locales/{locale}.json` and
 * prints the coverage report) and for tests. The widget itself never imports this file: English is
 * built in and the others are fetched when asked for.
 */
export const TABLES: Record<Exclude<Locale, 'en'>, Messages> = { pcm, yo, ha, ig };

/** Locales that must translate every key (the build fails otherwise). */
export const COMPLETE: readonly Locale[] = ['pcm'];

export interface Coverage {
  locale: Locale;
  translated: number;
  total: number;
  missing: MessageKey[];
  /** Keys a table has that English does not (typos, removed texts). */
  unknown: string[];
  /** Translations whose `{placeholders}` differ from the English text's. */
  placeholderMismatch: MessageKey[];
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

export function coverage(): Coverage[] {
  const keys = Object.keys(en) as MessageKey[];
  return (Object.entries(TABLES) as [Exclude<Locale, 'en'>, Messages][]).map(([locale, table]) => ({
    locale,
    translated: keys.filter((k) => table[k] !== undefined).length,
    total: keys.length,
    missing: keys.filter((k) => table[k] === undefined),
    unknown: Object.keys(table).filter((k) => !(k in en)),
    placeholderMismatch: keys.filter((k) => table[k] !== undefined && placeholders(table[k]!) !== placeholders(en[k])),
  }));
}

/** The report the widget build prints. */
export function coverageReport(rows = coverage(), options: { keys?: boolean } = {}): string {
  return rows
    .map((row) => {
      const head = `  ${row.locale.padEnd(4)} ${row.translated}/${row.total} (${Math.round((100 * row.translated) / row.total)} %)`;
      const missing = options.keys && row.missing.length ? `\n       falls back to English: ${row.missing.join(', ')}` : '';
      return head + missing;
    })
    .join('\n');
}
