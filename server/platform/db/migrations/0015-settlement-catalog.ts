import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The checkout's settlement catalog: for `merchant_wallet` products with `settlementCatalogEnabled`,
 * the borrower picks the merchant (a provider of the directory) that receives the funds. The choice
 * is recorded on the loan, and disbursement credits that merchant's wallet.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loans').addColumn('settlement_provider_id', 'text', (c) => c.references('providers.id')).execute();
  await db.schema.alterTable('loans').addColumn('settlement_provider_chosen_at', t.timestamp).execute();
}
