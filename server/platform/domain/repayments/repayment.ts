import type { Executor } from '../../db/database';
import type { Selectable } from 'kysely';
import type { LoanRepaymentsTable, LoanScheduleItemsTable } from '../../db/schema';
import type { Scope } from '../loans/loan';
import { getLoanRow } from '../loans/loan';
import type { RepaymentInitiator } from './repayment-initiator';

export { REPAYMENT_INITIATORS, type RepaymentInitiator } from './repayment-initiator';

export const REPAYMENT_METHODS = ['wallet', 'mandate', 'external', 'cash_wallet'] as const;
export type RepaymentMethod = (typeof REPAYMENT_METHODS)[number];

export interface LoanRepayment {
  id: string;
  organisationId: string;
  loanId: string;
  borrowerId: string;
  reference: string;
  method: RepaymentMethod;
  initiatedBy: RepaymentInitiator;
  status: 'pending' | 'completed' | 'failed';
  amountKobo: number;
  unallocatedKobo: number;
  feePortionKobo: number;
  interestPortionKobo: number;
  principalPortionKobo: number;
  externalReference: string | null;
  ledgerTransactionRef: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toRepayment(row: LoanRepaymentsTable): LoanRepayment {
  return {
    id: row.id,
    organisationId: row.organisationId,
    loanId: row.loanId,
    borrowerId: row.borrowerId,
    reference: row.reference,
    method: row.method as RepaymentMethod,
    initiatedBy: row.initiatedBy as RepaymentInitiator,
    status: row.status as LoanRepayment['status'],
    amountKobo: row.amountKobo,
    unallocatedKobo: row.unallocatedKobo,
    feePortionKobo: row.feePortionKobo,
    interestPortionKobo: row.interestPortionKobo,
    principalPortionKobo: row.principalPortionKobo,
    externalReference: row.externalReference,
    ledgerTransactionRef: row.ledgerTransactionRef,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listRepayments(db: Executor, scope: Scope, loanId: string): Promise<LoanRepayment[]> {
  await getLoanRow(db, scope, loanId);
  const rows = await db.selectFrom('loanRepayments').selectAll().where('loanId', '=', loanId).orderBy('createdAt').orderBy('id').execute();
  return rows.map(toRepayment);
}

/** The public LoanRepaymentScheduleItem with `lateFeeKobo` added: due = totalKobo (fixed at generation) + lateFeeKobo. */
export function toScheduleItem(row: Selectable<LoanScheduleItemsTable>) {
  const lateFeeKobo = Number(row.lateFeeKobo ?? 0);
  return {
    id: row.id,
    organisationId: row.organisationId,
    loanId: row.loanId,
    installmentNumber: row.installmentNumber,
    dueDate: row.dueDate,
    principalKobo: row.principalKobo,
    interestKobo: row.interestKobo,
    feeKobo: row.feeKobo,
    lateFeeKobo,
    totalKobo: row.totalKobo,
    amountPaidKobo: row.amountPaidKobo,
    paidAt: row.paidAt,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
