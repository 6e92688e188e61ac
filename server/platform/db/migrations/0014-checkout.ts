import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The hosted checkout:
 * - platform users (a borrower claimed by a verified OTP points at one, found or created by phone);
 * - checkout sessions (only a keyed hash of the token), with the bank details captured in them;
 *   the loan keeps the token of its auto-minted session sealed (`application_token_sealed`) so
 *   `applicationUrl` can be rebuilt on every read without storing a usable token in clear;
 * - OTP challenges (codes as keyed hashes) and per-phone send windows (the send limit, atomic
 *   across processes);
 * - the sandbox SMS inbox (test-mode messages only);
 * - guarantors: how many a product asks for, and each loan's guarantors (phone confirmed by OTP).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('users_mode_phone_uq', ['mode', 'phone'])
    .execute();

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('borrower_id', 'text', (c) => c.notNull().references('borrowers.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('max_expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('otp_verified_at', t.timestamp)
    .addColumn('otp_last_sent_at', t.timestamp)
    .addColumn('bank_code', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('account_number', 'text')
    .addColumn('account_name', 'text')
    .addColumn('bank_captured_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkout_sessions_loan_idx').on('checkout_sessions').columns(['loan_id', 'created_at']).execute();

  await db.schema.alterTable('loans').addColumn('application_token_sealed', 'text').execute();

  await db.schema.alterTable('loan_products').addColumn('guarantors_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('loan_guarantors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('relationship', 'text', (c) => c.notNull())
    .addColumn('verified_at', t.timestamp)
    .addColumn('otp_last_sent_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('loan_guarantors_loan_phone_uq', ['loan_id', 'phone'])
    .execute();

  await db.schema
    .createTable('otp_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('checkout_sessions.id'))
    .addColumn('guarantor_id', 'text', (c) => c.references('loan_guarantors.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('verified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('otp_challenges_session_idx').on('otp_challenges').columns(['session_id', 'created_at']).execute();

  await db.schema
    .createTable('otp_send_windows')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('window_start', t.timestamp, (c) => c.notNull())
    .addColumn('sent_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('otp_send_windows_pk', ['mode', 'phone', 'window_start'])
    .execute();

  await db.schema
    .createTable('sandbox_sms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_sms_phone_idx').on('sandbox_sms').columns(['phone', 'created_at']).execute();
}
