import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Early settlement.
 * - `loan_products.early_settlement_interest` (`to_date` | `scheduled`) and `early_settlement_fee_bps` (0–10,000): the
 *   product's rule (`repayments/settlement-quote.ts`); existing products get the default, interest to date and no fee.
 * - `settlement_quotes`: a quote a borrower asked for, stored so it is paid exactly: its amounts, the rule it used,
 *   `valid_until` (end of the Lagos day), the loan's `amount_paid_kobo` when quoted (a payment since makes it stale),
 *   and `settled_instalments` (JSON: the balances paying it settles). `repayment_id` is the mandate charge that pays it;
 *   `status` `open` | `paying` | `paid` (`refused` charges put it back to `open`).
 *   One charge in flight per quote: a partial unique index on `repayment_id`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loan_products').addColumn('early_settlement_interest', 'text', (c) => c.notNull().defaultTo('to_date')).execute();
  await db.schema.alterTable('loan_products').addColumn('early_settlement_fee_bps', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('settlement_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('session_id', 'text', (c) => c.references('borrower_sessions.id'))
    .addColumn('interest_rule', 'text', (c) => c.notNull())
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    .addColumn('total_kobo', t.bigint, (c) => c.notNull())
    .addColumn('principal_kobo', t.bigint, (c) => c.notNull())
    .addColumn('interest_kobo', t.bigint, (c) => c.notNull())
    .addColumn('fee_kobo', t.bigint, (c) => c.notNull())
    .addColumn('settlement_fee_kobo', t.bigint, (c) => c.notNull())
    .addColumn('waived_kobo', t.bigint, (c) => c.notNull())
    .addColumn('amount_paid_kobo', t.bigint, (c) => c.notNull())
    .addColumn('settled_instalments', t.json, (c) => c.notNull())
    .addColumn('valid_until', t.timestamp, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('repayment_id', 'text', (c) => c.references('loan_repayments.id'))
    .addColumn('paid_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('settlement_quotes_loan_idx').on('settlement_quotes').columns(['loan_id', 'created_at']).execute();
  await db.schema.createIndex('settlement_quotes_repayment_uq').unique().on('settlement_quotes').column('repayment_id').where(sql.ref('repayment_id'), 'is not', null).execute();
}
