import type { Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { Scope } from '../scope';
import { findAccount, postTransaction, ensureAccount } from './ledger';

/** A product's organisation never changes: remembered per process (products are few). */
const productLenders = new Map<string, string>();

/**
 * Whose books a loan's receivable, collections, income, write-off and recoveries live in (docs/ledger.md): its
 * lender's, i.e. the organisation that owns the loan's product, in the loan's mode. A lending loan's product is the
 * partner's own; patient financing's product belongs to the fixed financing lender (the service), although the loan
 * row belongs to the partner. Reading it from the product keeps the lending core free of any financing import.
 */
export async function loanBooks(db: Executor, loan: Pick<LoansTable, 'mode' | 'loanProductId'>): Promise<Scope> {
  let lender = productLenders.get(loan.loanProductId);
  if (!lender) {
    lender = (await db.selectFrom('loanProducts').select('organisationId').where('id', '=', loan.loanProductId).executeTakeFirstOrThrow()).organisationId;
    productLenders.set(loan.loanProductId, lender);
  }
  return { organisationId: lender, mode: loan.mode };
}

/**
 * Writes a defaulted loan's remaining principal off, in the caller's transaction: the loan's receivable in its books
 * goes to zero and the same amount lands in its `loan_write_off` account (the owner's loss). The receivable's running
 * balance is the amount, read after the caller moved the loan to `defaulted` (a repayment that committed first has
 * already reduced it; one that comes later sees `defaulted` and books a recovery). Nothing is posted when nothing is
 * left; the reference `WOF-<loan id>` makes a second write-off of the same loan impossible.
 */
export async function writeOffLoan(db: Executor, loan: Pick<LoansTable, 'id' | 'mode' | 'loanProductId'>, now: Date): Promise<number> {
  const books = await loanBooks(db, loan);
  const receivable = await findAccount(db, { ...books, kind: 'loan_receivable', code: loan.id });
  const amount = receivable ? Number(receivable.balanceKobo) : 0;
  if (!receivable || amount <= 0) return 0;
  const loss = await ensureAccount(db, { ...books, kind: 'loan_write_off', code: loan.id }, now);
  await postTransaction(db, {
    ...books,
    reference: `WOF-${loan.id}`,
    kind: 'write_off',
    description: `loan ${loan.id} defaulted: outstanding principal written off`,
    postings: [
      { account: receivable, amountKobo: -amount },
      { account: loss, amountKobo: amount },
    ],
    now,
  });
  return amount;
}

export interface ScopeBalance {
  kind: string;
  code: string;
  currency: string;
  /** The sum of the account's postings (debit positive, credit negative), in kobo. */
  balanceKobo: number;
}

/**
 * Every account of one scope (organisation and mode) with its balance, ordered by kind then code: what
 * `admin ledger balances` prints. Balances are the sums of postings, so unguarded accounts read true too.
 */
export async function scopeBalances(db: Executor, scope: Scope): Promise<ScopeBalance[]> {
  const rows = await db
    .selectFrom('ledgerAccounts as a')
    .leftJoin('ledgerPostings as p', 'p.accountId', 'a.id')
    .select(['a.kind', 'a.code', 'a.currency', (eb) => eb.fn.coalesce(eb.fn.sum<number>('p.amountKobo'), eb.lit(0)).as('balanceKobo')])
    .where('a.organisationId', '=', scope.organisationId)
    .where('a.mode', '=', scope.mode)
    .groupBy(['a.kind', 'a.code', 'a.currency'])
    .orderBy('a.kind')
    .orderBy('a.code')
    .execute();
  return rows.map((r) => ({ kind: r.kind, code: r.code, currency: r.currency, balanceKobo: Number(r.balanceKobo) }));
}
