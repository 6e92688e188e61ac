import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The service's own staff, who run the operations console (`/ops`), apart from partner dashboard accounts (a person
 * may be both, under two separate accounts):
 * - `staff_accounts`: e-mail (normalised, unique), role (`compliance` | `finance` | `support` | `admin`), argon2id
 *   `password_hash` (null until the invitation is accepted), `require_passkey` (a passkey after the password; the
 *   production profile asks it of everyone whatever this says), `disabled_at`;
 * - `staff_invitations`: one-time links made by `admin staff invite` (only the token's SHA-256 is stored);
 * - `staff_sessions`: server-side sessions, same rules and columns as `dashboard_sessions` but no organisation;
 * - `staff_passkeys`: WebAuthn credentials, same columns as `dashboard_passkeys` (`user_id` names the staff account),
 *   so the one access module (`domain/access`) serves both; challenges share `dashboard_webauthn_challenges` under
 *   `staff_…` purposes, sign-in failures share `dashboard_login_failures` under `staff:`-prefixed keys;
 * - `staff_audit_log`: append-only, who (staff account), action, target, IP, user agent, when.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const no = t.bool === 'boolean' ? sql`false` : sql`0`;
  await db.schema
    .createTable('staff_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('email_verified_at', t.timestamp)
    .addColumn('require_passkey', t.bool, (c) => c.notNull().defaultTo(no))
    .addColumn('invited_by', 'text')
    .addColumn('disabled_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('accepted_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_invitations_email_idx').on('staff_invitations').columns(['email', 'created_at']).execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('staff_accounts.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('passkey_verified_at', t.timestamp)
    .execute();
  await db.schema.createIndex('staff_sessions_user_idx').on('staff_sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('staff_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('staff_accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', t.bigint, (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('rp_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .execute();
  await db.schema.createIndex('staff_passkeys_user_idx').on('staff_passkeys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('staff_audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_audit_log_at_idx').on('staff_audit_log').columns(['at', 'id']).execute();
}
