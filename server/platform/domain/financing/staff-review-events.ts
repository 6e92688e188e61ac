import type { Tx } from '../../db/database';
import { toJson } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import { markOutboxWritten } from '../events/outbox-signal';
import { newOrderedId } from '../ids';
import { loanEventBase } from '../loans/loan-events';

/**
 * A patient-financing loan's review is the service's staff's: its `review.opened` / `review.closed` go to the outbox
 * as `api = 'staff'` events, in the caller's transaction. No endpoint has that api, so none is delivered; the partner's
 * loan page does not read them; the console's loan page does.
 */
export async function recordStaffReviewEvent(db: Tx, now: Date, event: 'review.opened' | 'review.closed', loan: LoansTable, extra: Record<string, unknown>): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: newOrderedId(),
      organisationId: loan.organisationId,
      mode: loan.mode,
      name: event,
      payload: toJson({ ...loanEventBase(loan, null), ...extra })!,
      createdAt: now.toISOString(),
      fannedOutAt: null,
      api: 'staff',
    })
    .execute();
  markOutboxWritten(db);
}
