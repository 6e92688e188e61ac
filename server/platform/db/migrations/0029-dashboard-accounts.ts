import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The organisation dashboard's accounts and sessions:
 * - `dashboard_users`: a person who signs in to the dashboard; `email` is stored normalised (trimmed, lower case),
 *   so its unique index is case-insensitive on both databases; `password_hash` is an argon2id PHC string (null until
 *   the user sets one, e.g. the sandbox owner before following the set-password link);
 * - `dashboard_memberships`: user ↔ organisation with a role (owner | admin | developer | analyst);
 * - `dashboard_sessions`: server-side sessions; `id` is the SHA-256 of the cookie's random token (a database read
 *   never yields a usable cookie); idle timeout from `last_seen_at`, absolute expiry in `expires_at`;
 * - `dashboard_email_tokens`: one-time links (verify e-mail, reset password); only the hash is stored;
 * - `dashboard_login_failures`: one row per wrong password or unknown e-mail, by normalised e-mail and by IP; the
 *   lockout is a count over a time window (nothing to reset, old rows age out);
 * - `dashboard_audit_log`: append-only (no code path updates or deletes it): who, organisation, action, target, IP,
 *   user agent, when.
 * - `organisations.live_enabled`: whether the organisation's live keys work. Existing organisations keep working
 *   (default true); self-serve sign-up creates organisations with false until an operator runs `admin org enable-live`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const yes = t.bool === 'boolean' ? sql`true` : sql`1`;
  await db.schema
    .alterTable('organisations')
    .addColumn('live_enabled', t.bool, (c) => c.notNull().defaultTo(yes))
    .execute();

  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('email_verified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dashboard_memberships')
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_memberships_pk', ['user_id', 'organisation_id'])
    .execute();
  await db.schema.createIndex('dashboard_memberships_org_idx').on('dashboard_memberships').columns(['organisation_id']).execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('dashboard_sessions_user_idx').on('dashboard_sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('dashboard_email_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_email_tokens_user_idx').on('dashboard_email_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('dashboard_login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_login_failures_email_idx').on('dashboard_login_failures').columns(['email', 'at']).execute();
  await db.schema.createIndex('dashboard_login_failures_ip_idx').on('dashboard_login_failures').columns(['ip', 'at']).execute();

  await db.schema
    .createTable('dashboard_audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('organisation_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_audit_log_org_idx').on('dashboard_audit_log').columns(['organisation_id', 'at']).execute();
}
