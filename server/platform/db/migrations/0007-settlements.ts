import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Settlement statements, and which repayments each one swept. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('settlement_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('period_start', t.timestamp, (c) => c.notNull())
    .addColumn('period_end', t.timestamp, (c) => c.notNull())
    .addColumn('fee_swept_kobo', t.bigint, (c) => c.notNull())
    .addColumn('interest_swept_kobo', t.bigint, (c) => c.notNull())
    .addColumn('total_swept_kobo', t.bigint, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('transfer_reference', 'text')
    .addColumn('lines', t.json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('settlement_statements_period_uq', ['organisation_id', 'mode', 'period_end'])
    .execute();
  await db.schema.alterTable('loan_repayments').addColumn('settlement_id', 'text').execute();
  await db.schema.createIndex('loan_repayments_unsettled_idx').on('loan_repayments').columns(['organisation_id', 'mode', 'settlement_id', 'completed_at']).execute();
}
