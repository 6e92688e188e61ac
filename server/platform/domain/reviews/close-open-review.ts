import type { LoansTable } from '../../db/schema';
import type { LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';

/**
 * A loan under review that ends another way (cancelled by either side, rejected through the loan's own route) closes
 * its open review: `cancelled`, or `rejected` with the loan's reason. Only a loan `under_review` has one.
 */
export async function closeOpenReviewOf(ctx: LoanWriteContext, loanBefore: LoansTable, loanAfter: LoansTable, closedReason: 'cancelled' | 'rejected', options: { by: string; note: string | null }): Promise<void> {
  if (loanBefore.status !== 'under_review') return;
  const open = await ctx.db.selectFrom('loanReviews').select(['id', 'openedReason']).where('loanId', '=', loanBefore.id).where('status', '=', 'open').executeTakeFirst();
  if (!open) return;
  const at = ctx.now.toISOString();
  await ctx.db.updateTable('loanReviews').set({ status: 'closed', closedReason, closedBy: options.by, note: options.note, closedAt: at, updatedAt: at }).where('id', '=', open.id).where('status', '=', 'open').execute();
  await emitLoanEvent(ctx, 'review.closed', loanAfter, { reviewId: open.id, openedReason: open.openedReason, closedReason, note: options.note });
}
