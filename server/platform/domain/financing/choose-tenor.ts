import { fromJson } from '../../db/database';
import type { CheckoutScope } from '../checkout/checkout-session';
import { AppError } from '../errors';
import { getLoanRow, transitionLoan } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import { freezeSnapshot, writeSchedule, type FrozenTerms } from '../loans/pricing-snapshot';
import type { CreditDecision } from './credit-policy';
import { FINANCING_PRODUCT_ID } from './financing-lender';
import { sessionApplication } from './submit-identity';

type StoredDecision = Extract<CreditDecision, { approved: true }> & { terms: Pick<FrozenTerms, 'interestModel' | 'processingFeeBps' | 'lateFeeBps'> };

/**
 * The patient picks one of the decision's tenors: the loan is priced with it (the decision's own terms, so the offer
 * is exactly what passed the affordability test), its schedule written and the offer issued (`awaiting_acceptance`,
 * a new `documentReference`). Choosing again before signing re-issues the offer with the new tenor.
 */
export async function chooseFinancingTenor(ctx: LoanContext, scope: CheckoutScope, tenorMonths: number) {
  const app = await sessionApplication(ctx.db, scope);
  if (app.expiresAt <= ctx.now.toISOString()) throw new AppError('application_expired', 'This application has expired; ask the clinic to start a new one.');
  if (app.status !== 'approved') throw new AppError('invalid_loan_state', `The application is ${app.status}: there is no decision to choose a tenor from.`);
  const decision = fromJson<StoredDecision>(app.decision)!;
  const option = decision.options.find((o) => o.tenorMonths === tenorMonths);
  if (!option) {
    throw new AppError('tenor_not_offered', `tenorMonths: choose one of ${decision.options.map((o) => o.tenorMonths).join(', ')}.`);
  }
  const loan = await getLoanRow(ctx.db, scope, scope.loanId);
  const repriced = { ...loan, tenorDays: option.tenorDays, interestRateBps: option.annualRateBps, repaymentFrequency: 'monthly' };
  const terms: FrozenTerms = {
    productId: FINANCING_PRODUCT_ID,
    productCode: 'PATIENT_FINANCING',
    interestModel: decision.terms.interestModel,
    processingFeeBps: decision.terms.processingFeeBps,
    processingFeeFlatKobo: 0,
    insuranceMode: 'off',
    insurancePremiumBps: 0,
    insurancePremiumBearer: 'borrower',
    lateFeeBps: decision.terms.lateFeeBps,
  };
  const version = loan.offerVersion + 1;
  const snapshot = await freezeSnapshot(ctx, repriced, terms, version);
  await writeSchedule(ctx, repriced, snapshot, ctx.now, loan.offerVersion > 0);
  const at = ctx.now.toISOString();
  return transitionLoan(
    ctx.db,
    loan,
    ['pending', 'awaiting_acceptance'],
    {
      status: 'awaiting_acceptance',
      tenorDays: option.tenorDays,
      interestRateBps: option.annualRateBps,
      repaymentFrequency: 'monthly',
      pricingSnapshotId: snapshot.id,
      documentReference: snapshot.documentReference,
      offerVersion: version,
      offerLetterIssuedAt: at,
      approvedAt: app.decidedAt,
      principalBalanceKobo: loan.principalKobo,
      outstandingKobo: snapshot.priced.totalRepayableKobo,
    },
    ctx.now,
  );
}
