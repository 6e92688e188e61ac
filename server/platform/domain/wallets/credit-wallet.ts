import type { Executor } from '../../db/database';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { ensureAccount, postTransaction } from '../ledger/ledger';
import { heldKobo, findWallet, walletRef } from './wallet';

export interface CreditWalletOptions {
  borrowerId: string;
  amountKobo: number;
  now: Date;
}

export interface WalletBalance {
  borrowerId: string;
  organisationId: string;
  mode: 'test';
  currency: string;
  balanceKobo: number;
  ledgerTransactionRef: string;
}

/**
 * Operator sandbox tool (`admin wallet credit`): tops up a test-mode borrower's cash wallet, opening
 * it if needed. The money arrives in the wallet clearing cash (`settlement_cash`, code
 * `borrower_wallet`, where wallet money from disbursements sits too): cash +N, wallet −N. Live
 * borrowers are refused: real money only enters a wallet through a disbursement.
 */
export async function creditWallet(db: Executor, options: CreditWalletOptions): Promise<WalletBalance> {
  if (!Number.isSafeInteger(options.amountKobo) || options.amountKobo <= 0) {
    throw new AppError('invalid_request', 'amount-kobo: must be a positive whole number of kobo');
  }
  const borrower = await db.selectFrom('borrowers').select(['id', 'organisationId', 'mode']).where('id', '=', options.borrowerId).executeTakeFirst();
  if (!borrower) throw notFound('borrower');
  if (borrower.mode !== 'test') {
    throw new AppError('SANDBOX_ONLY', `wallet credit is a sandbox tool: borrower ${borrower.id} is a live-mode borrower; nothing was credited`);
  }
  const owner = { organisationId: borrower.organisationId, mode: 'test' as const, borrowerId: borrower.id };
  const wallet = await ensureAccount(db, walletRef(owner), options.now);
  const cash = await ensureAccount(db, { organisationId: owner.organisationId, mode: 'test', kind: 'settlement_cash', code: 'borrower_wallet' }, options.now);
  const reference = `WCR-${newId()}`;
  await postTransaction(db, {
    organisationId: owner.organisationId,
    mode: 'test',
    reference,
    kind: 'sandbox_wallet_credit',
    description: `sandbox credit to the wallet of borrower ${borrower.id}`,
    postings: [
      { account: cash, amountKobo: options.amountKobo },
      { account: wallet, amountKobo: -options.amountKobo },
    ],
    now: options.now,
  });
  const after = (await findWallet(db, owner))!;
  return { borrowerId: borrower.id, organisationId: owner.organisationId, mode: 'test', currency: after.currency, balanceKobo: heldKobo(after), ledgerTransactionRef: reference };
}
