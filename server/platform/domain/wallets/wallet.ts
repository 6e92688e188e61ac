import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { findAccount, type AccountRef, type LedgerAccount } from '../ledger/ledger';

/**
 * A borrower's cash wallet is a `borrower_wallet` ledger account (code: borrower id), opened on
 * demand: by a disbursement to `borrower_wallet`, or by an operator's sandbox credit. Until the
 * hosted checkout's claim flow exists, having a wallet account is what "a claimed platform
 * account" means for `cash_wallet` repayments and payouts.
 *
 * The account is a guarded liability: its running balance is the signed sum of its postings and
 * never rises above zero, so what the borrower holds is `-balanceKobo` and never goes negative,
 * also under concurrent debits (the bound is checked in the UPDATE that moves it).
 */
export interface WalletOwner {
  organisationId: string;
  mode: Mode;
  borrowerId: string;
}

export const walletRef = (owner: WalletOwner): AccountRef => ({
  organisationId: owner.organisationId,
  mode: owner.mode,
  kind: 'borrower_wallet',
  code: owner.borrowerId,
});

/** The wallet account with its current running balance (read fresh, never from a cache). */
export const findWallet = (db: Executor, owner: WalletOwner): Promise<LedgerAccount | undefined> => findAccount(db, walletRef(owner));

/** What a guarded credit-normal account holds for the borrower, as a non-negative kobo amount. */
export const heldKobo = (account: Pick<LedgerAccount, 'balanceKobo'>): number => 0 - Number(account.balanceKobo); // 0 - x: never -0

/** The borrower's wallet, or 422 `no_borrower_wallet` (nothing is opened here). */
export async function requireWallet(db: Executor, owner: WalletOwner): Promise<LedgerAccount> {
  const wallet = await findWallet(db, owner);
  if (!wallet) {
    throw new AppError(
      'no_borrower_wallet',
      'The borrower has no cash wallet (no claimed platform account): nothing was changed. A wallet opens with a borrower_wallet disbursement.',
    );
  }
  return wallet;
}

/** 409 `insufficient_wallet_balance` when the wallet holds less than `amountKobo`. */
export function requireBalance(wallet: Pick<LedgerAccount, 'balanceKobo'>, amountKobo: number, what = 'cash wallet'): void {
  const held = heldKobo(wallet);
  if (held < amountKobo) {
    throw new AppError('insufficient_wallet_balance', `The borrower's ${what} holds ${held} kobo, less than ${amountKobo} kobo: nothing was changed.`, {
      heldKobo: held,
      amountKobo,
    });
  }
}
