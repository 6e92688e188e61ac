import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Dashboard account gates:
 * - `dashboard_sessions.passkey_verified_at`: when a passkey was verified for this session (a passwordless passkey
 *   sign-in, or the passkey step after the password). A session of a user who asks a passkey after the password is
 *   valid only with it, whichever path opened the session;
 * - `dashboard_request_hits`: one row per counted unauthenticated account request (a password-reset request, a
 *   sign-up), by `bucket` (what was asked) and `key` (the e-mail or the address asking), for limits that hold across
 *   processes; rows older than the longest window are deleted as new ones come.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('dashboard_sessions').addColumn('passkey_verified_at', t.timestamp).execute();
  await db.schema
    .createTable('dashboard_request_hits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_request_hits_key_idx').on('dashboard_request_hits').columns(['bucket', 'key', 'at']).execute();
}
