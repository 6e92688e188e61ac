import type { Executor } from '../../db/database';
import type { LoanMandatesTable, Mode } from '../../db/schema';
import { findOwned } from '../find-owned';
import type { Scope } from '../scope';

export const MANDATE_PROVIDERS = ['rail_a', 'rail_b', 'rail_c'] as const;
export type MandateProvider = (typeof MANDATE_PROVIDERS)[number];
export const MANDATE_STATUSES = ['initiated', 'pending', 'active', 'failed', 'cancelled', 'expired'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/** The public LoanMandate. The provider's authorisation code is never serialised. */
export interface LoanMandate {
  id: string;
  organisationId: string;
  borrowerId: string;
  loanId: string;
  provider: MandateProvider;
  status: MandateStatus;
  reference: string;
  email: string;
  accountNumber: string | null;
  bankCode: string | null;
  amountKobo: number;
  authorizationUrl: string | null;
  activatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toMandate(row: LoanMandatesTable): LoanMandate {
  return {
    id: row.id,
    organisationId: row.organisationId,
    borrowerId: row.borrowerId,
    loanId: row.loanId,
    provider: row.provider as MandateProvider,
    status: row.status as MandateStatus,
    reference: row.reference,
    email: row.email,
    accountNumber: row.accountNumber,
    bankCode: row.bankCode,
    amountKobo: row.amountKobo,
    authorizationUrl: row.authorizationUrl,
    activatedAt: row.activatedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function getMandateRow(db: Executor, scope: Scope, id: string): Promise<LoanMandatesTable> {
  const row = await findOwned(db, 'loanMandates', scope, id, 'mandate');
  return row;
}

/** Why a mandate ended without becoming active (the checkout contract's words). */
export type { MandateFailure } from '../../../shared/checkout-contract';
import type { MandateFailure } from '../../../shared/checkout-contract';

export function mandateFailure(row: Pick<LoanMandatesTable, 'status' | 'providerStatus'>): MandateFailure | null {
  if (row.status === 'expired') return 'expired';
  if (row.status === 'failed' && row.providerStatus === 'refused') return 'declined';
  if (row.status === 'failed' || row.status === 'cancelled') return 'failed';
  return null;
}

/** A mandate is chargeable only when active, confirmed by the provider, and holding a code. */
export function isChargeable(row: LoanMandatesTable): boolean {
  return row.status === 'active' && row.provider !== 'rail_c' && row.providerStatus === 'active' && row.authorizationCodeSealed !== null;
}

/**
 * The mandate a loan's checkout shows and works on: the loan's active one when it has one, else its latest. After
 * lending, a borrower's change of account sets up a newer mandate that is not the loan's until it takes over; the
 * checkout never mistakes it for its own.
 */
export async function currentMandateRow(db: Executor, loanId: string): Promise<LoanMandatesTable | undefined> {
  const loan = await db.selectFrom('loans').select('activeMandateId').where('id', '=', loanId).executeTakeFirst();
  if (loan?.activeMandateId) {
    const active = await db.selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId).executeTakeFirst();
    if (active) return active;
  }
  return db.selectFrom('loanMandates').selectAll().where('loanId', '=', loanId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}
