import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Pushed credit decisions. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('preapprovals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('borrower_id', 'text', (c) => c.notNull().references('borrowers.id'))
    .addColumn('assessment_id', 'text', (c) => c.notNull())
    .addColumn('client_reference', 'text')
    .addColumn('recommendation', 'text', (c) => c.notNull())
    .addColumn('approved_amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('interest_rate_bps', 'integer')
    .addColumn('tenor_days', 'integer')
    .addColumn('repayment_frequency', 'text')
    .addColumn('confidence', 'text')
    .addColumn('risk_band', 'text')
    .addColumn('trust_score', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp)
    .addColumn('loan_id', 'text')
    .addColumn('provider_org_id', 'text')
    .addColumn('nin', 'text')
    .addColumn('decision_payload', t.json, (c) => c.notNull())
    .addColumn('enriched_payload', t.json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('preapprovals_assessment_uq', ['organisation_id', 'mode', 'assessment_id'])
    .execute();
  await db.schema
    .createIndex('preapprovals_list_idx')
    .on('preapprovals')
    .columns(['organisation_id', 'mode', 'created_at'])
    .execute();
  await db.schema.createIndex('preapprovals_expiry_idx').on('preapprovals').columns(['status', 'expires_at']).execute();
}
