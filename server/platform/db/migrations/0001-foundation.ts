import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Organisations, keys, idempotency, usage, products, borrowers, providers, ledger, outbox. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('loan_tenant', t.bool, (c) => c.notNull())
    .addColumn('preapproved_lending', t.bool, (c) => c.notNull())
    .addColumn('preapprovals_enabled', t.bool, (c) => c.notNull())
    .addColumn('auto_issue_offers', t.bool, (c) => c.notNull())
    .addColumn('preapproval_ttl_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_interest_rate_bps', 'integer')
    .addColumn('default_preapproval_product_id', 'text')
    .addColumn('disabled', t.bool, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('secret_last4', 'text', (c) => c.notNull())
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_org_idx').on('api_keys').column('organisation_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('locked_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_key_uq', ['api_key_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('api_usage_daily')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('request_count', t.bigint, (c) => c.notNull())
    .addColumn('error_count', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('api_usage_daily_pk', ['organisation_id', 'mode', 'day'])
    .execute();

  await db.schema
    .createTable('loan_products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('is_active', t.bool, (c) => c.notNull())
    .addColumn('kyc_tier', 'text', (c) => c.notNull())
    .addColumn('approval_mode', 'text', (c) => c.notNull())
    .addColumn('interest_model', 'text', (c) => c.notNull())
    .addColumn('interest_rate_bps', 'integer', (c) => c.notNull())
    .addColumn('late_fee_bps', 'integer', (c) => c.notNull())
    .addColumn('processing_fee_bps', 'integer', (c) => c.notNull())
    .addColumn('processing_fee_flat_kobo', t.bigint, (c) => c.notNull())
    .addColumn('min_amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('max_amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('min_tenor_days', 'integer', (c) => c.notNull())
    .addColumn('max_tenor_days', 'integer', (c) => c.notNull())
    .addColumn('repayment_frequency', 'text')
    .addColumn('insurance_mode', 'text', (c) => c.notNull())
    .addColumn('insurance_premium_bearer', 'text', (c) => c.notNull())
    .addColumn('insurance_premium_bps', 'integer', (c) => c.notNull())
    .addColumn('settlement_destination', 'text', (c) => c.notNull())
    .addColumn('settlement_catalog_enabled', t.bool, (c) => c.notNull())
    .addColumn('capital_pool_code', 'text')
    .addColumn('recovery_enabled', t.bool, (c) => c.notNull())
    .addColumn('recovery_policy_id', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('loan_products_code_uq', ['organisation_id', 'code'])
    .execute();

  await db.schema
    .createTable('borrowers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('client_reference', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('bvn_hash', 'text')
    .addColumn('nin', 'text')
    .addColumn('identity_status', 'text', (c) => c.notNull())
    .addColumn('linked_at', t.timestamp)
    .addColumn('user_id', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // One borrower per BVN within an organisation and mode; borrowers without a BVN are not matched.
  await db.schema
    .createIndex('borrowers_bvn_uq')
    .on('borrowers')
    .columns(['organisation_id', 'mode', 'bvn_hash'])
    .unique()
    .where(sql.ref('bvn_hash'), 'is not', null)
    .execute();

  await db.schema
    .createTable('providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('provider_type', 'text', (c) => c.notNull())
    .addColumn('organisation_type', 'text', (c) => c.notNull())
    .addColumn('receives_drugs', t.bool, (c) => c.notNull())
    .addColumn('receives_tests', t.bool, (c) => c.notNull())
    .addColumn('is_active', t.bool, (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('local_government', 'text')
    .addColumn('country', 'text')
    .addColumn('organisation_logo_url', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('balance_kobo', t.bigint, (c) => c.notNull())
    .addColumn('allow_negative', t.bool, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('ledger_accounts_uq', ['organisation_id', 'mode', 'kind', 'code'])
    .execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ledger_postings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount_kobo', t.bigint, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_postings_account_idx').on('ledger_postings').column('account_id').execute();
  await db.schema.createIndex('ledger_postings_tx_idx').on('ledger_postings').column('transaction_id').execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_org_created_idx')
    .on('events')
    .columns(['organisation_id', 'mode', 'created_at'])
    .execute();

  await db.schema
    .createTable('platform_state')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', t.json, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
}
