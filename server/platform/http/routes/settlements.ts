import { z } from 'zod';
import { CSV_COLUMNS, getStatement, listStatements, statementCsv } from '../../domain/settlements/settlement';
import { defineRoute } from '../route';
import { IdParams, KoboAmount, Timestamp, Uuid } from '../schemas';

const SettlementStatementSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    periodStart: Timestamp,
    periodEnd: Timestamp.meta({ description: 'Exclusive: repayments completed before this instant.' }),
    feeSweptKobo: KoboAmount,
    interestSweptKobo: KoboAmount,
    totalSweptKobo: KoboAmount,
    status: z.enum(['completed', 'skipped', 'failed']),
    failureReason: z.string().nullable(),
    transferReference: z.string().nullable().meta({ description: 'The ledger transaction that moved the money to the organisation wallet.' }),
    lines: z
      .array(z.object({ loanId: Uuid, feeKobo: KoboAmount, interestKobo: KoboAmount, repayments: z.number().int() }).meta({ id: 'SettlementLine' }))
      .nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({
    id: 'SettlementStatement',
    description:
      'A sweep of the fee and interest earned from completed repayments in a period to the organisation wallet. Totals equal the sum of the lines. ' +
      'A period with nothing to sweep is `skipped`. Runs are periodic (and by an operator); a repayment is swept once. ' +
      'Patient-financing loans never appear on a partner\'s statement or its CSV: the service is their lender, so their interest and fees are swept to the service\'s own revenue ' +
      'on its own statement; the partner\'s books hold only the treatment amounts owed to it (docs/ledger.md).',
  });

export const settlementRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/settlements',
    operationId: 'listSettlements',
    tag: 'Settlements',
    summary: 'List settlement statements',
    description: 'Newest period first.',
    access: 'tenant',
    response: { status: 200, description: 'Statements.', data: z.array(SettlementStatementSchema) },
    async handle({ db, auth }) {
      return { message: 'Settlements retrieved', data: await listStatements(db, auth) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/settlements/{id}',
    operationId: 'getSettlement',
    tag: 'Settlements',
    summary: 'Get a settlement statement',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The statement.', data: SettlementStatementSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Settlement retrieved', data: await getStatement(db, auth, params.id) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/settlements/{id}/csv',
    operationId: 'getSettlementCsv',
    tag: 'Settlements',
    summary: 'A settlement statement as CSV',
    description: `RFC 4180 (CRLF line ends, quoted fields where needed), one header row, one row per loan; amounts in kobo. Columns: ${CSV_COLUMNS.join(', ')}.`,
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'text/csv', contentType: 'text/csv' },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      const statement = await getStatement(db, auth, params.id);
      return { message: 'ok', file: { contentType: 'text/csv; charset=utf-8', body: statementCsv(statement), filename: `settlement-${statement.id}.csv` } };
    },
  }),
];
