/**
 * `npm run i18n:sms`: the parts every borrower text costs in every language (GSM-7 160 a part,
 * UCS-2 70), for the reference values of `domain/languages/sms-report.ts`.
 */
import { smsSegmentReport } from '../platform/domain/languages/sms-report';

const rows = smsSegmentReport();
console.log('SMS parts per text and language (reference values: 16-character lender, 20-character host)');
console.log(['text'.padEnd(18), 'locale'.padEnd(6), 'encoding'.padEnd(8), 'units'.padStart(5), 'parts'.padStart(5)].join('  '));
for (const row of rows) {
  console.log([row.text.padEnd(18), row.locale.padEnd(6), row.encoding.padEnd(8), String(row.units).padStart(5), String(row.segments).padStart(5)].join('  '));
}
