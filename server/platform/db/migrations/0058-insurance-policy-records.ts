import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Insurance bound by hand: a live policy starts `pending` and a staff member records what the insurer issued
 * (`domain/ops/insurance-policies.ts`).
 * - `loan_insurance_policies.document_key` (where the policy document, a PDF, is in file storage),
 *   `document_bytes`, `document_sha256` (hex: what was approved is what is stored), `activated_at` (when the policy
 *   became `active`); the insurer's policy number is the existing `policy_reference`.
 * - The console's queue of policies to record reads pending policies oldest first: a partial index on
 *   `(created_at, id)` holds only those.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loan_insurance_policies').addColumn('document_key', 'text').execute();
  await db.schema.alterTable('loan_insurance_policies').addColumn('document_bytes', 'integer').execute();
  await db.schema.alterTable('loan_insurance_policies').addColumn('document_sha256', 'text').execute();
  await db.schema.alterTable('loan_insurance_policies').addColumn('activated_at', t.timestamp).execute();
  await db.schema
    .createIndex('loan_insurance_policies_pending_idx')
    .on('loan_insurance_policies')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}
