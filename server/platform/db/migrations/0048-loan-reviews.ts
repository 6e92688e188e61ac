import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Reviews: a loan that must wait for a person (no AML screen, a screen hit, …) has one open review at a time, which a
 * person clears (the loan moves on as an automatic pass would have) or rejects (the loan is rejected).
 * - `decided_by`: who may decide it — `partner` (the lender of its own loans) or `service` (the service's staff, for
 *   the loans the service lends);
 * - `opened_reason`, `evidence` (JSON: the screen's verdict and detail, the attestation it came with, …) and
 *   `resume_with` (what clearing does: `issue_offer`, or `attested` for a separate attestation);
 * - `status` `open|closed`, `closed_reason` `cleared|rejected|cancelled`, `closed_by` (the credential or person),
 *   `note` (the decision's reason).
 * One open review per loan (a partial unique index); the queue is read newest first per organisation and mode.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('loan_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('decided_by', 'text', (c) => c.notNull())
    .addColumn('opened_reason', 'text', (c) => c.notNull())
    .addColumn('evidence', t.json, (c) => c.notNull())
    .addColumn('resume_with', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('closed_reason', 'text')
    .addColumn('closed_by', 'text')
    .addColumn('note', 'text')
    .addColumn('opened_at', t.timestamp, (c) => c.notNull())
    .addColumn('closed_at', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loan_reviews_queue_idx').on('loan_reviews').columns(['organisation_id', 'mode', 'decided_by', 'status', 'opened_at', 'id']).execute();
  await db.schema.createIndex('loan_reviews_list_idx').on('loan_reviews').columns(['organisation_id', 'mode', 'decided_by', 'opened_at', 'id']).execute();
  await db.schema.createIndex('loan_reviews_loan_idx').on('loan_reviews').columns(['loan_id', 'opened_at']).execute();
  await db.schema.createIndex('loan_reviews_one_open_uq').unique().on('loan_reviews').column('loan_id').where(sql.ref('status'), '=', 'open').execute();
}
