import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { Mode, SettlementStatementsTable } from '../../db/schema';
import { findOwned } from '../find-owned';
import type { Scope } from '../scope';

export interface SettlementLine {
  loanId: string;
  feeKobo: number;
  interestKobo: number;
  /** Repayments contributing in the period. */
  repayments: number;
}

export interface SettlementStatement {
  id: string;
  organisationId: string;
  periodStart: string;
  periodEnd: string;
  feeSweptKobo: number;
  interestSweptKobo: number;
  totalSweptKobo: number;
  status: 'completed' | 'skipped' | 'failed';
  failureReason: string | null;
  transferReference: string | null;
  lines: SettlementLine[] | null;
  createdAt: string;
  updatedAt: string;
}

export function toStatement(row: SettlementStatementsTable): SettlementStatement {
  return {
    id: row.id,
    organisationId: row.organisationId,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    feeSweptKobo: row.feeSweptKobo,
    interestSweptKobo: row.interestSweptKobo,
    totalSweptKobo: row.totalSweptKobo,
    status: row.status as SettlementStatement['status'],
    failureReason: row.failureReason,
    transferReference: row.transferReference,
    lines: fromJson<SettlementLine[]>(row.lines),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}


export async function listStatements(db: Executor, scope: Scope): Promise<SettlementStatement[]> {
  const rows = await db
    .selectFrom('settlementStatements')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .orderBy('periodEnd', 'desc')
    .execute();
  return rows.map(toStatement);
}

export async function getStatement(db: Executor, scope: Scope, id: string): Promise<SettlementStatement> {
  const row = await findOwned(db, 'settlementStatements', scope, id, 'settlement statement');
  return toStatement(row);
}

/** RFC 4180 field: quoted when it holds a comma, a quote or a line break; quotes doubled. */
function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_COLUMNS = ['statement_id', 'period_start', 'period_end', 'loan_id', 'fee_kobo', 'interest_kobo', 'total_kobo', 'repayments'] as const;

/** One header row, then one row per loan; amounts in kobo; CRLF line ends (RFC 4180). */
export function statementCsv(statement: SettlementStatement): string {
  const rows = (statement.lines ?? []).map((line) =>
    [statement.id, statement.periodStart, statement.periodEnd, line.loanId, line.feeKobo, line.interestKobo, line.feeKobo + line.interestKobo, line.repayments],
  );
  return [CSV_COLUMNS as readonly (string | number)[], ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
