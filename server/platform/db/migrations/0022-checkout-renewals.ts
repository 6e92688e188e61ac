import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * "Text me a new link" from an expired checkout page: per loan, the UTC day of the current count,
 * how many new links were texted that day and when the last one went. One conditional upsert takes
 * a slot (at most one per 10 minutes, three a day), so the limits hold across processes.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('checkout_renewals')
    .addColumn('loan_id', 'text', (c) => c.primaryKey().references('loans.id'))
    .addColumn('day_start', t.timestamp, (c) => c.notNull())
    .addColumn('renew_count', 'integer', (c) => c.notNull())
    .addColumn('last_renewed_at', t.timestamp, (c) => c.notNull())
    .execute();
}
