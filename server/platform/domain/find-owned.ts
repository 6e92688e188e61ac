import type { Kysely } from 'kysely';
import type { Executor } from '../db/database';
import type { Database, Mode } from '../db/schema';
import { notFound } from './errors';

type Owned = { id: string; organisationId: string; mode: Mode };
/** The tables whose rows belong to one organisation and mode. */
export type OwnedTable = { [T in keyof Database]: Database[T] extends Owned ? T : never }[keyof Database];

/**
 * One row by id, only within the caller's organisation and mode (tenancy comes from the
 * credential); anything else — another tenant's id, the other mode's, an unknown one — is the
 * same 404 `NOT_FOUND` ("<what> not found"), so ids never leak across tenants.
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
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
  if (!row) throw notFound(what);
  return row as unknown as Database[T];
}
