import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Patient financing (the `/api/v1/sdk` API, the service as lender):
 * - `financing_applications`: one per initiation, keyed by the loan it created (`sdkReference` = loan id), unique per
 *   organisation, mode and the partner's `clientReference`; the request's fingerprint decides replay (same body) from
 *   conflict (another body). The identity, bureau and decision steps of the hosted application are recorded here;
 *   the BVN only as a keyed hash.
 * - `events.api` / `webhook_endpoints.api`: which API an event belongs to and which envelope an endpoint receives
 *   (`lending`: the lending API's envelope signed with the endpoint secret; `sdk`: `{event, timestamp, data}` signed
 *   with the organisation's API secret key). Fan-out matches them.
 * - `api_keys.secret_sealed`: the secret key encrypted under the master key, so the service can sign `sdk` webhooks
 *   with it (keys made before this migration have none: such an organisation rotates its key pair to receive them).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('financing_applications')
    .addColumn('id', 'text', (c) => c.primaryKey().references('loans.id'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('client_reference', 'text', (c) => c.notNull())
    .addColumn('request_fingerprint', 'text', (c) => c.notNull())
    .addColumn('invoice_reference', 'text')
    .addColumn('treatment', 'text', (c) => c.notNull())
    .addColumn('treatment_amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('full_name', 'text')
    .addColumn('date_of_birth', 'text')
    .addColumn('bvn_hash', 'text')
    .addColumn('declared_monthly_income_kobo', t.bigint)
    .addColumn('identity_outcome', 'text')
    .addColumn('bureau_outcome', 'text')
    .addColumn('risk_band', 'text')
    .addColumn('decision', t.json)
    .addColumn('rejection_reason', 'text')
    .addColumn('submitted_at', t.timestamp)
    .addColumn('decided_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('financing_applications_client_ref_uq', ['organisation_id', 'mode', 'client_reference'])
    .execute();
  await db.schema.createIndex('financing_applications_expiry_idx').on('financing_applications').columns(['status', 'expires_at']).execute();

  await db.schema.alterTable('events').addColumn('api', 'text', (c) => c.notNull().defaultTo('lending')).execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('api', 'text', (c) => c.notNull().defaultTo('lending')).execute();
  await db.schema.alterTable('api_keys').addColumn('secret_sealed', 'text').execute();
}
