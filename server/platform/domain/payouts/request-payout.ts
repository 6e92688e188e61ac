import type { Executor } from '../../db/database';
import type { Mode, PayoutRequestsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { ensureAccount, findAccount, postTransaction, type AccountRef } from '../ledger/ledger';
import { heldKobo, requireBalance, requireWallet, walletRef } from '../wallets/wallet';
import { isValidNuban } from './nuban';
import { payoutLedgerRef, toPayout, type PayoutRequest } from './payout';
import type { Scope } from '../scope';

export interface RequestPayoutOptions {
  scope: Scope;
  borrowerId: string;
  loanId: string | null;
  amountKobo: number;
  bankName: string;
  bankCode: string;
  accountNumber: string;
  accountName: string | null;
  now: Date;
}

/**
 * Raises a payout against the borrower's balance on the ledger and reserves it in the same
 * transaction: source +A, payout reservation −A. The source is the borrower's payable when
 * `loanId` names a loan disbursed to `borrower_bank_account` (the money awaiting payout), and the
 * borrower's cash wallet otherwise. The source is a guarded account, so two concurrent payouts can
 * never reserve more than it holds. Settled or rejected off-platform by an operator.
 */
export async function requestPayout(db: Executor, options: RequestPayoutOptions): Promise<PayoutRequest> {
  const { scope } = options;
  const borrower = await db
    .selectFrom('borrowers')
    .select('id')
    .where('id', '=', options.borrowerId)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
  if (!borrower) throw notFound('borrower');
  if (/^\d{3}$/.test(options.bankCode) && !isValidNuban(options.bankCode, options.accountNumber)) {
    throw new AppError('account_number_invalid', `accountNumber: ${options.accountNumber} is not a valid NUBAN for bank code ${options.bankCode} (check digit mismatch)`);
  }
  let sourceKind: 'borrower_wallet' | 'borrower_payable' = 'borrower_wallet';
  if (options.loanId) {
    const loan = await db
      .selectFrom('loans')
      .select(['borrowerId', 'settlementDestination'])
      .where('id', '=', options.loanId)
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
    if (!loan) throw notFound('loan');
    if (loan.borrowerId !== options.borrowerId) throw new AppError('unprocessable', 'loanId: the loan belongs to another borrower');
    if (loan.settlementDestination === 'borrower_bank_account') sourceKind = 'borrower_payable';
  }
  const owner = { ...scope, borrowerId: options.borrowerId };
  const sourceRef: AccountRef = sourceKind === 'borrower_wallet' ? walletRef(owner) : { ...scope, kind: 'borrower_payable', code: options.borrowerId };
  const found = sourceKind === 'borrower_wallet' ? await requireWallet(db, owner) : await findAccount(db, sourceRef);
  requireBalance(found ?? { balanceKobo: 0 }, options.amountKobo, sourceKind === 'borrower_wallet' ? 'cash wallet' : 'disbursed funds awaiting payout');

  const id = newId();
  const at = options.now.toISOString();
  const reference = payoutLedgerRef(id, 'reserve');
  const source = await ensureAccount(db, sourceRef, options.now);
  const reservation = await ensureAccount(db, { ...scope, kind: 'payout_reservation', code: options.borrowerId }, options.now);
  try {
    await postTransaction(db, {
      ...scope,
      reference,
      kind: 'payout_reservation',
      description: `payout ${id} requested for borrower ${options.borrowerId}`,
      postings: [
        { account: source, amountKobo: options.amountKobo },
        { account: reservation, amountKobo: -options.amountKobo },
      ],
      now: options.now,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') {
      const now = await findAccount(db, sourceRef);
      throw new AppError('insufficient_wallet_balance', `The borrower's balance (${now ? heldKobo(now) : 0} kobo) is less than ${options.amountKobo} kobo: nothing was changed.`);
    }
    throw error;
  }
  const row: PayoutRequestsTable = {
    id,
    organisationId: scope.organisationId,
    mode: scope.mode,
    borrowerId: options.borrowerId,
    loanId: options.loanId,
    currency: source.currency,
    amountKobo: options.amountKobo,
    bankName: options.bankName,
    bankCode: options.bankCode,
    accountNumber: options.accountNumber,
    accountName: options.accountName,
    status: 'requested',
    sourceKind,
    rejectionReason: null,
    settledAt: null,
    settledByUserId: null,
    settlementReference: null,
    ledgerTransactionRef: reference,
    createdAt: at,
    updatedAt: at,
  };
  await db.insertInto('payoutRequests').values(row).execute();
  return toPayout(row);
}
