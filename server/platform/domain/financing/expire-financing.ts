import type { Db, Tx } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import { AppError } from '../errors';
import { getLoanRow, transitionLoan } from '../loans/loan';
import { FINANCING_FROM, transitionApplication, type FinancingStatus } from './financing-application';
import { emitFinancingEvent } from './financing-events';
import { recordStaffReviewEvent } from './staff-review-events';
import { inUnitOfWork } from '../unit-of-work';

const isDue = (app: FinancingApplicationsTable, now: Date) =>
  app.expiresAt <= now.toISOString() && (FINANCING_FROM.expire as readonly string[]).includes(app.status);

/**
 * An application not signed by `expiresAt` expires: the application becomes `expired`, its loan `cancelled`
 * (reason `expired`), and `loan.cancelled` goes out with reason `expired` (the spec has no expiry event). A signed offer
 * does not expire: it waits for its mandate. A decision still waiting for the service's review expires too: its review
 * closes `cancelled` (with the staff-only `review.closed`), as a loan cancelled under review does.
 */
async function expire(db: Tx, app: FinancingApplicationsTable, now: Date): Promise<void> {
  const expired = await transitionApplication(db, app, FINANCING_FROM.expire as readonly FinancingStatus[], { status: 'expired' }, now);
  const loan = await getLoanRow(db, { organisationId: app.organisationId, mode: app.mode }, app.id);
  if (['pending', 'awaiting_acceptance', 'under_review'].includes(loan.status)) {
    const cancelled = await transitionLoan(
      db,
      loan,
      ['pending', 'awaiting_acceptance', 'under_review'],
      { status: 'cancelled', cancelledBy: 'admin', cancellationReason: 'expired', cancelledAt: now.toISOString() },
      now,
    );
    if (loan.status === 'under_review') await closeReviewOnExpiry(db, cancelled, now);
  }
  await emitFinancingEvent(db, expired, 'loan.cancelled', now, { reason: 'expired' });
}

/** On access: a due application is expired (its own commit) and the step answers 409 `application_expired`. */
export async function expireIfDue(db: Db, app: FinancingApplicationsTable, now: Date): Promise<void> {
  if (!isDue(app, now)) return;
  await inUnitOfWork(db, (trx) => expire(trx, app, now)).catch(() => undefined);
  throw new AppError('application_expired', 'This application has expired; ask the clinic to start a new one.');
}

/** The sweep (housekeeping worker): expires up to `limit` due applications, each in its own transaction. Returns how many. */
export async function expireFinancingApplications(db: Db, now: Date, limit = 100): Promise<number> {
  const due = await db
    .selectFrom('financingApplications')
    .selectAll()
    .where('status', 'in', [...FINANCING_FROM.expire])
    .where('expiresAt', '<=', now.toISOString())
    .orderBy('expiresAt')
    .limit(limit)
    .execute();
  let expired = 0;
  for (const app of due) {
    try {
      await inUnitOfWork(db, (trx) => expire(trx, app, now));
      expired += 1;
    } catch (error) {
      // Moved concurrently (signed, or expired by another process): nothing to do.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return expired;
}

/** The open review of an application that expired while it waited: closed `cancelled`, one conditional UPDATE. */
async function closeReviewOnExpiry(db: Tx, loan: Parameters<typeof recordStaffReviewEvent>[3], now: Date): Promise<void> {
  const open = await db.selectFrom('loanReviews').select(['id', 'openedReason']).where('loanId', '=', loan.id).where('status', '=', 'open').executeTakeFirst();
  if (!open) return;
  const at = now.toISOString();
  await db.updateTable('loanReviews').set({ status: 'closed', closedReason: 'cancelled', closedBy: 'expiry', note: 'expired', closedAt: at, updatedAt: at }).where('id', '=', open.id).where('status', '=', 'open').execute();
  await recordStaffReviewEvent(db, now, 'review.closed', loan, { reviewId: open.id, openedReason: open.openedReason, closedReason: 'cancelled', note: 'expired' });
}
