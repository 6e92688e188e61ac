import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Webhook delivery: the outbox's fan-out marker, one delivery row per (event, endpoint), the
 * failure streak that auto-disables an endpoint, and where the organisation is e-mailed about it.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // Null until the dispatcher has written the event's deliveries. Events recorded before this
  // migration count as fanned out: endpoints registered now must not receive history.
  await db.schema.alterTable('events').addColumn('fanned_out_at', t.timestamp).execute();
  await sql`update events set fanned_out_at = created_at`.execute(db);
  await sql`create index events_fanout_idx on events (id) where fanned_out_at is null`.execute(db);

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    // No foreign key: deleting an endpoint keeps its delivery log (endpoint_id becomes null).
    .addColumn('endpoint_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    // While `delivering`, the lease expiry: a claim whose worker died is taken again after it.
    .addColumn('next_attempt_at', t.timestamp)
    .addColumn('delivered_at', t.timestamp)
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // The claim reads due rows in due order and stops at its limit: only unfinished rows are indexed.
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status in ('pending', 'failed', 'delivering')`.execute(db);
  await db.schema.createIndex('webhook_deliveries_org_idx').on('webhook_deliveries').columns(['organisation_id', 'mode', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'status']).execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id']).execute();

  await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', t.timestamp).execute();
  await db.schema.alterTable('organisations').addColumn('notification_email', 'text').execute();
}
