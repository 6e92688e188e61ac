import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The dashboard's products, capital pool and settlements pages:
 * - `pool_funding_notices`: a live-mode funding request from the dashboard. The partner transfers `amount_kobo` to our
 *   bank account quoting `reference` (unique, generated here); an operator confirms it with
 *   `admin pool confirm-funding --reference REF`, which credits the pool in the same transaction as the notice moves
 *   from `pending` to `confirmed`. Test mode funds at once and writes no notice.
 * - keyset indexes for the pages' lists, newest first: a pool's ledger movements (postings of one account by
 *   `(created_at, id)`), settlement statements and funding notices per organisation and mode, products per organisation.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('pool_funding_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('pool_code', 'text', (c) => c.notNull())
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('confirmed_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('pool_funding_notices_org_idx')
    .on('pool_funding_notices')
    .columns(['organisation_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('ledger_postings_account_keyset_idx').on('ledger_postings').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('settlement_statements_keyset_idx')
    .on('settlement_statements')
    .columns(['organisation_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('loan_products_keyset_idx').on('loan_products').columns(['organisation_id', 'created_at', 'id']).execute();
}
