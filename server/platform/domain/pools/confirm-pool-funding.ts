import type { Db, Executor } from '../../db/database';
import { notFound } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { fundPool, type PoolBalance } from './pool';
import { toNotice, type FundingNotice } from './funding-notice';

/** Who the audit log names for an operator's CLI confirmation. */
const OPERATOR_ORIGIN: RequestOrigin = { ip: null, userAgent: 'admin CLI (pool confirm-funding)' };

/**
 * An operator saw the transfer quoting `reference` arrive: credits the pool and marks the notice confirmed, once.
 * The notice moves from `pending` in a conditional UPDATE, so two confirmations at once credit the pool once; a
 * repeat answers `changed: false` and credits nothing.
 */
export async function confirmPoolFunding(
  db: Db,
  options: { reference: string; now: Date },
): Promise<{ notice: FundingNotice; balance: PoolBalance | null; changed: boolean }> {
  return inUnitOfWork(db, (tx) => confirmPoolFundingIn(tx, options));
}

/** `confirmPoolFunding` inside the caller's transaction (the console's approval of a proposal, with its own audit). */
export async function confirmPoolFundingIn(
  tx: Executor,
  options: { reference: string; now: Date; origin?: RequestOrigin },
): Promise<{ notice: FundingNotice; balance: PoolBalance | null; changed: boolean }> {
  const reference = options.reference.trim().toUpperCase();
  const confirmedAt = options.now.toISOString();
  const moved = await tx
    .updateTable('poolFundingNotices')
    .set({ status: 'confirmed', confirmedAt })
    .where('reference', '=', reference)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!moved) {
    const existing = await tx.selectFrom('poolFundingNotices').selectAll().where('reference', '=', reference).executeTakeFirst();
    if (!existing) throw notFound('pool funding notice');
    return { notice: toNotice(existing), balance: null, changed: false };
  }
  const notice = toNotice(moved);
  const balance = await fundPool(tx, {
    organisationId: moved.organisationId,
    mode: moved.mode,
    code: moved.poolCode,
    amountKobo: notice.amountKobo,
    now: options.now,
  });
  const audit = { userId: null, organisationId: moved.organisationId, origin: options.origin ?? OPERATOR_ORIGIN, now: options.now };
  await writeAudit(tx, { ...audit, action: 'pool_funding_confirmed', target: reference });
  await writeAudit(tx, { ...audit, action: 'pool_funded', target: `${moved.mode}:${moved.poolCode}:${notice.amountKobo}` });
  return { notice, balance, changed: true };
}

