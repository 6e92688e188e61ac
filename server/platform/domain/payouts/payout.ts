import type { Executor } from '../../db/database';
import type { Mode, PayoutRequestsTable } from '../../db/schema';
import { findOwned } from '../find-owned';
import type { Scope } from '../scope';

export const PAYOUT_STATUSES = ['requested', 'settling', 'completed', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The public PayoutRequest. */
export interface PayoutRequest {
  id: string;
  organisationId: string;
  borrowerId: string;
  loanId: string | null;
  currency: string;
  amountKobo: number;
  bankName: string;
  bankCode: string;
  accountNumber: string;
  accountName: string | null;
  status: PayoutStatus;
  rejectionReason: string | null;
  settledAt: string | null;
  settledByUserId: string | null;
  settlementReference: string | null;
  ledgerTransactionRef: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toPayout(row: PayoutRequestsTable): PayoutRequest {
  return {
    id: row.id,
    organisationId: row.organisationId,
    borrowerId: row.borrowerId,
    loanId: row.loanId,
    currency: row.currency,
    amountKobo: Number(row.amountKobo),
    bankName: row.bankName,
    bankCode: row.bankCode,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    status: row.status as PayoutStatus,
    rejectionReason: row.rejectionReason,
    settledAt: row.settledAt,
    settledByUserId: row.settledByUserId,
    settlementReference: row.settlementReference,
    ledgerTransactionRef: row.ledgerTransactionRef,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Ledger references of a payout's movements; `ledgerTransactionRef` names the latest one. */
export const payoutLedgerRef = (id: string, step: 'reserve' | 'settle' | 'release') => `PYT-${id}-${step}`;

export async function getPayout(db: Executor, scope: Scope, id: string): Promise<PayoutRequest> {
  const row = await findOwned(db, 'payoutRequests', scope, id, 'payout');
  return toPayout(row);
}

export async function listPayouts(
  db: Executor,
  scope: Scope,
  options: { status?: PayoutStatus; limit: number },
): Promise<PayoutRequest[]> {
  const rows = await db
    .selectFrom('payoutRequests')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .$if(options.status !== undefined, (q) => q.where('status', '=', options.status!))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  return rows.map(toPayout);
}
