import { COMPLETE, coverage, coverageReport, PARTIAL, problems } from './tables.ts';

/**
 * `npm run i18n:report`: one line per locale (keys translated of all), the keys that fall back to
 * English with `--keys` (or `LC_LOCALE_KEYS=1`), and the problems that would fail the widget build
 * (exit code 1 when there are any). The build itself prints nothing about locales unless it fails.
 */
const rows = coverage();
const keys = process.argv.includes('--keys') || process.env.LC_LOCALE_KEYS === '1';
console.log(`Checkout texts: English is built in; other locales load on demand.`);
console.log(`Must be complete: ${COMPLETE.join(', ') || '(none)'}; may ship partial: ${PARTIAL.join(', ') || '(none)'}`);
console.log(coverageReport(rows, { keys }));
const found = problems(rows);
if (found.length) {
  console.error(`\nThe widget build would fail:\n${found.join('\n')}`);
  process.exitCode = 1;
}
