import type { Executor } from '../../db/database';
import type { Mode } from '../../db/schema';
import { newId } from '../ids';
import { toBorrower, type Borrower } from './borrower';

export interface FindOrCreateBorrowerOptions {
  organisationId: string;
  mode: Mode;
  /** Keyed hash of the BVN; the raw BVN never reaches this function's callers' storage. */
  bvnHash: string;
  details: { firstName: string; lastName: string; phone: string; email?: string | null };
  clientReference: string | null;
  nin: string | null;
  now: Date;
}

/**
 * The organisation's borrower with this BVN, created on first sight. An existing borrower keeps the
 * details it was created with (a push is not a profile update); a NIN it lacked is recorded.
 * Safe under concurrent pushes: the unique index on the BVN hash decides who creates.
 */
export async function findOrCreateBorrower(db: Executor, options: FindOrCreateBorrowerOptions): Promise<Borrower> {
  const find = () =>
    db
      .selectFrom('borrowers')
      .selectAll()
      .where('organisationId', '=', options.organisationId)
      .where('mode', '=', options.mode)
      .where('bvnHash', '=', options.bvnHash)
      .executeTakeFirst();
  const existing = await find();
  if (existing) {
    if (!existing.nin && options.nin) {
      await db.updateTable('borrowers').set({ nin: options.nin }).where('id', '=', existing.id).execute();
    }
    return toBorrower(existing);
  }
  const at = options.now.toISOString();
  await db
    .insertInto('borrowers')
    .values({
      id: newId(),
      organisationId: options.organisationId,
      mode: options.mode,
      clientReference: options.clientReference,
      firstName: options.details.firstName,
      lastName: options.details.lastName,
      phone: options.details.phone,
      email: options.details.email ?? null,
      bvnHash: options.bvnHash,
      nin: options.nin,
      identityStatus: 'unclaimed',
      linkedAt: null,
      userId: null,
      createdAt: at,
      updatedAt: at,
    })
    .onConflict((oc) => oc.columns(['organisationId', 'mode', 'bvnHash']).where('bvnHash', 'is not', null).doNothing())
    .execute();
  return toBorrower((await find())!);
}
