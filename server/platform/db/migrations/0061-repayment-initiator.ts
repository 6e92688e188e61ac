import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Who started each repayment: `loan_repayments.initiated_by`, not null.
 * - `schedule`: the collector's direct debit of what fell due;
 * - `borrower`: the borrower on their loan page (pay now, pay off);
 * - `partner`: the partner through the API (`POST /v1/loans/{id}/repayments`, any method).
 * Existing rows: a mandate charge that paid a settlement quote was the borrower's; every other mandate charge reads
 * `schedule` (the borrower's earlier pay-now payments and the partner's own mandate charges left nothing that tells
 * them apart from a scheduled debit; one still pending when this runs is completed later without a receipt text);
 * every other method was recorded by the partner. The default only fills the
 * existing rows: every writer names who started the row.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loan_repayments').addColumn('initiated_by', 'text', (c) => c.notNull().defaultTo('partner')).execute();
  await sql`update loan_repayments set initiated_by = 'schedule' where method = 'mandate'`.execute(db);
  await sql`update loan_repayments set initiated_by = 'borrower' where method = 'mandate' and id in (select repayment_id from settlement_quotes where repayment_id is not null)`.execute(db);
}
