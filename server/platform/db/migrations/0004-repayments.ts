import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Repayments, and what each instalment's buckets have received. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  for (const column of ['late_fee_kobo', 'paid_principal_kobo', 'paid_interest_kobo', 'paid_fee_kobo']) {
    await db.schema.alterTable('loan_schedule_items').addColumn(column, t.bigint, (c) => c.notNull().defaultTo(0)).execute();
  }
  await db.schema
    .createTable('loan_repayments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('borrower_id', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('unallocated_kobo', t.bigint, (c) => c.notNull())
    .addColumn('fee_portion_kobo', t.bigint, (c) => c.notNull())
    .addColumn('interest_portion_kobo', t.bigint, (c) => c.notNull())
    .addColumn('principal_portion_kobo', t.bigint, (c) => c.notNull())
    .addColumn('external_reference', 'text')
    .addColumn('ledger_transaction_ref', 'text')
    .addColumn('completed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loan_repayments_loan_idx').on('loan_repayments').columns(['loan_id', 'created_at']).execute();
  await db.schema
    .createIndex('loan_repayments_external_uq')
    .on('loan_repayments')
    .columns(['loan_id', 'external_reference'])
    .unique()
    .where('external_reference', 'is not', null)
    .execute();
}
