import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The per-attempt webhook log the dashboard shows: one row per recorded attempt of a delivery, with the
 * request as it was sent (event, body — the patient-financing application URL redacted —, the signature headers) and
 * what came back (status, a bounded excerpt of the response body, duration, error). Written by `recordAttempts` in the
 * transaction that records the attempt on its delivery. `webhook_deliveries` keeps only the latest outcome.
 * Also an index for a delivery log per endpoint, newest first.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // Null when nothing was sent (the endpoint was deleted or disabled, or the envelope could not sign).
    .addColumn('request_body', 'text')
    .addColumn('request_headers', t.json)
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('succeeded', t.bool, (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_delivery_attempts_delivery_idx').on('webhook_delivery_attempts').columns(['delivery_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_log_idx').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
}
