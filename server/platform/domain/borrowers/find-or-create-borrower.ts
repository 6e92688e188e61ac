import type { Executor } from '../../db/database';
import { precompiled } from '../../db/precompiled';
import { BORROWER_COLUMNS } from '../../db/columns';
import type { BorrowersTable, Mode } from '../../db/schema';
import { newId } from '../ids';
import { newBorrowerRow, toBorrower, type Borrower } from './borrower';

export interface FindOrCreateBorrowerOptions {
  organisationId: string;
  mode: Mode;
  /** Keyed hash of the BVN; the raw BVN never reaches this function's callers' storage. */
  bvnHash: string;
  details: { firstName: string; lastName: string; phone: string; email?: string | null };
  clientReference: string | null;
  /** Keyed hash of the NIN (nin.ts), if one was given. */
  ninHash: string | null;
  now: Date;
}

/**
 * The organisation's borrower with this BVN, created on first sight. An existing borrower keeps the
 * details it was created with (a push is not a profile update); a NIN it lacked is recorded (as its keyed hash).
 * Safe under concurrent pushes: the unique index on the BVN hash decides who creates.
 */
export async function findOrCreateBorrower(db: Executor, options: FindOrCreateBorrowerOptions): Promise<Borrower> {
  const { rows } = await db.executeQuery(borrowerInsert(db, options));
  const { row, missingNin } = await borrowerAfterInsert(db, options, rows[0]);
  if (!missingNin) return toBorrower(row);
  await recordMissingNin(db, row.id, options.ninHash!);
  return toBorrower({ ...row, ninHash: options.ninHash });
}

/**
 * `findOrCreateBorrower`'s first statement: the insert comes first (one statement for a BVN not seen before, the
 * usual push); a BVN seen before conflicts and inserts nothing.
 */
export function borrowerInsert(db: Executor, options: FindOrCreateBorrowerOptions) {
  return insertBorrower.compiled(
    db,
    newBorrowerRow(options, options.details, { clientReference: options.clientReference, bvnHash: options.bvnHash, ninHash: options.ninHash, now: options.now }),
  );
}

/**
 * The borrower's row given the insert's: the new row, or the existing one read (also a concurrent creator's row), and
 * whether it lacks the NIN given (recorded by the caller with `recordMissingNin`, once it keeps this transaction's changes).
 */
export async function borrowerAfterInsert(
  db: Executor,
  options: FindOrCreateBorrowerOptions,
  inserted: BorrowersTable | undefined,
): Promise<{ row: BorrowersTable; missingNin: boolean }> {
  if (inserted) return { row: inserted, missingNin: false };
  const existing = (await selectByBvnHash(db, { organisationId: options.organisationId, mode: options.mode, bvnHash: options.bvnHash })).rows[0]!;
  return { row: existing, missingNin: !existing.ninHash && options.ninHash !== null };
}

/** Records the keyed hash of a NIN on a borrower that had none. */
export async function recordMissingNin(db: Executor, borrowerId: string, ninHash: string): Promise<void> {
  await db.updateTable('borrowers').set({ ninHash }).where('id', '=', borrowerId).where('ninHash', 'is', null).execute();
}

const selectByBvnHash = precompiled((db, a: { organisationId: string; mode: Mode; bvnHash: string }) =>
  db.selectFrom('borrowers').select(BORROWER_COLUMNS).where('organisationId', '=', a.organisationId).where('mode', '=', a.mode).where('bvnHash', '=', a.bvnHash),
);
const insertBorrower = precompiled((db, row: BorrowersTable) =>
  db
    .insertInto('borrowers')
    .values(row)
    .onConflict((oc) => oc.columns(['organisationId', 'mode', 'bvnHash']).where('bvnHash', 'is not', null).doNothing())
    .returning(BORROWER_COLUMNS),
);
