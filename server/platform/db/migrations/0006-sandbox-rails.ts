import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * State of the sandbox rail provider (server/integrations/rails/): mandate authorisations and
 * charges, per rail. The provider is "another company": nothing here references platform tables.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sandbox_rail_authorisations')
    .addColumn('provider_reference', 'text', (c) => c.primaryKey())
    .addColumn('rail', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('account_number_masked', 'text')
    .addColumn('bank_code', 'text')
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('authorization_code', 'text', (c) => c.unique())
    .addColumn('approved_at', t.timestamp)
    .addColumn('confirmed_at', t.timestamp)
    .addColumn('refused_at', t.timestamp)
    .addColumn('cancelled_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('sandbox_rail_authorisations_reference_uq', ['rail', 'reference'])
    .execute();
  await db.schema
    .createTable('sandbox_rail_charges')
    .addColumn('charge_reference', 'text', (c) => c.primaryKey())
    .addColumn('rail', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('provider_reference', 'text', (c) => c.notNull().references('sandbox_rail_authorisations.provider_reference'))
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('completed_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('sandbox_rail_charges_reference_uq', ['rail', 'reference'])
    .execute();
}
