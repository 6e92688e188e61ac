import type { Db } from '../../db/database';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { toLoan, type Loan } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import type { Scope } from '../scope';
import type { Services } from '../services';
import { inUnitOfWork } from '../unit-of-work';
import { clearReview, rejectReview } from './decide-review';
import { reviewRow, type Review } from './review';

export interface ReviewMember {
  userId: string;
  scope: Scope;
  origin: RequestOrigin;
}

export type MemberDecision = 'clear' | 'reject';

/**
 * A dashboard member decides one of the partner's reviews: the API's own `clearReview` / `rejectReview` (same state
 * rules, same events, same 409 `review_closed` with nothing changed), by `user:<id>`, in one unit of work with the
 * audit row (`review_cleared` / `review_rejected`). Deciding a review the same way again answers it unchanged and
 * writes no audit row. Texts to the borrower (the offer's link) go out after the commit, as on the API.
 */
export async function decideReviewAsMember(
  db: Db,
  services: LoanContext['platform'] & Pick<Services, 'sms' | 'logger'>,
  member: ReviewMember,
  now: Date,
  input: { reviewId: string; decision: MemberDecision; reason: string },
): Promise<{ review: Review; loan: Loan; changed: boolean }> {
  const committed: Array<(services: Pick<Services, 'sms'>) => Promise<void>> = [];
  const result = await inUnitOfWork(db, async (tx) => {
    const ctx: LoanContext<typeof tx> = { db: tx, platform: services, now, scope: member.scope, actor: `user:${member.userId}`, afterCommit: (work) => void committed.push(work) };
    const before = await reviewRow(tx, member.scope, input.reviewId, 'partner');
    const decide = input.decision === 'clear' ? clearReview : rejectReview;
    const decided = await decide(ctx, { reviewId: input.reviewId, decidedBy: 'partner', reason: input.reason, by: ctx.actor });
    const changed = before.status === 'open';
    if (changed) {
      await writeAudit(tx, {
        userId: member.userId,
        organisationId: member.scope.organisationId,
        action: input.decision === 'clear' ? 'review_cleared' : 'review_rejected',
        target: `review:${before.id} loan:${before.loanId}`,
        origin: member.origin,
        now,
      });
    }
    return { review: decided.review, loan: toLoan(decided.loan, services.secrets), changed };
  });
  for (const work of committed) {
    void work(services).catch((error: unknown) => services.logger.error({ err: error, decision: input.decision }, 'after-commit work failed'));
  }
  return result;
}
