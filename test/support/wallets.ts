import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { creditWallet } from '../../server/platform/domain/wallets/credit-wallet';
import { findWallet, heldKobo } from '../../server/platform/domain/wallets/wallet';
import type { TestApp } from './harness';

/** What the borrower's cash wallet holds (undefined when the borrower has none). */
export async function walletBalance(app: TestApp, organisationId: string, borrowerId: string, mode: 'test' | 'live' = 'test') {
  const wallet = await findWallet(app.platform.db, { organisationId, mode, borrowerId });
  return wallet && heldKobo(wallet);
}

/** The operator's sandbox top-up (`admin wallet credit`), in process. */
export function topUpWallet(app: TestApp, borrowerId: string, amountKobo: number) {
  return app.platform.db.transaction().execute((trx) => creditWallet(trx, { borrowerId, amountKobo, now: new Date() }));
}

/** Counts of the rows a refused money movement must not change. */
export async function moneyRowCounts(app: TestApp) {
  const counts: Record<string, number> = {};
  for (const t of ['ledgerTransactions', 'ledgerPostings', 'loanRepayments', 'payoutRequests', 'events'] as const) {
    counts[t] = (await app.platform.db.selectFrom(t).select('id').execute()).length;
  }
  return counts;
}

export const ledgerIsSound = async (app: TestApp) => checkLedger(app.platform.db);
