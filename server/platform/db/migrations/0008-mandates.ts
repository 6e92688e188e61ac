import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Direct-debit mandates on payment rails. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('loan_mandates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('borrower_id', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text')
    .addColumn('bank_code', 'text')
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('authorization_url', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('provider_reference', 'text')
    .addColumn('provider_status', 'text')
    .addColumn('authorization_code_sealed', 'text')
    .addColumn('activated_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loan_mandates_loan_idx').on('loan_mandates').column('loan_id').execute();
}
