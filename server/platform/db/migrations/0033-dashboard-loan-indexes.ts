import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Indexes for the dashboard's loans and pre-approvals lists (they must stay fast at 100,000+ loans per organisation).
 * Every list is keyset-paged newest first on `(created_at desc, id desc)`, so each index ends with those two columns
 * after the equality filters; a page is then a range read of `limit + 1` index entries, whatever the table holds:
 * - `loans_list_idx` is rebuilt with `id` last (the keyset's tie-break) in place of `(organisation_id, mode, created_at)`;
 * - `loans_status_list_idx`, `loans_product_list_idx`: the status filter and the product filter (both together read
 *   the status index and check the product on each entry);
 * - `loans_client_reference_idx`: search by the partner's reference (exact match; the loan id is the primary key);
 * - pre-approvals: the same three (list, status, client reference); the assessment id is already unique per tenant;
 * - `events_loan_idx`: a loan's timeline reads its events by the `loanId` every loan event's payload carries
 *   (an expression index: `json_extract` on SQLite, `->>` on jsonb; queries use the same expression).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await sql`drop index loans_list_idx`.execute(db);
  await sql`create index loans_list_idx on loans (organisation_id, mode, created_at, id)`.execute(db);
  await sql`create index loans_status_list_idx on loans (organisation_id, mode, status, created_at, id)`.execute(db);
  await sql`create index loans_product_list_idx on loans (organisation_id, mode, loan_product_id, created_at, id)`.execute(db);
  await sql`create index loans_client_reference_idx on loans (organisation_id, mode, client_reference)`.execute(db);

  await sql`drop index preapprovals_list_idx`.execute(db);
  await sql`create index preapprovals_list_idx on preapprovals (organisation_id, mode, created_at, id)`.execute(db);
  await sql`create index preapprovals_status_list_idx on preapprovals (organisation_id, mode, status, created_at, id)`.execute(db);
  await sql`create index preapprovals_client_reference_idx on preapprovals (organisation_id, mode, client_reference)`.execute(db);

  if (t.json === 'jsonb') await sql`create index events_loan_idx on events ((payload ->> 'loanId'))`.execute(db);
  else await sql`create index events_loan_idx on events (json_extract(payload, '$.loanId'))`.execute(db);
}
