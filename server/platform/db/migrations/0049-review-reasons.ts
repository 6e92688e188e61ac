import type { Kysely } from 'kysely';

/**
 * What the reviews for KYC and names need:
 * - `kyc_submissions.nin_hash`: the keyed hash of the NIN a submission gave (null without one), so a person clearing a
 *   `kyc_undecided` review leaves on the borrower what a `verified` answer would have;
 * - `loan_products.name_mismatch_policy`: what a bank account in another name that the borrower confirmed as theirs
 *   does — `allow` (the default, as before: it is kept), `review` (the loan waits for a person, review `name_mismatch`)
 *   or `refuse` (409 `account_name_mismatch` even when confirmed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('kyc_submissions').addColumn('nin_hash', 'text').execute();
  await db.schema.alterTable('loan_products').addColumn('name_mismatch_policy', 'text', (c) => c.notNull().defaultTo('allow')).execute();
}
