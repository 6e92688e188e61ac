import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { newId } from '../ids';

/** The platform user with this verified phone in this mode, created on first sight (safe under races: the unique index decides). */
export async function findOrCreateUser(db: Executor, options: { mode: Mode; phone: string; now: Date }): Promise<string> {
  const at = options.now.toISOString();
  await db
    .insertInto('users')
    .values({ id: newId(), mode: options.mode, phone: options.phone, createdAt: at, updatedAt: at })
    .onConflict((oc) => oc.columns(['mode', 'phone']).doNothing())
    .execute();
  const user = await db.selectFrom('users').select('id').where('mode', '=', options.mode).where('phone', '=', options.phone).executeTakeFirstOrThrow();
  return user.id;
}

/**
 * A verified OTP to the borrower's phone on record claims the borrower: `identityStatus` becomes
 * `linked`, with `linkedAt` and the platform user found or created by that phone. A borrower that
 * is already linked keeps its first link.
 */
export async function claimBorrower(db: Executor, options: { borrowerId: string; mode: Mode; phone: string; now: Date }): Promise<void> {
  const userId = await findOrCreateUser(db, options);
  const at = options.now.toISOString();
  await db
    .updateTable('borrowers')
    .set({ identityStatus: 'linked', linkedAt: at, userId, updatedAt: at })
    .where('id', '=', options.borrowerId)
    .where('identityStatus', '=', 'unclaimed')
    .execute();
}
