import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Webhook endpoints; signing secrets sealed under the master key. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('events', t.json)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('consecutive_fails', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', t.timestamp)
    .addColumn('last_success_at', t.timestamp)
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_org_idx').on('webhook_endpoints').columns(['organisation_id', 'mode']).execute();
}
