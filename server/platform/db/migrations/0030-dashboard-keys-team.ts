import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * API keys and team pages of the organisation dashboard:
 * - `api_keys.expires_at`: a scheduled end, set when a key is rolled with an overlap; the authenticator refuses the
 *   key from that instant on, in every process (it compares with its clock on every call, cached or not);
 * - `api_keys.last_used_at`: when the key last authenticated a request, written at most once a minute per key per
 *   process, after the answer (never on the request's path);
 * - `api_keys.rolled_to`: the id of the key that replaced it when rolled (null otherwise);
 * - `dashboard_invitations`: an invitation by e-mail with a role; `token_hash` is the SHA-256 of the link's one-time
 *   token (the token itself is only in the e-mail); accepted, revoked or expired ones stay for the record.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('expires_at', t.timestamp).execute();
  await db.schema.alterTable('api_keys').addColumn('last_used_at', t.timestamp).execute();
  await db.schema.alterTable('api_keys').addColumn('rolled_to', 'text').execute();
  await db.schema.createIndex('api_keys_org_mode_created_idx').on('api_keys').columns(['organisation_id', 'mode', 'created_at', 'id']).execute();

  await db.schema
    .createTable('dashboard_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_invitations_org_idx').on('dashboard_invitations').columns(['organisation_id', 'created_at', 'id']).execute();
}
