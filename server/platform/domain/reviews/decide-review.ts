import { fromJson } from '../../db/database';
import type { LoanReviewsTable, LoansTable } from '../../db/schema';
import { completeKyc } from '../loans/submit-kyc';
import { AppError } from '../errors';
import { issueLoanOffer } from '../loans/issue-loan-offer';
import { getLoanRow, invalidState, transitionLoan } from '../loans/loan';
import type { LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { updatePreapprovalStatus } from '../loans/respond-to-offer';
import { FROM } from '../loans/transitions';
import { reviewRow, toReview, type Review } from './review';

export interface ReviewDecision {
  reviewId: string;
  /** Who may decide it: the partner through its API and dashboard, the service's staff in the console. */
  decidedBy: LoanReviewsTable['decidedBy'];
  /** Why: required, kept with the review and sent with `review.closed`. */
  reason: string;
  /** Who decided: the API key (masked), `user:<id>` from a dashboard, `operator CLI`. */
  by: string;
}

export interface DecidedReview {
  review: Review;
  loan: LoansTable;
}

const closed = (review: LoanReviewsTable) =>
  new AppError('review_closed', `This review is closed already (${review.closedReason}); its loan's current state is on GET /v1/loans/${review.loanId}.`);

/**
 * Closes the open review with a person's decision, by one conditional UPDATE (two people deciding at once: one wins,
 * the other gets 409 `review_closed`). The same decision again answers the review as it is.
 */
async function closeWithDecision(ctx: LoanWriteContext, decision: ReviewDecision, closedReason: 'cleared' | 'rejected'): Promise<{ row: LoanReviewsTable; repeated: boolean }> {
  const row = await reviewRow(ctx.db, ctx.scope, decision.reviewId, decision.decidedBy);
  if (row.status === 'closed') {
    if (row.closedReason === closedReason) return { row, repeated: true };
    throw closed(row);
  }
  const at = ctx.now.toISOString();
  const changes = { status: 'closed' as const, closedReason, closedBy: decision.by, note: decision.reason, closedAt: at, updatedAt: at };
  const updated = await ctx.db.updateTable('loanReviews').set(changes).where('id', '=', row.id).where('status', '=', 'open').executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw closed({ ...row, ...changes });
  return { row: { ...row, ...changes }, repeated: false };
}

/** A `kyc_undecided` review cleared: the borrower keeps the identity the undecided submission gave, as `verified` would have. */
async function completeUndecidedKyc(ctx: LoanWriteContext, review: LoanReviewsTable, loan: LoansTable): Promise<void> {
  const submissionId = fromJson<{ kycSubmissionId?: string }>(review.evidence)?.kycSubmissionId;
  const submission = submissionId
    ? await ctx.db.selectFrom('kycSubmissions').select(['bvnHash', 'ninHash']).where('id', '=', submissionId).where('loanId', '=', loan.id).executeTakeFirst()
    : undefined;
  if (!submission) return;
  const borrower = await ctx.db.selectFrom('borrowers').select(['id', 'bvnHash']).where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
  await completeKyc(ctx, borrower, { bvnHash: submission.bvnHash, ninHash: submission.ninHash });
}

/**
 * Clears a review: the loan moves on exactly as an automatic pass would have — the offer is issued (and the borrower
 * waiting in the checkout is texted the link) where an approval or a pushed decision waited, the attestation counts as
 * passed (`attested`) where a separate attestation waited, KYC is completed (`kyc_completed`, the borrower keeping the
 * submission's identity) where the identity provider could not decide, or the loan returns to where it was parked
 * (`awaiting_acceptance`, `terms_accepted`) where a name waited. `review.closed` goes with it.
 */
export async function clearReview(ctx: LoanWriteContext, decision: ReviewDecision): Promise<DecidedReview> {
  const { row, repeated } = await closeWithDecision(ctx, decision, 'cleared');
  let loan = await getLoanRow(ctx.db, ctx.scope, row.loanId);
  if (repeated) return { review: toReview(row), loan };
  if (loan.status !== 'under_review') throw invalidState(loan.status, row.resumeWith === 'issue_offer' ? 'awaiting_acceptance' : row.resumeWith);
  if (row.resumeWith === 'kyc_completed') {
    await completeUndecidedKyc(ctx, row, loan);
    loan = await transitionLoan(ctx.db, loan, ['under_review'], { status: 'kyc_completed' }, ctx.now);
  } else if (row.resumeWith !== 'issue_offer') {
    loan = await transitionLoan(ctx.db, loan, ['under_review'], { status: row.resumeWith }, ctx.now);
  } else {
    const product = await ctx.db.selectFrom('loanProducts').selectAll().where('id', '=', loan.loanProductId).executeTakeFirstOrThrow();
    loan = await issueLoanOffer(ctx, loan, product, ['under_review']);
    if (loan.preapprovalId) await updatePreapprovalStatus(ctx.db, { status: 'offer_issued', updatedAt: ctx.now.toISOString(), id: loan.preapprovalId });
  }
  await emitLoanEvent(ctx, 'review.closed', loan, { reviewId: row.id, openedReason: row.openedReason, closedReason: 'cleared', note: decision.reason });
  return { review: toReview(row), loan };
}

/** Rejects a review: the loan is rejected with the decision's reason; `review.closed` goes with it. */
export async function rejectReview(ctx: LoanWriteContext, decision: ReviewDecision): Promise<DecidedReview> {
  const { row, repeated } = await closeWithDecision(ctx, decision, 'rejected');
  let loan = await getLoanRow(ctx.db, ctx.scope, row.loanId);
  if (repeated) return { review: toReview(row), loan };
  loan = await transitionLoan(ctx.db, loan, FROM.reject, { status: 'rejected', rejectionReason: decision.reason }, ctx.now);
  await emitLoanEvent(ctx, 'review.closed', loan, { reviewId: row.id, openedReason: row.openedReason, closedReason: 'rejected', note: decision.reason });
  return { review: toReview(row), loan };
}
