import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * What the soak benchmark found: a list's first page must not depend on the planner's statistics. On a table PostgreSQL
 * has never analysed (a fresh deployment, autovacuum off) every index that starts with `(organisation_id, mode)`
 * looks like one row for the organisation, so the cheapest-looking one wins: `GET /v1/loans?limit=20` was planned on
 * the client-reference index (small while references are mostly empty) and sorted all the organisation's loans for
 * the first 20. Now only the indexes that serve a list's order (`…_list_idx`, `…_keyset_idx` and the per-filter list
 * indexes) start with `(organisation_id, mode)`; the lookup indexes lead with the value looked up, which serves the
 * same lookups (equality on every column) and no list:
 *
 * - `loans_client_reference_idx`, `preapprovals_client_reference_idx`: `(client_reference, organisation_id, mode)`;
 * - `preapprovals_assessment_uq`, `financing_applications_client_ref_uq` (unique constraints; PostgreSQL only —
 *   SQLite cannot drop a table's constraint, and its planner prefers the index that serves ORDER BY without
 *   statistics anyway): the looked-up column first; `ON CONFLICT (organisation_id, mode, assessment_id)` names a set
 *   of columns, so it still finds the constraint;
 * - `appointments_org_start_idx (organisation_id, mode, start_time)` is dropped: `appointments_keyset_idx`
 *   `(organisation_id, mode, start_time, id)` serves every query it served, and ties with it otherwise.
 *
 * Test: `test/postgres/list-reads.test.ts` (every list page's plan, generic, on never-analysed tables of growing size).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  for (const table of ['loans', 'preapprovals']) {
    await db.schema.dropIndex(`${table}_client_reference_idx`).execute();
    await db.schema.createIndex(`${table}_client_reference_idx`).on(table).columns(['client_reference', 'organisation_id', 'mode']).execute();
  }
  await db.schema.dropIndex('appointments_org_start_idx').execute();
  if (t.timestamp !== 'timestamptz') return;
  await sql`alter table preapprovals drop constraint preapprovals_assessment_uq, add constraint preapprovals_assessment_uq unique (assessment_id, organisation_id, mode)`.execute(db);
  await sql`alter table financing_applications drop constraint financing_applications_client_ref_uq, add constraint financing_applications_client_ref_uq unique (client_reference, organisation_id, mode)`.execute(db);
}
