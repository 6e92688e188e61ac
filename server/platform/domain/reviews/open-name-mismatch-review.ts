import type { Db } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { CheckedBankAccount } from '../checkout/bank-account';
import { scorePercent } from '../checkout/ownership';
import { transitionLoan } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import { inUnitOfWork } from '../unit-of-work';
import { openReview } from './open-review';

/** Where a loan can be when its bank account is given, and so where clearing the review returns it. */
export const NAME_REVIEW_FROM = ['awaiting_acceptance', 'terms_accepted'] as const;

/**
 * The borrower confirmed a bank account in another name and the product asks for a review: the account is kept (by
 * `keep`, in the same unit of work), the loan is parked `under_review` and a `name_mismatch` review opens with the
 * comparison and the borrower's confirmation as evidence (the account number's last four digits only). Clearing
 * returns the loan to where it was; rejecting rejects it.
 */
export async function parkForNameReview(
  db: Db,
  ctx: Omit<LoanContext, 'db'>,
  loan: LoansTable,
  account: CheckedBankAccount,
  options: { confirmedAt: string; keep: (tx: Parameters<Parameters<typeof inUnitOfWork>[1]>[0]) => Promise<void> },
): Promise<LoansTable> {
  const from = loan.status as (typeof NAME_REVIEW_FROM)[number];
  return inUnitOfWork(db, async (tx) => {
    await options.keep(tx);
    const parked = await transitionLoan(tx, loan, [from], { status: 'under_review' }, ctx.now);
    await openReview({ ...ctx, db: tx }, parked, {
      reason: 'name_mismatch',
      evidence: {
        accountName: account.accountName,
        bankName: account.bankName,
        accountNumberLast4: account.accountNumber.slice(-4),
        nameOnRecord: account.nameMatch.nameOnRecord,
        nameMatch: account.nameMatch.status,
        scorePercent: scorePercent(account.nameMatch),
        confirmedAt: options.confirmedAt,
      },
      resumeWith: from,
    });
    return parked;
  });
}
