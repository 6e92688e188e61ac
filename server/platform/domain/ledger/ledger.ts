import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { guardedWriteBehind, precompiled, writeBehind } from '../../db/precompiled';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { newId } from '../ids';
import { kobo } from '../money';
import { BoundedMap } from '../../../shared/bounded-map';

/**
 * Double-entry ledger. A balance is the sum of an account's postings; every transaction's postings
 * sum to zero, so the whole ledger always sums to zero. Postings are never updated or deleted.
 * Guarded accounts keep a running `balance_kobo` (always the signed sum of their postings), bounded
 * in the same UPDATE that moves it, so the check and the debit are one atomic statement on both
 * databases. Debit-normal guarded accounts (capital pools, receivables) stay at or above zero;
 * credit-normal guarded accounts (what is owed to one borrower: wallet, payable, payout
 * reservation) stay at or below zero, i.e. what the borrower holds is `-balance_kobo` and can never
 * go negative. Unguarded accounts keep no running balance (it is the sum of their postings,
 * `accountBalance`): shared accounts such as the insurer's payable would otherwise be a row every
 * disbursement must lock.
 */
export type AccountKind =
  /** Partner capital available to lend, per pool code. Never negative. */
  | 'capital_pool'
  /** Where pool funding comes from (the partner's contributed capital). Contra account, negative. */
  | 'capital_contributions'
  /** Principal the borrower owes on one loan (code: loan id). */
  | 'loan_receivable'
  /** Cash that left a pool and is held for a settlement destination until paid out. */
  | 'settlement_cash'
  /** What the platform owes a borrower in their cash wallet (code: borrower id). Liability: guarded at or below zero. */
  | 'borrower_wallet'
  /** Disbursed funds owed to a borrower's bank account, awaiting payout (code: borrower id). Guarded at or below zero. */
  | 'borrower_payable'
  /** Requested payouts not yet settled or rejected, reserved from a wallet or payable (code: borrower id). Guarded at or below zero. */
  | 'payout_reservation'
  /** Owed to a merchant / provider (code: provider id or `unassigned`). */
  | 'merchant_wallet'
  /** Owed to the organisation (code: organisation id). */
  | 'organisation_wallet'
  /** Premiums owed to insurers (code: insurer name). */
  | 'insurance_payable'
  /** Borrower-borne premiums paid on the borrower's behalf, recovered through the loan's fees (code: loan id). */
  | 'insurance_receivable'
  /** The platform's own revenue, e.g. insurance commission (code: revenue line). */
  | 'platform_revenue'
  /** Repayments the partner collected on its own rail (method `external`); the cash is with the partner. */
  | 'external_collections'
  /** Repayments the service collected on a payment rail (method `mandate`; code: rail). */
  | 'rail_collections'
  /** Interest earned by the partner from repayments, awaiting settlement (code: organisation id). */
  | 'interest_income'
  /** Fees (late fees included) earned from repayments, awaiting settlement (code: organisation id). */
  | 'fee_income'
  /** Principal written off when a loan defaulted: the owner's loss (code: loan id). Debit-normal. */
  | 'loan_write_off'
  /** Principal collected on a loan after it was written off (code: organisation id). Credit-normal. */
  | 'recovery_income';

export interface AccountRef {
  organisationId: string;
  mode: Mode;
  kind: AccountKind;
  code: string;
  currency?: string;
}

export interface LedgerAccount {
  id: string;
  kind: string;
  code: string;
  currency: string;
  /** Maintained only for accounts that may not go negative; use `accountBalance` otherwise. */
  balanceKobo: number;
  allowNegative: boolean;
}

const MAY_GO_NEGATIVE: Record<AccountKind, boolean> = {
  capital_pool: false,
  capital_contributions: true,
  loan_receivable: false,
  settlement_cash: true,
  borrower_wallet: false,
  borrower_payable: false,
  payout_reservation: false,
  merchant_wallet: true,
  organisation_wallet: true,
  insurance_payable: true,
  insurance_receivable: false,
  platform_revenue: true,
  external_collections: true,
  rail_collections: true,
  interest_income: true,
  fee_income: true,
  loan_write_off: true,
  recovery_income: true,
};

/** Guarded liabilities: their running balance may never rise above zero (the guard is `<= 0`). */
const CREDIT_NORMAL: ReadonlySet<string> = new Set<AccountKind>(['borrower_wallet', 'borrower_payable', 'payout_reservation']);

/** Whether a guarded account of this kind is bounded above (`<= 0`) rather than below (`>= 0`). */
export const isCreditNormal = (kind: string): boolean => CREDIT_NORMAL.has(kind);

const selectAccount = precompiled((db, ref: { organisationId: string; mode: Mode; kind: string; code: string }) =>
  db
    .selectFrom('ledgerAccounts')
    .select(['id', 'kind', 'code', 'currency', 'balanceKobo', 'allowNegative'])
    .where('organisationId', '=', ref.organisationId)
    .where('mode', '=', ref.mode)
    .where('kind', '=', ref.kind)
    .where('code', '=', ref.code),
);

export async function findAccount(db: Executor, ref: AccountRef): Promise<LedgerAccount | undefined> {
  const row = (await selectAccount(db, { organisationId: ref.organisationId, mode: ref.mode, kind: ref.kind, code: ref.code })).rows[0];
  return row && { ...row, allowNegative: Boolean(row.allowNegative) };
}

/** Any account's balance: the sum of its postings. */
export async function accountBalance(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ledgerPostings')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amountKobo'), eb.lit(0)).as('balance'))
    .where('accountId', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/**
 * Account ids never change once committed, so shared accounts (pools, insurer payables, revenue)
 * are remembered per process. Only accounts read as already existing are remembered, never one
 * this transaction created: that one would vanish if the transaction rolled back.
 */
const knownAccounts = new BoundedMap<string, LedgerAccount>(50_000); // per-borrower accounts too: bounded, so a long-lived process does not grow with its borrowers
const createdHere = new WeakMap<Executor, Set<string>>();
const accountKey = (ref: AccountRef) => `${ref.organisationId}|${ref.mode}|${ref.kind}|${ref.code}`;

/**
 * Finds or opens the account; safe under concurrent callers. `likelyNew`: the account is usually
 * not there yet (one per borrower, met at the borrower's first loan), so the insert is tried first
 * and the read only follows when the row already exists: one statement instead of two for the
 * usual case, two as before otherwise.
 */
export async function ensureAccount(db: Executor, ref: AccountRef, now: Date, options: { likelyNew?: boolean } = {}): Promise<LedgerAccount> {
  const key = accountKey(ref);
  const known = knownAccounts.get(key);
  if (known) return known;
  if (!options.likelyNew) {
    const existing = await findAccount(db, ref);
    if (existing) {
      if (!createdHere.get(db)?.has(key)) knownAccounts.set(key, { ...existing, balanceKobo: 0 });
      return existing;
    }
  }
  // The row comes back from the insert itself; only a concurrent opener's row needs reading.
  const inserted = await db
    .insertInto('ledgerAccounts')
    .values(accountRow(ref, now))
    .onConflict((oc) => oc.columns(['organisationId', 'mode', 'kind', 'code']).doNothing())
    .returning(['id', 'kind', 'code', 'currency', 'balanceKobo', 'allowNegative'])
    .executeTakeFirst();
  let created = createdHere.get(db);
  if (!created) createdHere.set(db, (created = new Set()));
  created.add(key);
  if (inserted) return { ...inserted, allowNegative: Boolean(inserted.allowNegative) };
  return (await findAccount(db, ref))!;
}

/** Opens an account that cannot exist yet (one per loan, opened once by a guarded transition): one insert. */
export async function openAccount(db: Executor, ref: AccountRef, now: Date): Promise<LedgerAccount> {
  const row = accountRow(ref, now);
  await db.insertInto('ledgerAccounts').values(row).execute();
  return { id: row.id, kind: row.kind, code: row.code, currency: row.currency, balanceKobo: 0, allowNegative: row.allowNegative };
}

/** Accounts made by `newAccount` that no transaction has posted to yet, with the row to insert. */
const unopened = new WeakMap<LedgerAccount, ReturnType<typeof accountRow>>();

/**
 * An account that cannot exist yet (one per loan, opened once by a guarded transition), opened by
 * the first `postTransaction` that posts to it: its row is inserted there already holding that
 * transaction's movement, instead of inserted empty and then moved by a second statement.
 */
export function newAccount(ref: AccountRef, now: Date): LedgerAccount {
  const row = accountRow(ref, now);
  const account: LedgerAccount = { id: row.id, kind: row.kind, code: row.code, currency: row.currency, balanceKobo: 0, allowNegative: row.allowNegative };
  unopened.set(account, row);
  return account;
}

function accountRow(ref: AccountRef, now: Date) {
  const at = now.toISOString();
  return {
    id: newId(),
    organisationId: ref.organisationId,
    mode: ref.mode,
    kind: ref.kind,
    code: ref.code,
    currency: ref.currency ?? 'NGN',
    balanceKobo: 0,
    allowNegative: MAY_GO_NEGATIVE[ref.kind],
    createdAt: at,
    updatedAt: at,
  };
}

export interface Posting {
  account: Pick<LedgerAccount, 'id' | 'kind' | 'allowNegative'>;
  amountKobo: number;
}

export interface PostTransactionOptions {
  organisationId: string;
  mode: Mode;
  /** Unique business reference; posting the same reference twice is refused by the database. */
  reference: string;
  kind: string;
  description?: string;
  postings: Posting[];
  now: Date;
  /**
   * Checks the guarded moves with the commit instead of one by one: on PostgreSQL they are written behind and leave
   * with the commit (the capital pool's row is then locked for its UPDATE and the commit only), and a move beyond its
   * guard fails the whole transaction with this error, from the commit at the latest (`guardedWriteBehind`). Only for
   * a caller that posts last: nothing after the posting reaches outside the database or catches the refusal.
   */
  refusalAtCommit?: (accountId: string) => Error;
}

/** Posts a balanced transaction. Must run inside the caller's database transaction. */
export async function postTransaction(db: Executor, options: PostTransactionOptions): Promise<{ id: string; reference: string }> {
  const total = options.postings.reduce((sum, p) => sum + kobo(p.amountKobo), 0);
  if (total !== 0) throw new Error(`unbalanced ledger transaction ${options.reference}: sums to ${total}`);
  if (options.postings.some((p) => p.amountKobo === 0)) throw new Error('zero posting');
  const at = options.now.toISOString();
  const transactionId = newId();
  await insertTransaction(db, {
    id: transactionId,
    organisationId: options.organisationId,
    mode: options.mode,
    reference: options.reference,
    kind: options.kind,
    description: options.description ?? null,
    createdAt: at,
  });
  // Accounts from `newAccount` are inserted holding their opening movement (a guarded account may
  // not open on the wrong side of zero, exactly as the guarded UPDATE below refuses it).
  const opening = new Map<Posting['account'], ReturnType<typeof accountRow>>();
  for (const p of options.postings) {
    const row = unopened.get(p.account as LedgerAccount);
    if (row) opening.set(p.account, row);
  }
  if (opening.size > 0) {
    const rows = [...opening].map(([account, row]) => {
      const moved = options.postings.filter((p) => p.account === account).reduce((sum, p) => sum + p.amountKobo, 0);
      if (!row.allowNegative && (isCreditNormal(row.kind) ? moved > 0 : moved < 0)) {
        throw new AppError('INSUFFICIENT_FUNDS', 'the account does not hold enough funds for this movement', { accountId: row.id });
      }
      return { ...row, balanceKobo: row.allowNegative ? 0 : moved };
    });
    await insertAccounts(db, { rows });
    for (const account of opening.keys()) unopened.delete(account as LedgerAccount);
  }
  // Written before the guarded moves (their foreign keys take only a key-share lock, which a balance
  // update does not wait for), so the moves are the last statements before the caller's commit.
  await insertPostings(db, {
    rows: options.postings.map((p) => ({ id: newId(), transactionId, accountId: p.account.id, amountKobo: p.amountKobo, createdAt: at })),
  });
  // Only guarded accounts are locked, in one fixed order so concurrent transactions on PostgreSQL cannot
  // deadlock: per-borrower and per-loan accounts first, then capital pools (the rows every disbursement
  // of a pool contends for, so each is held for as short a time as possible), by id within each.
  const guarded = options.postings
    .filter((p) => !p.account.allowNegative && !opening.has(p.account))
    .sort((a, b) => lockRank(a.account.kind) - lockRank(b.account.kind) || a.account.id.localeCompare(b.account.id));
  const refusal = options.refusalAtCommit;
  for (const posting of guarded) {
    const liability = isCreditNormal(posting.account.kind);
    const args = { amountKobo: posting.amountKobo, updatedAt: at, id: posting.account.id };
    if (refusal) {
      await (liability ? moveGuardedLiabilityAtCommit : moveGuardedBalanceAtCommit)(db, args, () => refusal(posting.account.id));
      continue;
    }
    const result = await (liability ? moveGuardedLiability : moveGuardedBalance)(db, args);
    if (Number(result.numAffectedRows) !== 1) {
      throw new AppError('INSUFFICIENT_FUNDS', 'the account does not hold enough funds for this movement', {
        accountId: posting.account.id,
      });
    }
  }
  return { id: transactionId, reference: options.reference };
}

/** Where a guarded account's lock comes in a posting's fixed order: shared accounts (capital pools) last. */
const lockRank = (kind: string): number => (kind === 'capital_pool' ? 1 : 0);

// The statements every posting runs, compiled once per shape (see db/precompiled.ts).
const insertTransaction = writeBehind(
  (db, row: { id: string; organisationId: string; mode: Mode; reference: string; kind: string; description: string | null; createdAt: string }) =>
    db.insertInto('ledgerTransactions').values(row),
);
const insertAccounts = writeBehind((db, a: { rows: ReturnType<typeof accountRow>[] }) => db.insertInto('ledgerAccounts').values(a.rows));
type Move = { amountKobo: number; updatedAt: string; id: string };
const guardedBalanceMove = (db: Executor, a: Move) =>
  db
    .updateTable('ledgerAccounts')
    .set({ balanceKobo: sql`balance_kobo + ${a.amountKobo}`, updatedAt: a.updatedAt })
    .where('id', '=', a.id)
    .where(sql`balance_kobo + ${a.amountKobo}`, '>=', 0);
/** The same for a guarded liability (wallets, payables, reservations): never above zero. */
const guardedLiabilityMove = (db: Executor, a: Move) =>
  db
    .updateTable('ledgerAccounts')
    .set({ balanceKobo: sql`balance_kobo + ${a.amountKobo}`, updatedAt: a.updatedAt })
    .where('id', '=', a.id)
    .where(sql`balance_kobo + ${a.amountKobo}`, '<=', 0);
const moveGuardedBalance = precompiled(guardedBalanceMove);
const moveGuardedLiability = precompiled(guardedLiabilityMove);
const moveGuardedBalanceAtCommit = guardedWriteBehind(guardedBalanceMove);
const moveGuardedLiabilityAtCommit = guardedWriteBehind(guardedLiabilityMove);
const insertPostings = writeBehind((db, a: { rows: { id: string; transactionId: string; accountId: string; amountKobo: number; createdAt: string }[] }) =>
  db.insertInto('ledgerPostings').values(a.rows),
);
