import { sql } from 'kysely';
import type { Services } from '../services';
import type { RailName } from '../ports';
import type { Mode } from '../scope';
import { newId } from '../ids';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { authorisationCodeOf } from '../mandates/manage-mandate';
import { isChargeable } from '../mandates/mandate';
import { isOutcomeUnknown, type PaymentRail } from '../ports';
import type { LoanRepaymentsTable } from '../../db/schema';
import { isTransientDatabaseError } from '../../db/unavailable';
import type { Executor } from '../../db/database';
import { applyRepayment, pendingMandateCharge } from './record-repayment';
import { inUnitOfWork } from '../unit-of-work';
import { applySettledQuote } from '../borrower-loans/apply-settled-quote';
import { textLaterPaymentReceipt } from '../borrower-loans/payment-receipt';

type CollectorPlatform = Pick<Services, 'db' | 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings' | 'baseUrl' | 'logger' | 'rails' | 'sms'>;

export interface CollectionRun {
  scheduled: number;
  charged: number;
  completed: number;
  failed: number;
  /** Loans (or their repayments) left alone because their mode has no rail for the provider (live mode without a live rail). */
  skipped: number;
  /** Charges whose outcome the rail left unknown (timeout, 5xx after sending): kept pending, looked up by reference next run. */
  unknown: number;
  /** Charges with an unknown outcome found at the rail by their reference (then read back like any other). */
  reconciled: number;
}

/** `failure_reason` of a pending mandate repayment whose charge may or may not have reached the rail. */
export const CHARGE_OUTCOME_UNKNOWN = 'charge_outcome_unknown';
/** `failure_reason` of a pending mandate repayment a collector has claimed and is sending (its outcome is unknown until it answers). */
export const CHARGE_SENDING = 'charge_sending';
/** A send claim older than this belongs to a collector that died mid-send: another takes it over (as an unknown outcome). */
export const CHARGE_SEND_LEASE_MS = 5 * 60_000;

/** Hands a claimed send back as an unknown outcome (looked up again by the next run). */
async function releaseClaim(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('loanRepayments').set({ failureReason: CHARGE_OUTCOME_UNKNOWN, updatedAt: at }).where('id', '=', id).where('status', '=', 'pending').where('failureReason', '=', CHARGE_SENDING).execute();
}

/**
 * The mandate collector (restartable; every step is a conditional write, so runs in several
 * processes do not double-charge):
 * 1. due instalments of loans with a chargeable service-operated mandate get a `pending` mandate
 *    repayment for everything due and unpaid (late fees included), unless one is already pending
 *    or an automatic charge failed less than COLLECTION_RETRY_HOURS ago (the retry schedule);
 * 2. pending mandate repayments without a charge are sent to the rail (outside any transaction);
 *    a send whose outcome is unknown (timeout, 5xx) is never read as failed: the repayment stays
 *    pending, marked `charge_outcome_unknown`, and the next run looks the charge up by its reference
 *    (found: read back below; never taken: sent again with the same reference, so at most one debit);
 * 3. charges the rail has decided complete the repayment (allocated like any other) or fail it.
 * Live loans whose provider has no live rail configured are skipped at every step (nothing written,
 * logged once a run): live mode never charges through a sandbox.
 */
export async function runCollections(platform: CollectorPlatform, now: Date): Promise<CollectionRun> {
  const run: CollectionRun = { scheduled: 0, charged: 0, completed: 0, failed: 0, skipped: 0, unknown: 0, reconciled: 0 };
  const at = now.toISOString();
  const db = platform.db;
  const unconfigured = new Set<string>();
  const railOf = (mode: Mode, provider: string) => {
    const rail = platform.rails.railFor(mode, provider as RailName);
    if (!rail) {
      unconfigured.add(`${mode}:${provider}`);
      run.skipped += 1;
    }
    return rail;
  };

  const retryAfter = new Date(now.getTime() - platform.settings.COLLECTION_RETRY_HOURS * 3600_000).toISOString();
  const due = await db
    .selectFrom('loanScheduleItems as s')
    .innerJoin('loans as l', 'l.id', 's.loanId')
    .innerJoin('loanMandates as m', 'm.id', 'l.activeMandateId')
    .select(['l.id as loanId', 'l.organisationId', 'l.mode', 'l.borrowerId', 'm.id as mandateId', 'm.provider', sql<number>`sum(s.total_kobo + s.late_fee_kobo - s.amount_paid_kobo)`.as('dueKobo')])
    .where('l.status', 'in', ['active', 'defaulted'])
    .where('m.status', '=', 'active')
    .where('m.provider', '!=', 'rail_c')
    .where('s.dueDate', '<=', at)
    .where('s.status', 'in', ['pending', 'partial', 'overdue'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('loanRepayments as r')
            .select('r.id')
            .whereRef('r.loanId', '=', 'l.id')
            .where('r.method', '=', 'mandate')
            .where((eb) => eb.or([eb('r.status', '=', 'pending'), eb.and([eb('r.status', '=', 'failed'), eb('r.createdAt', '>', retryAfter)])])),
        ),
      ),
    )
    .groupBy(['l.id', 'l.organisationId', 'l.mode', 'l.borrowerId', 'm.id', 'm.provider'])
    .execute();
  for (const item of due) {
    const amount = Number(item.dueKobo);
    if (amount <= 0) continue;
    if (!railOf(item.mode, item.provider)) continue;
    // Several collectors (worker processes) may list the same loan: the loan's row lock makes a
    // concurrent one wait, then see the pending charge this one scheduled and schedule none.
    const scheduled = await inUnitOfWork(db, async (trx) => {
      await trx.updateTable('loans').set({ updatedAt: sql`updated_at` }).where('id', '=', item.loanId).execute();
      // The borrower's new mandate may have taken over since the list was read: charge only the loan's mandate now.
      const current = await trx.selectFrom('loans').select('activeMandateId').where('id', '=', item.loanId).executeTakeFirst();
      if (current?.activeMandateId !== item.mandateId) return false;
      const blocking = await trx
        .selectFrom('loanRepayments as r')
        .select('r.id')
        .where('r.loanId', '=', item.loanId)
        .where('r.method', '=', 'mandate')
        .where((eb) => eb.or([eb('r.status', '=', 'pending'), eb.and([eb('r.status', '=', 'failed'), eb('r.createdAt', '>', retryAfter)])]))
        .executeTakeFirst();
      if (blocking) return false;
      await trx
        .insertInto('loanRepayments')
        .values(pendingMandateCharge({ loan: { id: item.loanId, organisationId: item.organisationId, mode: item.mode, borrowerId: item.borrowerId }, mandateId: item.mandateId, amountKobo: amount, now, initiatedBy: 'schedule' }))
        .execute();
      return true;
    });
    if (scheduled) run.scheduled += 1;
  }

  const fail = async (id: string, reason: string) => {
    const moved = await db.updateTable('loanRepayments').set({ status: 'failed', failureReason: reason, updatedAt: at }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1) run.failed += 1;
  };

  const unsent = await db.selectFrom('loanRepayments').selectAll().where('method', '=', 'mandate').where('status', '=', 'pending').where('chargeReference', 'is', null).execute();
  const staleClaim = new Date(now.getTime() - CHARGE_SEND_LEASE_MS).toISOString();
  for (const repayment of unsent) {
    const mandate = await db.selectFrom('loanMandates').selectAll().where('id', '=', repayment.mandateId!).executeTakeFirst();
    const rail = mandate ? railOf(mandate.mode, mandate.provider) : undefined;
    if (mandate && !rail) continue;
    // Claim the send, so two collectors never send one repayment at once (a live rail refuses a
    // reused reference, which must not read as a failed charge). A claim left by a collector that
    // died mid-send is taken over after the lease, as an unknown outcome: looked up first.
    const claimed = await db
      .updateTable('loanRepayments')
      .set({ failureReason: CHARGE_SENDING, updatedAt: at })
      .where('id', '=', repayment.id)
      .where('status', '=', 'pending')
      .where('chargeReference', 'is', null)
      // Only from the state read above, so the look-up below is decided on what the claim replaced.
      .where((eb) =>
        repayment.failureReason === null
          ? eb('failureReason', 'is', null)
          : repayment.failureReason === CHARGE_SENDING
            ? eb.and([eb('failureReason', '=', CHARGE_SENDING), eb('updatedAt', '<', staleClaim)])
            : eb('failureReason', '=', repayment.failureReason),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    if (rail && (repayment.failureReason === CHARGE_OUTCOME_UNKNOWN || repayment.failureReason === CHARGE_SENDING)) {
      // Reconcile first, whatever became of the mandate since: the charge may have been taken.
      let found;
      try {
        found = await attachFoundCharge(db, rail, repayment, now);
      } catch (error) {
        platform.logger.warn({ err: error, repaymentId: repayment.id }, 'could not look up a charge with an unknown outcome; will retry');
        await releaseClaim(db, repayment.id, at);
        continue;
      }
      if (found) {
        run.reconciled += 1;
        continue;
      }
    }
    if (!mandate || !rail || !isChargeable(mandate)) {
      await fail(repayment.id, 'mandate_not_chargeable');
      continue;
    }
    try {
      const { chargeReference } = await rail.charge({
        authorizationCode: authorisationCodeOf(platform, mandate),
        amountKobo: repayment.amountKobo,
        reference: repayment.reference,
        email: mandate.email,
      });
      await db.updateTable('loanRepayments').set({ chargeReference, failureReason: null, updatedAt: at }).where('id', '=', repayment.id).where('chargeReference', 'is', null).execute();
      run.charged += 1;
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        await db.updateTable('loanRepayments').set({ failureReason: CHARGE_OUTCOME_UNKNOWN, updatedAt: at }).where('id', '=', repayment.id).where('status', '=', 'pending').execute();
        platform.logger.warn({ err: error, repaymentId: repayment.id }, 'charge outcome unknown; it will be looked up by its reference before anything else');
        run.unknown += 1;
        continue;
      }
      await fail(repayment.id, `charge_refused: ${(error as Error).message}`.slice(0, 300));
    }
  }

  const sent = await db.selectFrom('loanRepayments').selectAll().where('method', '=', 'mandate').where('status', '=', 'pending').where('chargeReference', 'is not', null).execute();
  for (const repayment of sent) {
    const mandate = await db.selectFrom('loanMandates').select(['provider', 'mode']).where('id', '=', repayment.mandateId!).executeTakeFirstOrThrow();
    const rail = railOf(mandate.mode, mandate.provider);
    if (!rail) continue;
    const outcome = await settleCharge(platform, rail, repayment, now);
    if (outcome === 'completed') run.completed += 1;
    if (outcome === 'failed') run.failed += 1;
  }
  if (unconfigured.size > 0) {
    platform.logger.warn({ skipped: run.skipped, providers: [...unconfigured] }, 'collector skipped loans: no payment rail configured for their mode (live mode never charges through a sandbox)');
  }
  return run;
}

/**
 * Reads one sent charge back from its rail and completes the repayment (allocated like any other)
 * or fails it; `processing` and unreadable answers leave it pending for the next read. Used by the
 * collector and by a rail's push notification (which is only a hint to read back sooner). Every
 * write is conditional on the repayment still being pending, so the two never apply it twice.
 * A payment the borrower started on their loan page gets its receipt text from whichever applied it,
 * once, after the commit: the borrower's request when the rail decided at once (it texts its own, so
 * it passes `textReceipt: false`), else the collector or the notification. Scheduled debits get none.
 */
export async function settleCharge(
  platform: Pick<CollectorPlatform, 'db' | 'logger' | 'sms'> & LoanContext['platform'],
  rail: PaymentRail,
  repayment: LoanRepaymentsTable,
  now: Date,
  options: { textReceipt?: boolean } = {},
): Promise<'completed' | 'failed' | 'pending'> {
  const db = platform.db;
  const at = now.toISOString();
  const fail = async (reason: string) => {
    const moved = await db.updateTable('loanRepayments').set({ status: 'failed', failureReason: reason, updatedAt: at }).where('id', '=', repayment.id).where('status', '=', 'pending').executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1 ? 'failed' : 'pending';
  };
  let result;
  try {
    result = await rail.readCharge(repayment.chargeReference!);
  } catch (error) {
    platform.logger.warn({ err: error, repaymentId: repayment.id }, 'could not read a charge; will retry');
    return 'pending';
  }
  if (result.status === 'processing') return 'pending';
  if (result.status === 'failed') return fail(result.failureReason ?? 'failed');
  let applied: 'completed' | 'pending';
  try {
    applied = await inUnitOfWork(db, async (trx) => {
      const claimed = await trx.updateTable('loanRepayments').set({ updatedAt: at }).where('id', '=', repayment.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return 'pending' as const;
      const ctx: LoanWriteContext = { db: trx, platform, now, scope: { organisationId: repayment.organisationId, mode: repayment.mode }, actor: 'collector' };
      // A charge that pays a borrower's settlement quote first takes the waived interest and fees off the schedule.
      await applySettledQuote(ctx, repayment.id);
      await applyRepayment(ctx, { loanId: repayment.loanId, method: 'mandate', amountKobo: repayment.amountKobo, externalReference: null, existingId: repayment.id, mandateId: repayment.mandateId });
      return 'completed' as const;
    });
  } catch (error) {
    // The rail took the money. A passing database error (unreachable, a deadlock or serialization failure, a lock or
    // statement timeout) rolled the application back: the repayment stays pending and the next read applies it.
    // Only an error that would come back every time marks it for a refund.
    if (isTransientDatabaseError(error)) {
      platform.logger.warn({ err: error, repaymentId: repayment.id }, 'collected charge not applied yet (passing database error); the next run applies it');
      return 'pending';
    }
    platform.logger.warn({ err: error, repaymentId: repayment.id }, 'collected charge could not be applied; marked failed for refund');
    return fail(`collected_but_not_applied: ${(error as Error).message}`.slice(0, 300));
  }
  if (applied === 'completed' && repayment.initiatedBy === 'borrower' && options.textReceipt !== false) await textLaterPaymentReceipt(platform, repayment);
  return applied;
}

/**
 * Reconciles a charge whose outcome was unknown: looks it up at the rail by the platform's reference
 * and, when the rail took it, records its charge reference (the read-back then settles it). Answers
 * the charge reference, or null when the rail never took it (sending it again is safe). Lookup
 * failures are thrown to the caller.
 */
export async function attachFoundCharge(db: Executor, rail: PaymentRail, repayment: Pick<LoanRepaymentsTable, 'id' | 'reference'>, now: Date): Promise<string | null> {
  const found = await rail.findCharge(repayment.reference);
  if (!found) return null;
  await db
    .updateTable('loanRepayments')
    .set({ chargeReference: found.chargeReference, failureReason: null, updatedAt: now.toISOString() })
    .where('id', '=', repayment.id)
    .where('chargeReference', 'is', null)
    .execute();
  return found.chargeReference;
}
