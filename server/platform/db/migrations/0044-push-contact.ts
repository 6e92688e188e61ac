import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * What a push said about the borrower when the BVN was known already:
 * - `preapprovals.contact_phone`: the phone this push gave, when it differs from the borrower's phone on record; the
 *   checkout of this pre-approval's loan texts its codes and links there, and once the borrower verifies a code on
 *   it, it becomes the phone on record (and this column is cleared);
 * - `preapprovals.borrower_match`: the push answer's `borrowerMatch` (JSON), kept so a replay answers the same.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('preapprovals').addColumn('contact_phone', 'text').execute();
  await db.schema.alterTable('preapprovals').addColumn('borrower_match', t.json).execute();
}
