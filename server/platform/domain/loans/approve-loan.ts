import type { LoansTable } from '../../db/schema';
import { AppError } from '../errors';
import { attestAndScreen, emitAttested, type KycAttestation } from './attestation';
import { issueLoanOffer } from './issue-loan-offer';
import { getLoanRow, invalidState, transitionLoan } from './loan';
import type { LoanContext, LoanWriteContext } from './loan-context';
import { FROM } from './transitions';
import { SERVICE_APPROVAL_MODE } from '../products/product';
import { openAmlReview } from '../reviews/open-review';
import { closeOpenReviewOf } from '../reviews/close-open-review';

export interface ApproveLoanOptions {
  loanId: string;
  notes?: string;
  attestation?: { schemaVersion: number; attestedChecks: Record<string, unknown> };
}

export interface ApproveLoanResult {
  approved: boolean;
  loan: LoansTable;
  attestation?: KycAttestation;
}

async function productOf(ctx: LoanContext, loan: LoansTable) {
  return ctx.db.selectFrom('loanProducts').selectAll().where('id', '=', loan.loanProductId).executeTakeFirstOrThrow();
}

/**
 * The tenant approves a loan of the `tenant` approval mode: freeze pricing, build the schedule,
 * issue the offer. The borrower is screened (AML) first, with or without an attestation (delegated
 * tier only): the screen is recorded with the loan's KYC evidence, and a hit or no screen at all
 * (`pending`: live mode without a provider) parks the loan `under_review` for a person; nothing is approved.
 */
export async function approveLoan(ctx: LoanWriteContext, options: ApproveLoanOptions): Promise<ApproveLoanResult> {
  let loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
  if (loan.approvalMode !== 'tenant') {
    throw new AppError('approval_mode_mismatch', `This loan's approval mode is ${loan.approvalMode}; only tenant-mode loans are approved through the API.`);
  }
  const from = loan.kycTier === 'managed' ? FROM.approveManaged : FROM.approveDelegated;
  if (!(from as readonly string[]).includes(loan.status)) throw invalidState(loan.status, 'awaiting_acceptance');
  if (options.attestation && loan.kycTier !== 'delegated') {
    throw new AppError('wrong_kyc_tier', 'Attestations apply to delegated-tier (Tier A) loans only; this loan is managed-tier.');
  }
  const product = await productOf(ctx, loan);
  const extra = { approvalNotes: options.notes ?? null };
  // Without the partner's attestation the screen is recorded as the approval's own evidence.
  const evidence = options.attestation ?? { schemaVersion: 1, attestedChecks: { source: 'tenant_approval', kycTier: loan.kycTier } };
  const attestation = await attestAndScreen(ctx, loan, evidence);
  // A hit, or no screen at all (`pending`: live mode without a provider), goes to a person.
  if (attestation.amlScreenStatus !== 'clear') {
    loan = await transitionLoan(ctx.db, loan, from, { status: 'under_review', approvalNotes: options.notes ?? null }, ctx.now);
    await emitAttested(ctx, loan, attestation);
    await openAmlReview(ctx, loan, attestation, 'issue_offer');
    return { approved: false, loan, attestation };
  }
  if (!options.attestation) {
    await emitAttested(ctx, loan, attestation);
    return { approved: true, loan: await issueLoanOffer(ctx, loan, product, from, extra), attestation };
  }
  loan = await transitionLoan(ctx.db, loan, from, { status: 'attested' }, ctx.now);
  await emitAttested(ctx, loan, attestation);
  return { approved: true, loan: await issueLoanOffer(ctx, loan, product, ['attested'], extra), attestation };
}

/** The lender says no before the borrower has accepted (an open review closes `rejected`). Rejecting a rejected loan changes nothing. */
export async function rejectLoan(ctx: LoanWriteContext, options: { loanId: string; reason?: string; notes?: string }): Promise<LoansTable> {
  const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
  if (loan.approvalMode === SERVICE_APPROVAL_MODE) {
    throw new AppError('approval_mode_mismatch', 'The service decides patient-financing loans; cancel it instead (POST /api/v1/sdk/loans/{loanId}/cancel).');
  }
  if (loan.status === 'rejected') return loan;
  const rejected = await transitionLoan(
    ctx.db,
    loan,
    FROM.reject,
    { status: 'rejected', rejectionReason: options.reason ?? null, approvalNotes: options.notes ?? loan.approvalNotes },
    ctx.now,
  );
  await closeOpenReviewOf(ctx, loan, rejected, 'rejected', { by: ctx.actor, note: options.reason ?? null });
  return rejected;
}

/** A separate Tier A attestation: clear moves the loan to `attested`, a hit or no screen (`pending`) to `under_review`. */
export async function attestLoan(
  ctx: LoanWriteContext,
  options: { loanId: string; attestedChecks: Record<string, unknown>; schemaVersion: number },
): Promise<KycAttestation> {
  const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
  if (loan.kycTier !== 'delegated') {
    throw new AppError('wrong_kyc_tier', 'Attestations apply to delegated-tier (Tier A) loans only; submit KYC for managed-tier loans.');
  }
  if (!(FROM.attest as readonly string[]).includes(loan.status)) throw invalidState(loan.status, 'attested');
  const attestation = await attestAndScreen(ctx, loan, options);
  const next = attestation.amlScreenStatus === 'clear' ? 'attested' : 'under_review';
  const moved = await transitionLoan(ctx.db, loan, FROM.attest, { status: next }, ctx.now);
  await emitAttested(ctx, moved, attestation);
  if (next === 'under_review') await openAmlReview(ctx, moved, attestation, 'attested');
  return attestation;
}
