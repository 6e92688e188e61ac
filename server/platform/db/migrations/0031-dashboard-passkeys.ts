import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Passkeys for dashboard users:
 * - `dashboard_passkeys`: one WebAuthn credential of a dashboard user; `id` is the credential id (base64url),
 *   `public_key` the COSE public key (base64url), `counter` the last signature counter seen, `transports` a JSON array,
 *   `rp_id` the relying party it was made for (the host of the public base URL);
 * - `dashboard_webauthn_challenges`: one-time challenges, stored server side by their SHA-256 (`id`), for one purpose
 *   (`registration` | `sign_in` | `second_factor`), bound to a user and/or to `binding` (the session id for a
 *   registration, the hash of the pending sign-in cookie for a second factor); used once (`used_at`), short-lived;
 * - `dashboard_users.require_passkey`: the user asks a passkey after the password ("two-step sign-in").
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const no = t.bool === 'boolean' ? sql`false` : sql`0`;
  await db.schema
    .alterTable('dashboard_users')
    .addColumn('require_passkey', t.bool, (c) => c.notNull().defaultTo(no))
    .execute();

  await db.schema
    .createTable('dashboard_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', t.bigint, (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute();
  await db.schema.createIndex('dashboard_passkeys_user_idx').on('dashboard_passkeys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('dashboard_webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('organisation_id', 'text')
    .addColumn('binding', 'text')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_webauthn_challenges_exp_idx').on('dashboard_webauthn_challenges').columns(['expires_at']).execute();
  await db.schema.createIndex('dashboard_webauthn_challenges_binding_idx').on('dashboard_webauthn_challenges').columns(['binding']).execute();
}
