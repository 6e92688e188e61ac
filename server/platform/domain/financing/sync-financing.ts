import type { LoansTable } from '../../db/schema';
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

async function followFinancingLoanEvent(ctx: LoanWriteContext, event: string, loan: LoansTable, extra: Record<string, unknown>): Promise<void> {
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
