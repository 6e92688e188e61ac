import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * A borrower changing the account their loan is debited from (`domain/borrower-loans/mandate-replacements.ts`).
 * - `mandate_replacements`: the new mandate (`mandate_id`) set up on the rail for the account the borrower gave, and the
 *   mandate it replaces (`previous_mandate_id`). `status` `pending` (waiting for the borrower at the rail, or for a
 *   charge in flight on the old mandate to settle) | `active` (took over) | `failed` (refused, failed or expired at the
 *   rail) | `cancelled` (withdrawn for another account, or the loan no longer owes anything).
 *   `cancel_at_rail`: the mandate the rail must still be told to cancel (the old one after a takeover, the new one when
 *   the loan closed first); the mandate sweep retries it until the rail takes it, then clears it.
 * - One pending replacement per loan: a partial unique index on `loan_id` where `status = 'pending'`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('mandate_replacements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('session_id', 'text', (c) => c.references('borrower_sessions.id'))
    .addColumn('mandate_id', 'text', (c) => c.notNull().references('loan_mandates.id'))
    .addColumn('previous_mandate_id', 'text', (c) => c.notNull().references('loan_mandates.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text', (c) => c.notNull())
    .addColumn('name_match', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('cancel_at_rail', 'text')
    .addColumn('replaced_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mandate_replacements_loan_idx').on('mandate_replacements').columns(['loan_id', 'created_at']).execute();
  await db.schema.createIndex('mandate_replacements_mandate_idx').on('mandate_replacements').column('mandate_id').execute();
  await db.schema.createIndex('mandate_replacements_pending_uq').unique().on('mandate_replacements').column('loan_id').where(sql.ref('status'), '=', 'pending').execute();
  await db.schema.createIndex('mandate_replacements_cancel_idx').on('mandate_replacements').column('cancel_at_rail').where(sql.ref('cancel_at_rail'), 'is not', null).execute();
}
