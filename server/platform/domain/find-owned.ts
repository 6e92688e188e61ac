import type { Kysely } from 'kysely';
import type { Executor } from '../db/database';
import type { Database, Mode } from '../db/schema';
import { notFound } from './errors';

type Owned = { id: string; organisationId: string; mode: Mode };
/** The tables whose rows belong to one organisation and mode. */
export type OwnedTable = { [T in keyof Database]: Database[T] extends Owned ? T : never }[keyof Database];

/**
 * Whether a row read by its id belongs to the caller's organisation and mode.
 *
 * Rows are read by primary key alone and their owner checked here, rather than with `organisation_id` and `mode` in
 * the WHERE clause: PostgreSQL's planner, on a table it has no statistics for yet (never analysed: a fresh
 * deployment, or autovacuum off), costs every index starting with (organisation_id, mode) the same as the primary
 * key and may pick one of them, reading every row of the organisation to find one (measured: 1,200 rows read per
 * lookup, 1–2 ms, growing with the table). A lookup by primary key alone has one index to use.
 */
export function ownedBy<R extends { organisationId: string; mode: string }>(row: R | undefined, scope: { organisationId: string; mode: Mode }): R | undefined {
  return row && row.organisationId === scope.organisationId && row.mode === scope.mode ? row : undefined;
}

/**
 * One row by id, only within the caller's organisation and mode (tenancy comes from the
 * credential); anything else — another tenant's id, the other mode's, an unknown one — is the
 * same 404 `NOT_FOUND` ("<what> not found"), so ids never leak across tenants. Read by primary key, owner checked
 * after (`ownedBy`).
 */
export async function findOwned<T extends OwnedTable>(
  db: Executor,
  table: T,
  scope: { organisationId: string; mode: Mode },
  id: string,
  what: string,
): Promise<Database[T]> {
  // Kysely cannot narrow a table-name type parameter; the mapped type above guarantees the columns.
  const row = await (db as unknown as Kysely<Record<string, Owned>>)
    .selectFrom(table as string)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!ownedBy(row, scope)) throw notFound(what);
  return row as unknown as Database[T];
}
