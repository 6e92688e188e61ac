import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Mandate repayments: the rail charge behind a pending repayment, and why one failed. */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loan_repayments').addColumn('mandate_id', 'text').execute();
  await db.schema.alterTable('loan_repayments').addColumn('charge_reference', 'text').execute();
  await db.schema.alterTable('loan_repayments').addColumn('failure_reason', 'text').execute();
  await db.schema.createIndex('loan_repayments_pending_idx').on('loan_repayments').columns(['status', 'method']).execute();
}
