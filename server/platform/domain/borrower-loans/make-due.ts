import type { Executor } from '../../db/database';
import { AppError } from '../errors';

export interface MadeDue {
  loanId: string;
  installmentNumber: number;
  previousDueDate: string;
  dueDate: string;
}

/**
 * Test mode only: the loan's next unpaid instalment falls due now, so the collector (and the borrower's page) can be
 * tried without waiting. Only that instalment's due date moves; nothing else (amounts, other instalments, arrears) does.
 * A live loan is refused: its schedule is the borrower's contract. The one exception is a rehearsal of live mode
 * (`rehearsal`: the caller saw a rehearsal's server running on this database, docs/rehearsal.md), whose live loans
 * are the rehearsal's own and whose providers are local fakes.
 */
export async function makeNextInstalmentDue(db: Executor, loanId: string, now: Date, options: { rehearsal?: boolean } = {}): Promise<MadeDue> {
  const loan = await db.selectFrom('loans').select(['id', 'mode', 'status']).where('id', '=', loanId).executeTakeFirst();
  if (!loan) throw new AppError('NOT_FOUND', `No loan ${loanId}.`);
  if (loan.mode !== 'test' && !options.rehearsal) {
    throw new AppError('SANDBOX_ONLY', 'loan make-due moves test-mode loans only (and live ones while a rehearsal runs): a live loan\'s schedule is the borrower\'s contract.');
  }
  if (loan.status !== 'active' && loan.status !== 'disbursed') throw new AppError('invalid_loan_state', `The loan is ${loan.status}; only a lent loan that still owes has an instalment to make due.`);
  const next = await db
    .selectFrom('loanScheduleItems')
    .select(['id', 'installmentNumber', 'dueDate'])
    .where('loanId', '=', loan.id)
    .where('status', 'in', ['pending', 'partial', 'overdue'])
    .orderBy('installmentNumber')
    .limit(1)
    .executeTakeFirst();
  if (!next) throw new AppError('invalid_loan_state', 'The loan has no unpaid instalment.');
  const dueDate = now.toISOString();
  await db.updateTable('loanScheduleItems').set({ dueDate, updatedAt: dueDate }).where('id', '=', next.id).execute();
  return { loanId: loan.id, installmentNumber: next.installmentNumber, previousDueDate: next.dueDate, dueDate };
}
