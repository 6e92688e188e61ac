import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Embedding the checkout: per organisation and mode, the origins allowed to embed it and to
 * receive its events by `postMessage`, and the return URL the hosted page sends the borrower back
 * to with the outcome. One row per organisation and mode, written by `PATCH /v1/checkout-settings`.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('checkout_settings')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('allowed_origins', t.json, (c) => c.notNull())
    .addColumn('return_url', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('checkout_settings_pk', ['organisation_id', 'mode'])
    .execute();
}
