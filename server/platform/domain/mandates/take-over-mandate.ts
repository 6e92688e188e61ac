import type { Db, Executor, Tx } from '../../db/database';
import type { LoanMandatesTable, MandateReplacementsTable } from '../../db/schema';
import type { RailName } from '../ports';
import type { Services } from '../services';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { inUnitOfWork } from '../unit-of-work';

/**
 * A replacement mandate (the borrower changed the account their loan is debited from) takes over from the loan's active
 * mandate only once the rail has made it active, and never while a mandate charge is pending on the loan: in one
 * transaction, under the loan's row lock (the lock pay now and the collector take before they record a charge), the
 * loan points at the new mandate, the old one is `cancelled`, the replacement is `active`, and `mandate.active` and
 * `loan.mandate.replaced` are written. With a charge pending (a scheduled debit in flight on the old mandate, or the
 * borrower's own payment), the takeover is **deferred**: the new mandate is active at the rail but not the loan's yet,
 * and the old one keeps collecting until the charge is decided; the next activation, the borrower's next read of the
 * loan, or the mandate sweep then completes it. So no instalment is ever charged on both mandates.
 *
 * The rail is told to cancel the old mandate after the commit (`cancel_at_rail`), and the sweep retries until it takes it.
 */

type TakeOverPlatform = LoanContext['platform'];

/** The replacement waiting for this mandate, if it is one. */
export async function pendingReplacementOf(db: Executor, mandateId: string): Promise<MandateReplacementsTable | undefined> {
  return db.selectFrom('mandateReplacements').selectAll().where('mandateId', '=', mandateId).where('status', '=', 'pending').executeTakeFirst();
}

export type TakeOver = 'replaced' | 'deferred' | 'cancelled';

/**
 * Inside the transaction that made `mandate` active (or a later one): moves the loan to it, or defers while a charge
 * is pending. A loan that no longer owes anything (paid off meanwhile) keeps no new debit: the replacement is
 * `cancelled` and the new mandate with it (the rail is told after the commit).
 */
export async function takeOverMandate(trx: Tx, platform: TakeOverPlatform, replacement: MandateReplacementsTable, mandate: LoanMandatesTable, now: Date): Promise<TakeOver> {
  const at = now.toISOString();
  // The loan's row lock: a collector or a pay-now recording a charge waits here, or this waits for it and sees its charge.
  await trx.updateTable('loans').set((eb) => ({ updatedAt: eb.ref('updatedAt') })).where('id', '=', replacement.loanId).execute();
  const loan = await trx.selectFrom('loans').selectAll().where('id', '=', replacement.loanId).executeTakeFirstOrThrow();
  if (loan.outstandingKobo <= 0 || !['active', 'disbursed', 'defaulted'].includes(loan.status) || loan.activeMandateId !== replacement.previousMandateId) {
    await trx.updateTable('loanMandates').set({ status: 'cancelled', updatedAt: at }).where('id', '=', mandate.id).execute();
    await trx
      .updateTable('mandateReplacements')
      .set({ status: 'cancelled', failureReason: loan.outstandingKobo <= 0 ? 'nothing_owed' : 'mandate_changed', cancelAtRail: mandate.id, updatedAt: at })
      .where('id', '=', replacement.id)
      .where('status', '=', 'pending')
      .execute();
    return 'cancelled';
  }
  const pending = await trx.selectFrom('loanRepayments').select('id').where('loanId', '=', loan.id).where('method', '=', 'mandate').where('status', '=', 'pending').executeTakeFirst();
  if (pending) return 'deferred';
  const moved = await trx
    .updateTable('mandateReplacements')
    .set({ status: 'active', replacedAt: at, cancelAtRail: replacement.previousMandateId, updatedAt: at })
    .where('id', '=', replacement.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return 'deferred';
  await trx.updateTable('loans').set({ activeMandateId: mandate.id, hasActiveMandate: true, updatedAt: at }).where('id', '=', loan.id).execute();
  await trx.updateTable('loanMandates').set({ status: 'cancelled', updatedAt: at }).where('id', '=', replacement.previousMandateId).where('status', '=', 'active').execute();
  const ctx: LoanWriteContext = { db: trx, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'borrower' };
  await emitLoanEvent(ctx, 'mandate.active', loan, { mandateId: mandate.id, provider: mandate.provider, status: 'active' });
  await emitLoanEvent(ctx, 'loan.mandate.replaced', loan, { previousMandateId: replacement.previousMandateId, mandateId: mandate.id });
  return 'replaced';
}

/** A replacement whose mandate ended at the rail without becoming active (refused, failed, cancelled, expired): `failed`; the old mandate stays. */
export async function endReplacementOf(trx: Tx, mandateId: string, reason: string, now: Date): Promise<boolean> {
  const moved = await trx
    .updateTable('mandateReplacements')
    .set({ status: 'failed', failureReason: reason, updatedAt: now.toISOString() })
    .where('mandateId', '=', mandateId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** A deferred takeover, tried again (its new mandate is active, the charge that held it may be decided). */
export async function completeReplacement(db: Db, platform: TakeOverPlatform, replacementId: string, now: Date): Promise<TakeOver | 'not_ready'> {
  return inUnitOfWork(db, async (trx) => {
    const replacement = await trx.selectFrom('mandateReplacements').selectAll().where('id', '=', replacementId).where('status', '=', 'pending').executeTakeFirst();
    if (!replacement) return 'not_ready' as const;
    const mandate = await trx.selectFrom('loanMandates').selectAll().where('id', '=', replacement.mandateId).executeTakeFirstOrThrow();
    if (mandate.status !== 'active') return 'not_ready' as const;
    return takeOverMandate(trx, platform, replacement, mandate, now);
  });
}

/** Tells the rail to cancel the mandate a replacement left behind; a refusal or an unreachable rail is left for the sweep. */
export async function cancelLeftBehind(db: Db, platform: Pick<Services, 'rails' | 'logger'>, replacement: Pick<MandateReplacementsTable, 'id' | 'cancelAtRail'>, now: Date): Promise<boolean> {
  if (!replacement.cancelAtRail) return true;
  const mandate = await db.selectFrom('loanMandates').select(['provider', 'mode', 'providerReference']).where('id', '=', replacement.cancelAtRail).executeTakeFirstOrThrow();
  const rail = mandate.provider === 'rail_c' || !mandate.providerReference ? undefined : platform.rails.railFor(mandate.mode, mandate.provider as RailName);
  if (rail) {
    try {
      await rail.cancel(mandate.providerReference!);
    } catch (error) {
      platform.logger.warn({ err: error, replacementId: replacement.id }, 'the rail did not take the old mandate\'s cancellation; the mandate sweep retries');
      return false;
    }
  }
  await db.updateTable('mandateReplacements').set({ cancelAtRail: null, updatedAt: now.toISOString() }).where('id', '=', replacement.id).where('cancelAtRail', '=', replacement.cancelAtRail).execute();
  return true;
}

export interface ReplacementSweep {
  /** Deferred takeovers completed (the charge that held them was decided). */
  replaced: number;
  /** Left-behind mandates the rail took the cancellation of. */
  cancelledAtRail: number;
}

/** The mandate sweep's part: deferred takeovers, and cancellations the rail has not taken yet. */
export async function sweepMandateReplacements(db: Db, platform: TakeOverPlatform & Pick<Services, 'rails' | 'logger'>, now: Date): Promise<ReplacementSweep> {
  const outcome: ReplacementSweep = { replaced: 0, cancelledAtRail: 0 };
  const deferred = await db
    .selectFrom('mandateReplacements as r')
    .innerJoin('loanMandates as m', 'm.id', 'r.mandateId')
    .select('r.id')
    .where('r.status', '=', 'pending')
    .where('m.status', '=', 'active')
    .limit(100)
    .execute();
  for (const { id } of deferred) {
    const result = await completeReplacement(db, platform, id, now);
    if (result === 'replaced') outcome.replaced++;
  }
  const toCancel = await db.selectFrom('mandateReplacements').select(['id', 'cancelAtRail']).where('cancelAtRail', 'is not', null).limit(100).execute();
  for (const row of toCancel) if (await cancelLeftBehind(db, platform, row, now)) outcome.cancelledAtRail++;
  return outcome;
}
