import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Ownership checks in the checkout: how the bank's name for the captured account compared with the
 * borrower's name on record (kept with the account on the session, with the time the borrower
 * confirmed a mismatching account as theirs), and how the typed signature compared (kept with the
 * consent evidence). Nullable: consents recorded before, and consents a partner records through
 * `accept-terms`, were not compared.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('account_name_match', 'text').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('account_name_match_score', 'integer').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('account_name_on_record', 'text').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('account_name_confirmed_at', t.timestamp).execute();
  await db.schema.alterTable('loan_consents').addColumn('signature_name_match', 'text').execute();
  await db.schema.alterTable('loan_consents').addColumn('signature_name_match_score', 'integer').execute();
  await db.schema.alterTable('loan_consents').addColumn('signature_name_on_record', 'text').execute();
  await db.schema.alterTable('loan_consents').addColumn('signature_name_confirmed', t.bool).execute();
}
