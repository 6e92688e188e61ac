import type { Plugin } from 'vite';
import { COMPLETE, coverage, coverageReport, TABLES } from './tables.ts';
import { contentHash, hashedName } from '../vite-static-assets.ts';

/**
 * Writes every non-English table to `locales/{locale}.json` next to the bundle (the checkout server
 * serves them at `{api}/locales/{locale}.json`) and prints the coverage report. A complete locale
 * that misses a key, a key English does not have, or a translation whose `{placeholders}` differ
 * from the English text fails the build.
 */
export function localesPlugin(): Plugin {
  let reported = false;
  return {
    name: 'lc-locales',
    apply: 'build',
    // The bundle asks for each table by its content-hashed name (an immutable URL), known here before
    // the build: the name the static-assets plugin gives the file is the hash of the same bytes.
    config() {
      const files = Object.fromEntries(Object.entries(TABLES).map(([locale, table]) => [locale, hashedName(`${locale}.json`, contentHash(JSON.stringify(table)))]));
      return { define: { __LC_LOCALE_FILES__: JSON.stringify(files) } };
    },
    generateBundle() {
      for (const [locale, table] of Object.entries(TABLES)) {
        this.emitFile({ type: 'asset', fileName: `locales/${locale}.json`, source: JSON.stringify(table) });
      }
      const rows = coverage();
      const problems = rows.flatMap((row) => [
        ...(COMPLETE.includes(row.locale) && row.missing.length ? [`${row.locale} must be complete; missing: ${row.missing.join(', ')}`] : []),
        ...(row.unknown.length ? [`${row.locale} has keys English does not: ${row.unknown.join(', ')}`] : []),
        ...(row.placeholderMismatch.length ? [`${row.locale} placeholders differ from English: ${row.placeholderMismatch.join(', ')}`] : []),
      ]);
      if (problems.length) this.error(`locale tables:\n${problems.join('\n')}`);
      if (!reported) {
        reported = true;
        // One line per language; the untranslated keys themselves only when asked for (LC_LOCALE_KEYS=1).
        console.log(`\nCheckout texts: English is built in; other locales load on demand.\n${coverageReport(rows, { keys: process.env.LC_LOCALE_KEYS === '1' })}\n`);
      }
    },
  };
}
