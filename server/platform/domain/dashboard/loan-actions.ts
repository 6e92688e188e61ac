import type { Db } from '../../db/database';
import { approveLoan, rejectLoan } from '../loans/approve-loan';
import { disburseLoan } from '../loans/disburse-loan';
import { getLoanRow, toLoan, type Loan } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import type { LoanAction } from '../loans/loan-timeline';
import { cancelLoan } from '../loans/respond-to-offer';
import type { Scope } from '../scope';
import type { Services } from '../services';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type AuditAction, type RequestOrigin } from './audit';

const AUDIT: Record<LoanAction, AuditAction> = {
  approve: 'loan_approved',
  reject: 'loan_rejected',
  cancel: 'loan_cancelled',
  disburse: 'loan_disbursed',
};

export interface DashboardLoanActor {
  userId: string;
  scope: Scope;
  origin: RequestOrigin;
}

/**
 * A dashboard member approves, rejects, cancels or disburses a loan: the partner API's own use cases (same state
 * rules, same events, same 409 `invalid_loan_state` / `insufficient_pool_funds` with nothing changed), run in one unit
 * of work with the audit row. A repeat that changes nothing (reject a rejected loan, cancel a cancelled one) answers
 * the loan and writes no audit row. Texts to the borrower go out after the commit, as on the API.
 */
export async function actOnLoan(
  db: Db,
  services: LoanContext['platform'] & Pick<Services, 'sms' | 'logger'>,
  actor: DashboardLoanActor,
  now: Date,
  loanId: string,
  action: LoanAction,
  input: { reason?: string; notes?: string } = {},
): Promise<{ loan: Loan; changed: boolean }> {
  const committed: Array<(services: Pick<Services, 'sms'>) => Promise<void>> = [];
  const result = await inUnitOfWork(db, async (tx) => {
    const ctx: LoanContext<typeof tx> = {
      db: tx,
      platform: services,
      now,
      scope: actor.scope,
      actor: `dashboard-user:${actor.userId}`,
      afterCommit: (work) => void committed.push(work),
    };
    const before = await getLoanRow(tx, actor.scope, loanId);
    const after =
      action === 'approve'
        ? (await approveLoan(ctx, { loanId, notes: input.notes })).loan
        : action === 'reject'
          ? await rejectLoan(ctx, { loanId, reason: input.reason, notes: input.notes })
          : action === 'cancel'
            ? await cancelLoan(ctx, { loanId, reason: input.reason ?? null, cancelledBy: 'tenant' })
            : await disburseLoan(ctx, loanId);
    const changed = after.status !== before.status;
    if (changed) {
      await writeAudit(tx, { userId: actor.userId, organisationId: actor.scope.organisationId, action: AUDIT[action], target: `loan:${loanId}`, origin: actor.origin, now });
    }
    return { loan: toLoan(after, services.secrets), changed };
  });
  for (const work of committed) {
    void work(services).catch((error: unknown) => services.logger.error({ err: error, action }, 'after-commit work failed'));
  }
  return result;
}
