import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Borrower sessions: the borrower's own credential for their loans with one lender, after checkout.
 * - `borrower_sessions`: one lender (`organisation_id`, `mode`) and one phone (normalised, +234…); `source` `partner`
 *   (minted by the partner's backend for `loan_id`) or `sign_in` (phone + one-time code). Only the keyed hash of the
 *   token is stored; `expires_at` slides up to `max_expires_at`; `revoked_at` withdraws it.
 * - `borrower_sign_in_codes`: one-time codes texted for a sign-in (keyed hash only), per mode and phone, optionally for
 *   one lender; the checkout's OTP rules (lifetime, attempts, hourly limit per phone) apply.
 * - `borrower_sign_in_phones`: the last code sent per mode and phone: the resend cool-down is one conditional upsert.
 * - `borrowers_phone_idx`: a session finds the borrowers of its phone (per lender and mode, or across lenders at sign-in).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('borrower_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.references('loans.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('max_expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('borrower_sessions_owner_idx').on('borrower_sessions').columns(['organisation_id', 'mode', 'created_at']).execute();

  await db.schema
    .createTable('borrower_sign_in_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    // No foreign key: the lender named at sign-in is the caller's word, and an unknown one must answer like any other.
    .addColumn('organisation_id', 'text')
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('verified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('borrower_sign_in_codes_phone_idx').on('borrower_sign_in_codes').columns(['mode', 'phone', 'created_at']).execute();

  await db.schema
    .createTable('borrower_sign_in_phones')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('last_sent_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('borrower_sign_in_phones_pk', ['mode', 'phone'])
    .execute();

  await db.schema.createIndex('borrowers_phone_idx').on('borrowers').columns(['phone', 'mode', 'organisation_id']).execute();
}
