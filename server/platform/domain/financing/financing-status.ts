import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { getLoanRow } from '../loans/loan';
import type { LoanWriteContext } from '../loans/loan-context';
import { cancelLoan } from '../loans/respond-to-offer';
import type { Secrets } from '../secrets';
import { getApplicationRow, toInitiation, type LoanInitiation } from './financing-application';
import type { Scope } from '../scope';


/** `GET /sdk/loans/{loanId}`: the initiation record as it stands. */
export async function getFinancingStatus(db: Executor, secrets: Pick<Secrets, 'decrypt'>, scope: Scope, loanId: string): Promise<LoanInitiation> {
  const app = await getApplicationRow(db, scope, loanId);
  const loan = await getLoanRow(db, scope, loanId);
  return toInitiation(app, loan, secrets);
}

/**
 * The partner cancels before disbursement: the lending core's cancel (one conditional UPDATE; `loan.cancelled` follows
 * as the spec-B event and moves the application to `cancelled` in the same transaction). Idempotent.
 */
export async function cancelFinancing(ctx: LoanWriteContext, loanId: string, reason: string | null): Promise<LoanInitiation> {
  const app = await getApplicationRow(ctx.db, ctx.scope, loanId);
  if (['rejected', 'offer_rejected', 'expired'].includes(app.status)) {
    throw new AppError('invalid_loan_state', `The application is ${app.status}: there is nothing to cancel.`);
  }
  await cancelLoan(ctx, { loanId, reason, cancelledBy: 'tenant' });
  return getFinancingStatus(ctx.db, ctx.platform.secrets, ctx.scope, loanId);
}
