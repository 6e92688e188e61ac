import type { Executor } from '../../db/database';
import type { Scope } from '../scope';
import { unscaleDecimal } from '../../../shared/decimal';
import { toStatement, type SettlementStatement } from './settlement';

/**
 * The settlement statements of an organisation and mode as CSV (the dashboard's download): one row per statement,
 * every amount twice, integer kobo and naira written exactly from the kobo (no float), RFC 4180 quoting, CRLF.
 * Text cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return)
 * are prefixed with `'` (OWASP's CSV-injection advice); numbers are written as numbers and never prefixed.
 */
export const STATEMENTS_CSV_COLUMNS = [
  'statement_id',
  'period_start',
  'period_end',
  'status',
  'fee_swept_kobo',
  'fee_swept_naira',
  'interest_swept_kobo',
  'interest_swept_naira',
  'total_swept_kobo',
  'total_swept_naira',
  'loans',
  'transfer_reference',
  'failure_reason',
  'created_at',
] as const;

/** A text cell: formula guard, then quoting when it holds a comma, a quote or a line break (quotes doubled). */
export function csvText(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Integer kobo as a naira decimal string, exactly: 150050 → `1500.50`, -5 → `-0.05`. */
export const nairaText = (kobo: number): string => unscaleDecimal(kobo, 2);

export function statementCsvRow(s: SettlementStatement): string {
  return [
    csvText(s.id),
    csvText(s.periodStart),
    csvText(s.periodEnd),
    csvText(s.status),
    String(s.feeSweptKobo),
    nairaText(s.feeSweptKobo),
    String(s.interestSweptKobo),
    nairaText(s.interestSweptKobo),
    String(s.totalSweptKobo),
    nairaText(s.totalSweptKobo),
    String(s.lines?.length ?? 0),
    csvText(s.transferReference),
    csvText(s.failureReason),
    csvText(s.createdAt),
  ].join(',');
}

export const statementsCsvHeader = (): string => STATEMENTS_CSV_COLUMNS.join(',');

/**
 * The statements newest first, in keyset batches (a large history is never one query's result in memory): each
 * batch's rows are handed to `write`.
 */
export async function writeStatementsCsv(db: Executor, scope: Scope, write: (chunk: string) => void | Promise<void>, batch = 500): Promise<number> {
  await write(`${statementsCsvHeader()}\r\n`);
  let after: { at: string; id: string } | undefined;
  let count = 0;
  for (;;) {
    let query = db.selectFrom('settlementStatements').selectAll().where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode);
    const cursor = after;
    if (cursor) query = query.where((eb) => eb.or([eb('createdAt', '<', cursor.at), eb.and([eb('createdAt', '=', cursor.at), eb('id', '<', cursor.id)])]));
    const rows = await query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(batch).execute();
    if (rows.length === 0) return count;
    await write(rows.map((row) => `${statementCsvRow(toStatement(row))}\r\n`).join(''));
    count += rows.length;
    const last = rows[rows.length - 1]!;
    after = { at: last.createdAt, id: last.id };
    if (rows.length < batch) return count;
  }
}
