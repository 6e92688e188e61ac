import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Passkeys (WebAuthn) for the checkout, all kept by the platform (never in a checkout server's memory):
 * - `user_passkeys`: a platform user's credentials (public key, id, counter, transports), per relying party;
 * - `passkey_challenges`: one-time challenges the platform issues to a checkout session, for
 *   registering a passkey or for signing one offer (single use, short-lived, consumed by a
 *   conditional UPDATE);
 * - `loan_consent_passkeys`: the assertion that signed an acceptance, stored raw with the inputs of
 *   its challenge and the verification result, so anyone can verify it again later.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('user_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', t.bigint, (c) => c.notNull())
    .addColumn('transports', t.json)
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', t.bool, (c) => c.notNull())
    .addColumn('aaguid', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('registered_by', 'text', (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_passkeys_user_idx').on('user_passkeys').columns(['user_id', 'rp_id']).execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('checkout_sessions.id'))
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull().unique())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('document_reference', 'text')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('consumed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_session_idx').on('passkey_challenges').columns(['session_id', 'created_at']).execute();

  await db.schema
    .createTable('loan_consent_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('consent_id', 'text', (c) => c.notNull().unique().references('loan_consents.id'))
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('passkey_id', 'text', (c) => c.notNull().references('user_passkeys.id'))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('challenge_version', 'text', (c) => c.notNull())
    .addColumn('document_reference', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('client_data_json', 'text', (c) => c.notNull())
    .addColumn('authenticator_data', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('user_handle', 'text')
    .addColumn('sign_count', t.bigint, (c) => c.notNull())
    .addColumn('user_verified', t.bool, (c) => c.notNull())
    .addColumn('verified', t.bool, (c) => c.notNull())
    .addColumn('verified_with', 'text', (c) => c.notNull())
    .addColumn('verified_at', t.timestamp, (c) => c.notNull())
    .execute();
}
