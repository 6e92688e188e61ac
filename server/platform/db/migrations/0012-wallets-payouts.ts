import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Borrower wallets and payouts, and product recovery policies:
 * - payout requests, each reserving its amount on the ledger when it is made;
 * - borrower wallets and borrower payables become guarded credit-normal accounts: their running
 *   balance (the signed sum of their postings, never above zero) is backfilled here;
 * - a product's recovery policy: days overdue before default when `recovery_enabled`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('payout_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('borrower_id', 'text', (c) => c.notNull().references('borrowers.id'))
    .addColumn('loan_id', 'text', (c) => c.references('loans.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_kind', 'text', (c) => c.notNull())
    .addColumn('rejection_reason', 'text')
    .addColumn('settled_at', t.timestamp)
    .addColumn('settled_by_user_id', 'text')
    .addColumn('settlement_reference', 'text')
    .addColumn('ledger_transaction_ref', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payout_requests_org_idx').on('payout_requests').columns(['organisation_id', 'mode', 'created_at']).execute();
  await db.schema.createIndex('payout_requests_borrower_idx').on('payout_requests').column('borrower_id').execute();

  await db.schema.alterTable('loan_products').addColumn('recovery_default_after_days_overdue', 'integer').execute();

  const guarded = t.bool === 'boolean' ? sql`false` : sql`0`;
  await sql`
    update ledger_accounts
       set allow_negative = ${guarded},
           balance_kobo = (select coalesce(sum(p.amount_kobo), 0) from ledger_postings p where p.account_id = ledger_accounts.id)
     where kind in ('borrower_wallet', 'borrower_payable')
  `.execute(db);
}
