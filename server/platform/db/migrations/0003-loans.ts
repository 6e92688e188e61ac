import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Loans, frozen pricing, schedules, KYC evidence, consents, offer letters, insurance. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('loans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('borrower_id', 'text', (c) => c.notNull().references('borrowers.id'))
    .addColumn('loan_product_id', 'text', (c) => c.notNull().references('loan_products.id'))
    .addColumn('preapproval_id', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approval_mode', 'text', (c) => c.notNull())
    .addColumn('kyc_tier', 'text', (c) => c.notNull())
    .addColumn('settlement_destination', 'text', (c) => c.notNull())
    .addColumn('capital_pool_code', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('tenor_days', 'integer', (c) => c.notNull())
    .addColumn('repayment_frequency', 'text', (c) => c.notNull())
    .addColumn('interest_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('amount_requested_kobo', t.bigint, (c) => c.notNull())
    .addColumn('principal_kobo', t.bigint, (c) => c.notNull())
    .addColumn('principal_balance_kobo', t.bigint, (c) => c.notNull())
    .addColumn('amount_paid_kobo', t.bigint, (c) => c.notNull())
    .addColumn('outstanding_kobo', t.bigint, (c) => c.notNull())
    .addColumn('disbursed_amount_kobo', t.bigint)
    .addColumn('disbursed_at', t.timestamp)
    .addColumn('disbursement_reference', 'text')
    .addColumn('approved_at', t.timestamp)
    .addColumn('approval_notes', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('terms_accepted_at', t.timestamp)
    .addColumn('offer_letter_issued_at', t.timestamp)
    .addColumn('pricing_snapshot_id', 'text')
    .addColumn('document_reference', 'text')
    .addColumn('offer_version', 'integer', (c) => c.notNull())
    .addColumn('active_mandate_id', 'text')
    .addColumn('has_active_mandate', t.bool, (c) => c.notNull())
    .addColumn('application_url', 'text')
    .addColumn('client_reference', 'text')
    .addColumn('metadata', t.json)
    .addColumn('cancelled_by', 'text')
    .addColumn('cancellation_reason', 'text')
    .addColumn('cancelled_at', t.timestamp)
    .addColumn('decline_reason', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loans_list_idx').on('loans').columns(['organisation_id', 'mode', 'created_at']).execute();

  await db.schema
    .createTable('pricing_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('document_reference', 'text', (c) => c.notNull().unique())
    .addColumn('pricing', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('loan_schedule_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('installment_number', 'integer', (c) => c.notNull())
    .addColumn('due_date', t.timestamp, (c) => c.notNull())
    .addColumn('principal_kobo', t.bigint, (c) => c.notNull())
    .addColumn('interest_kobo', t.bigint, (c) => c.notNull())
    .addColumn('fee_kobo', t.bigint, (c) => c.notNull())
    .addColumn('total_kobo', t.bigint, (c) => c.notNull())
    .addColumn('amount_paid_kobo', t.bigint, (c) => c.notNull())
    .addColumn('paid_at', t.timestamp)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('loan_schedule_items_uq', ['loan_id', 'installment_number'])
    .execute();

  await db.schema
    .createTable('kyc_attestations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('borrower_id', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text')
    .addColumn('attested_at', t.timestamp, (c) => c.notNull())
    .addColumn('attested_by_key', 'text', (c) => c.notNull())
    .addColumn('attested_checks', t.json, (c) => c.notNull())
    .addColumn('schema_version', 'integer', (c) => c.notNull())
    .addColumn('aml_screen_status', 'text', (c) => c.notNull())
    .addColumn('aml_screen_detail', 'text')
    .addColumn('aml_screened_at', t.timestamp)
    .addColumn('sampled_for_audit', t.bool, (c) => c.notNull())
    .addColumn('audit_outcome', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kyc_attestations_loan_idx').on('kyc_attestations').column('loan_id').execute();

  await db.schema
    .createTable('kyc_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('bvn_hash', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('documents', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kyc_submissions_loan_idx').on('kyc_submissions').column('loan_id').execute();

  await db.schema
    .createTable('loan_consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('signature_full_name', 'text', (c) => c.notNull())
    .addColumn('signature_email', 'text')
    .addColumn('ip_address', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('signed_at', t.timestamp, (c) => c.notNull())
    .addColumn('document_reference', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('recorded_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loan_consents_loan_idx').on('loan_consents').column('loan_id').execute();

  await db.schema
    .createTable('offer_letters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('document_reference', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('pdf', t.blob, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('offer_letters_uq', ['loan_id', 'document_reference', 'variant'])
    .execute();

  await db.schema
    .createTable('loan_insurance_policies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().unique().references('loans.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('triggered_by', 'text', (c) => c.notNull())
    .addColumn('premium_bearer', 'text', (c) => c.notNull())
    .addColumn('premium_kobo', t.bigint, (c) => c.notNull())
    .addColumn('commission_kobo', t.bigint, (c) => c.notNull())
    .addColumn('policy_reference', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
