import type { Tx } from '../../db/database';
import { AppError, notFound } from '../errors';
import { writeOffLoan } from '../ledger/loan-books';
import { emitLoanEvent } from '../loans/loan-events';
import type { LoanWriteContext } from '../loans/loan-context';

const DAY_MS = 86_400_000;

/**
 * A staff member writes off an active loan in arrears before the automatic default (the arrears sweep's rule): the
 * loan becomes `defaulted`, its receivable moves to the write-off account (`writeOffLoan`), `loan.defaulted` is
 * emitted — all in the caller's transaction. A loan not active and in arrears is refused (`invalid_loan_state`).
 */
export async function writeOffLoanByStaff(ctx: Omit<LoanWriteContext, 'scope'>, options: { loanId: string; reason: string }): Promise<{ loanId: string; writtenOffKobo: number; status: 'defaulted' }> {
  const db: Tx = ctx.db;
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', options.loanId).executeTakeFirst();
  if (!loan) throw notFound('loan');
  if (loan.status !== 'active' || !loan.inArrears) {
    throw new AppError('invalid_loan_state', `loan ${loan.id} is ${loan.status}${loan.inArrears ? '' : ' and not in arrears'}: only an active loan in arrears can be written off`);
  }
  const at = ctx.now.toISOString();
  const moved = await db.updateTable('loans').set({ status: 'defaulted', updatedAt: at }).where('id', '=', loan.id).where('status', '=', 'active').executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('invalid_loan_state', `loan ${loan.id} changed meanwhile; re-read it`);
  const writtenOffKobo = await writeOffLoan(db, loan, ctx.now);
  const daysPastDue = loan.arrearsSince ? Math.floor((ctx.now.getTime() - new Date(loan.arrearsSince).getTime()) / DAY_MS) : 0;
  await emitLoanEvent({ ...ctx, scope: { organisationId: loan.organisationId, mode: loan.mode } }, 'loan.defaulted', { ...loan, status: 'defaulted' }, {
    daysPastDue,
    outstandingKobo: loan.outstandingKobo,
    arrearsSince: loan.arrearsSince,
  });
  return { loanId: loan.id, writtenOffKobo, status: 'defaulted' };
}
