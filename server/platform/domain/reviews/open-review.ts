import type { Insertable } from 'kysely';
import type { LoanReviewsTable, LoansTable } from '../../db/schema';
import { toJson } from '../../db/database';
import { newId } from '../ids';
import type { KycAttestation } from '../loans/attestation';
import type { LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { SERVICE_APPROVAL_MODE } from '../products/product';
import { toReview, type Review, type ReviewReason } from './review';

/** What clearing does: issue the offer (an approval or a pushed decision waited), or record the attestation passed. */
export type ResumeWith = LoanReviewsTable['resumeWith'];

/**
 * Opens the loan's review, in the transaction that parked it `under_review`, and sends `review.opened`. The partner
 * decides its own loans; the service's staff decide the loans the service lends.
 */
export async function openReview(ctx: LoanWriteContext, loan: LoansTable, options: { reason: ReviewReason; evidence: Record<string, unknown>; resumeWith: ResumeWith }): Promise<Review> {
  const at = ctx.now.toISOString();
  const row: Insertable<LoanReviewsTable> & LoanReviewsTable = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    decidedBy: loan.approvalMode === SERVICE_APPROVAL_MODE ? 'service' : 'partner',
    openedReason: options.reason,
    evidence: toJson(options.evidence),
    resumeWith: options.resumeWith,
    status: 'open',
    closedReason: null,
    closedBy: null,
    note: null,
    openedAt: at,
    closedAt: null,
    updatedAt: at,
  };
  await ctx.db.insertInto('loanReviews').values(row).execute();
  await emitLoanEvent(ctx, 'review.opened', loan, { reviewId: row.id, openedReason: row.openedReason });
  return toReview(row);
}

/** A review for an AML screen that did not come back clear: its reason and the screen's evidence. */
export function openAmlReview(ctx: LoanWriteContext, loan: LoansTable, attestation: KycAttestation, resumeWith: ResumeWith): Promise<Review> {
  return openReview(ctx, loan, {
    reason: attestation.amlScreenStatus === 'hit' ? 'aml_hit' : 'aml_not_screened',
    evidence: {
      attestationId: attestation.id,
      amlScreenStatus: attestation.amlScreenStatus,
      amlScreenDetail: attestation.amlScreenDetail,
      amlScreenedAt: attestation.amlScreenedAt,
      attestedChecks: attestation.attestedChecks,
    },
    resumeWith,
  });
}
