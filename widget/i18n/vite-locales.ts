import type { Plugin } from 'vite';
import { partialLabels, problems, TABLES } from './tables.ts';
import { contentHash, hashedName } from '../vite-static-assets.ts';

/**
 * Writes every non-English table to `locales/{locale}.json` next to the bundle (the checkout server
 * serves them at `{api}/locales/{locale}.json`) and fails the build when a shipped locale misses a
 * key (unless `PARTIAL` in `tables.ts` lists it), a table has a key English does not, a translation's
 * `{placeholders}` differ from the English text's, or a text is not in Unicode NFC. It prints
 * nothing when all is well: the coverage report is `npm run i18n:report`.
 */
export function localesPlugin(): Plugin {
  return {
    name: 'lc-locales',
    apply: 'build',
    // The bundle asks for each table by its content-hashed name (an immutable URL), known here before
    // the build: the name the static-assets plugin gives the file is the hash of the same bytes. The
    // language menu marks the locales that still fall back to English for some keys (none today: `null`,
    // and the marker's code is left out of the bundle).
    config() {
      const partial = Object.entries(partialLabels());
      const files = Object.fromEntries(Object.entries(TABLES).map(([locale, table]) => [locale, hashedName(`${locale}.json`, contentHash(JSON.stringify(table)))]));
      return { define: { __LC_LOCALE_FILES__: JSON.stringify(files), __LC_LOCALE_PARTIAL__: partial.length ? JSON.stringify(Object.fromEntries(partial)) : 'null' } };
    },
    buildStart() {
      const found = problems();
      if (found.length) this.error(`locale tables:\n${found.join('\n')}`);
    },
    generateBundle() {
      for (const [locale, table] of Object.entries(TABLES)) {
        this.emitFile({ type: 'asset', fileName: `locales/${locale}.json`, source: JSON.stringify(table) });
      }
    },
  };
}
