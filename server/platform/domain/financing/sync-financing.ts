import type { LoansTable } from '../../db/schema';
import { recordStaffReviewEvent } from './staff-review-events';
import { approveApplication } from './submit-identity';
import type { LoanFollower } from '../events/followers';
import type { LoanWriteContext } from '../loans/loan-context';
import { isFinancingLoan } from './financing-lender';
import { FINANCING_FROM, transitionApplication, type FinancingStatus } from './financing-application';
import { emitFinancingEvent, type SdkEventName } from './financing-events';

/**
 * The lending core's loan events, seen from a patient-financing loan. Shared use cases (accept/decline, disburse,
 * repayments, arrears, cancel, mandates) emit through `emitLoanEvent`; for a financing loan it lands here instead,
 * through `financingLoanFollower` (registered by the composition root: see `events/followers.ts`): the application's
 * status follows the loan in the same transaction, and the spec-B event goes out (to sdk endpoints) in place of the
 * lending one. Lending events without a spec-B counterpart (`loan.offer.issued`, `loan.kyc.attested`)
 * are not emitted for financing loans; `loan.approved` comes from the service's own decision (decide-financing.ts).
 */
const FOLLOW: Record<string, { event: SdkEventName; status?: FinancingStatus; from?: readonly FinancingStatus[]; data(loan: LoansTable, extra: Record<string, unknown>): Record<string, unknown> }> = {
  'loan.offer.accepted': {
    event: 'loan.offer.accepted',
    status: 'offer_accepted',
    from: ['approved'],
    data: (loan, extra) => ({
      documentReference: extra.documentReference,
      tenorMonths: Math.round(loan.tenorDays / 30),
      totalRepayableKobo: loan.outstandingKobo,
      termsAcceptedAt: extra.termsAcceptedAt,
    }),
  },
  'loan.offer.declined': {
    event: 'loan.offer.rejected',
    status: 'offer_rejected',
    from: ['approved'],
    data: (_loan, extra) => ({ documentReference: extra.documentReference, reason: extra.reason ?? null }),
  },
  'loan.disbursed': {
    event: 'loan.disbursed',
    status: 'disbursed',
    from: ['offer_accepted'],
    data: (loan, extra) => ({
      disbursedAmountKobo: extra.disbursedAmountKobo,
      disbursedAt: extra.disbursedAt,
      disbursementReference: extra.disbursementReference,
      settledToOrganisationId: loan.organisationId,
    }),
  },
  'loan.repayment.due': {
    event: 'loan.repayment.due',
    data: (_loan, extra) => ({ installmentNumber: extra.installmentNumber, dueDate: extra.dueDate, amountDueKobo: extra.amountDueKobo }),
  },
  'loan.repayment.completed': {
    event: 'loan.repayment.completed',
    data: (_loan, extra) => ({ repaymentId: extra.repaymentId, amountKobo: extra.amountKobo, outstandingKobo: extra.outstandingKobo }),
  },
  'loan.completed': { event: 'loan.completed', status: 'completed', from: ['disbursed'], data: (_loan, extra) => ({ amountPaidKobo: extra.amountPaidKobo }) },
  'loan.defaulted': {
    event: 'loan.defaulted',
    status: 'defaulted',
    from: ['disbursed'],
    data: (_loan, extra) => ({ daysPastDue: extra.daysPastDue, outstandingKobo: extra.outstandingKobo }),
  },
  'loan.cancelled': { event: 'loan.cancelled', status: 'cancelled', from: FINANCING_FROM.cancel, data: (_loan, extra) => ({ reason: extra.reason ?? null }) },
  'mandate.active': { event: 'mandate.active', data: (_loan, extra) => ({ mandateId: extra.mandateId, provider: extra.provider }) },
};

/**
 * A financing loan's review is the service's staff's, never the partner's: `review.opened` and `review.closed` are
 * recorded in the outbox as `api = 'staff'` events (no endpoint has that api, so none is delivered; the console's loan
 * page reads them). Closing it moves the application on: cleared, the parked decision is approved (`loan.approved`,
 * as an automatic pass would have); rejected, the application is rejected (`declined_on_review`, `loan.rejected`), the person's reason staying with the
 * review and the loan.
 */
async function followReview(ctx: LoanWriteContext, event: 'review.opened' | 'review.closed', loan: LoansTable, extra: Record<string, unknown>): Promise<void> {
  await recordStaffReviewEvent(ctx.db, ctx.now, event, loan, extra);
  if (event !== 'review.closed') return;
  const app = await ctx.db.selectFrom('financingApplications').selectAll().where('id', '=', loan.id).executeTakeFirst();
  if (!app || app.status !== 'application_submitted') return;
  if (extra.closedReason === 'cleared') {
    await approveApplication(ctx.db, app, app.decision, ctx.now);
  } else if (extra.closedReason === 'rejected') {
    // The partner and the patient learn that a person declined it, not the compliance reason (kept with the review and the loan, for staff).
    const reason = 'declined_on_review';
    const at = ctx.now.toISOString();
    const rejected = await transitionApplication(ctx.db, app, FINANCING_FROM.decide, { status: 'rejected', rejectionReason: reason, decidedAt: at }, ctx.now);
    await emitFinancingEvent(ctx.db, rejected, 'loan.rejected', ctx.now, { reason, decidedAt: at });
  }
}

async function followFinancingLoanEvent(ctx: LoanWriteContext, event: string, loan: LoansTable, extra: Record<string, unknown>): Promise<void> {
  if (event === 'review.opened' || event === 'review.closed') return followReview(ctx, event, loan, extra);
  const follow = FOLLOW[event];
  if (!follow) return;
  let app = await ctx.db.selectFrom('financingApplications').selectAll().where('id', '=', loan.id).executeTakeFirst();
  if (!app) return;
  if (follow.status && follow.from?.includes(app.status as FinancingStatus)) {
    app = await transitionApplication(ctx.db, app, follow.from, { status: follow.status }, ctx.now);
  }
  await emitFinancingEvent(ctx.db, app, follow.event, ctx.now, follow.data(loan, extra));
}

/** Patient financing follows the loans of its product (`FINANCING_PRODUCT_ID`). */
export const financingLoanFollower: LoanFollower = {
  name: 'patient-financing',
  follows: isFinancingLoan,
  follow: followFinancingLoanEvent,
};
