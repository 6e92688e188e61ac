import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { isCreditNormal } from './ledger';

export interface LedgerCheck {
  ok: boolean;
  accounts: number;
  transactions: number;
  /** Sum of every posting: always 0 in a sound ledger. */
  ledgerSumKobo: number;
  /** Transactions whose postings do not sum to zero. */
  unbalancedTransactions: string[];
  /** Guarded accounts whose running balance differs from the sum of their postings. */
  balanceMismatches: Array<{ accountId: string; kind: string; code: string; balanceKobo: number; postingsKobo: number }>;
  /** Guarded accounts on the wrong side of zero: below it, or above it for credit-normal ones (wallets, payables, reservations). */
  negativeGuardedAccounts: string[];
}

/**
 * Reconciliation: every transaction balances, the whole ledger sums to zero, and every account
 * that keeps a running balance (the guarded ones) agrees with the sum of its postings.
 */
export async function checkLedger(db: Executor): Promise<LedgerCheck> {
  const total = await db.selectFrom('ledgerPostings').select(sql<number>`coalesce(sum(amount_kobo), 0)`.as('sum')).executeTakeFirstOrThrow();
  const unbalanced = await db
    .selectFrom('ledgerPostings')
    .select(['transactionId'])
    .groupBy('transactionId')
    .having(sql`sum(amount_kobo)`, '<>', 0)
    .execute();
  const guarded = await db
    .selectFrom('ledgerAccounts as a')
    .leftJoin('ledgerPostings as p', 'p.accountId', 'a.id')
    .select(['a.id', 'a.kind', 'a.code', 'a.balanceKobo', sql<number>`coalesce(sum(p.amount_kobo), 0)`.as('postingsKobo')])
    .where('a.allowNegative', '=', false)
    .groupBy(['a.id', 'a.kind', 'a.code', 'a.balanceKobo'])
    .execute();
  const mismatches = guarded
    .filter((a) => Number(a.balanceKobo) !== Number(a.postingsKobo))
    .map((a) => ({ accountId: a.id, kind: a.kind, code: a.code, balanceKobo: Number(a.balanceKobo), postingsKobo: Number(a.postingsKobo) }));
  const negative = guarded
    .filter((a) => (isCreditNormal(a.kind) ? Number(a.postingsKobo) > 0 : Number(a.postingsKobo) < 0))
    .map((a) => a.id);
  const counts = await db
    .selectFrom('ledgerAccounts')
    .select([sql<number>`count(*)`.as('accounts'), sql<number>`(select count(*) from ledger_transactions)`.as('transactions')])
    .executeTakeFirstOrThrow();
  const ledgerSumKobo = Number(total.sum);
  return {
    ok: ledgerSumKobo === 0 && unbalanced.length === 0 && mismatches.length === 0 && negative.length === 0,
    accounts: Number(counts.accounts),
    transactions: Number(counts.transactions),
    ledgerSumKobo,
    unbalancedTransactions: unbalanced.map((u) => u.transactionId),
    balanceMismatches: mismatches,
    negativeGuardedAccounts: negative,
  };
}
