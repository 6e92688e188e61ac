import { sql, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database';
import { precompiled } from '../../db/precompiled';
import { ownedBy } from '../find-owned';
import type { LoanRepaymentsTable, LoanScheduleItemsTable, LoansTable, Mode } from '../../db/schema';

type ScheduleRow = Selectable<LoanScheduleItemsTable>;
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { ensureAccount, postTransaction, type Posting } from '../ledger/ledger';
import { requireBalance, requireWallet, walletRef } from '../wallets/wallet';
import { loanBooks } from '../ledger/loan-books';
import { allocatePrincipalReturn } from './allocate-principal-return';
import { getLoanRow, invalidState } from '../loans/loan';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { allocateRepayment, type Allocation, type InstalmentBalance } from './allocate-repayment';
import { isChargeable } from '../mandates/mandate';
import { toRepayment, type LoanRepayment, type RepaymentInitiator, type RepaymentMethod } from './repayment';

export interface RecordRepaymentOptions {
  loanId: string;
  method: RepaymentMethod;
  amountKobo: number;
  externalReference: string | null;
}

export interface RecordRepaymentResult {
  repayment: LoanRepayment;
  /** false when `externalReference` was used before: the original movement comes back. */
  created: boolean;
}

/** Recoveries on a defaulted loan are repayments too; clearing it completes the loan. */
const REPAYABLE = ['active', 'disbursed', 'defaulted'];
/** Optimistic retries when a concurrent repayment on the same loan moved it first. */
const MAX_ATTEMPTS = 5;

function balances(rows: ScheduleRow[]): InstalmentBalance[] {
  return rows.map((r) => ({
    installmentNumber: r.installmentNumber,
    dueDate: r.dueDate,
    principalKobo: r.principalKobo,
    interestKobo: r.interestKobo,
    feeKobo: r.feeKobo,
    lateFeeKobo: Number(r.lateFeeKobo ?? 0),
    paidPrincipalKobo: Number(r.paidPrincipalKobo ?? 0),
    paidInterestKobo: Number(r.paidInterestKobo ?? 0),
    paidFeeKobo: Number(r.paidFeeKobo ?? 0),
  }));
}

/**
 * Records a repayment: `external` (the partner collected on its own rail) or `cash_wallet` (debited
 * from the borrower's wallet) are allocated instalment by instalment, oldest first, fee → interest →
 * principal; `wallet` returns undrawn credit to the pool, principal only (see
 * allocate-principal-return.ts); `mandate` asks the rail for a charge. Anything beyond what can be
 * applied is returned unallocated and, for the wallet methods, not debited. The loan moves by a conditional UPDATE on what it had been
 * paid, so two concurrent repayments can never both apply to the same balance: the loser re-reads
 * and allocates against what is left.
 */
export async function recordRepayment(ctx: LoanWriteContext, options: RecordRepaymentOptions): Promise<RecordRepaymentResult> {
  if (options.method === 'mandate') return { repayment: await requestMandateCharge(ctx, options), created: true };
  let loan: LoansTable | undefined;
  if (options.externalReference) {
    // One statement reads the loan and whether this reference was booked on it before.
    const found = ownedBy((await selectLoanAndReuse(ctx.db, { id: options.loanId, externalReference: options.externalReference })).rows[0], ctx.scope);
    if (!found) throw notFound('loan');
    const { reusedRepaymentId, ...row } = found;
    if (reusedRepaymentId !== null) {
      const existing = (await selectRepayment(ctx.db, { id: reusedRepaymentId })).rows[0]!;
      return { repayment: toRepayment(existing), created: false };
    }
    loan = row as LoansTable;
  }
  if (options.method === 'cash_wallet' || options.method === 'wallet') {
    loan ??= await getLoanRow(ctx.db, ctx.scope, options.loanId);
    if (!REPAYABLE.includes(loan.status)) throw invalidState(loan.status, 'repaid');
    if (options.method === 'wallet' && loan.settlementDestination !== 'borrower_wallet') {
      throw new AppError('no_undrawn_credit', `The loan was disbursed to ${loan.settlementDestination}, not to the borrower's wallet: there is no undrawn credit to sweep back.`);
    }
    await requireWallet(ctx.db, { ...ctx.scope, borrowerId: loan.borrowerId });
  }
  return { repayment: await applyRepayment(ctx, options, loan), created: true };
}

/**
 * Allocates `amountKobo` against the loan's balances and books it (a new row, or the pending row
 * `existingId` of a mandate charge that has succeeded).
 */
export async function applyRepayment(
  ctx: LoanWriteContext,
  options: RecordRepaymentOptions & { existingId?: string; mandateId?: string | null },
  /** The loan as this transaction has just read it (the first attempt need not read it again). */
  current?: LoansTable,
): Promise<LoanRepayment> {
  for (let attempt = 1; ; attempt++) {
    const loan = attempt === 1 && current ? current : await getLoanRow(ctx.db, ctx.scope, options.loanId);
    if (!REPAYABLE.includes(loan.status)) throw invalidState(loan.status, 'repaid');
    const { rows } = await selectSchedule(ctx.db, { loanId: loan.id });
    const allocation =
      options.method === 'wallet' ? allocatePrincipalReturn(options.amountKobo, balances(rows)) : allocateRepayment(options.amountKobo, balances(rows));
    if (allocation.appliedKobo === 0) {
      throw new AppError('unprocessable', `The loan has no ${options.method === 'wallet' ? 'principal' : 'amount'} outstanding; nothing was recorded.`);
    }
    if (options.method === 'cash_wallet' || options.method === 'wallet') {
      // A fast, clear refusal; the guarded wallet debit in the ledger posting stays the authority under races.
      requireBalance(await requireWallet(ctx.db, { ...ctx.scope, borrowerId: loan.borrowerId }), allocation.appliedKobo);
    }
    const moved = await moveLoan(ctx, loan, allocation);
    if (!moved) {
      if (attempt >= MAX_ATTEMPTS) throw new AppError('invalid_loan_state', 'The loan is being repaid concurrently; retry.');
      continue;
    }
    return book(ctx, moved, rows, allocation, options, loan.status === 'defaulted');
  }
}

/**
 * A mandate repayment waiting for its charge: what the partner's `method: mandate` repayment, the
 * collector's automatic one and the borrower's own payment all record, before the rail is asked (the
 * collector sends it, reads it back and completes or fails it). Nothing allocated yet; the reference is
 * the charge's reference. `initiatedBy` stays with the row when the charge completes.
 */
export function pendingMandateCharge(options: {
  loan: Pick<LoansTable, 'id' | 'organisationId' | 'mode' | 'borrowerId'>;
  mandateId: string;
  amountKobo: number;
  now: Date;
  initiatedBy: RepaymentInitiator;
}): LoanRepaymentsTable {
  const at = options.now.toISOString();
  return {
    id: newId(),
    organisationId: options.loan.organisationId,
    mode: options.loan.mode,
    loanId: options.loan.id,
    borrowerId: options.loan.borrowerId,
    reference: `RPY-${newId()}`,
    method: 'mandate',
    status: 'pending',
    amountKobo: options.amountKobo,
    unallocatedKobo: 0,
    feePortionKobo: 0,
    interestPortionKobo: 0,
    principalPortionKobo: 0,
    externalReference: null,
    ledgerTransactionRef: null,
    completedAt: null,
    settlementId: null,
    mandateId: options.mandateId,
    chargeReference: null,
    failureReason: null,
    initiatedBy: options.initiatedBy,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Method `mandate`: asks for a debit on the loan's active service-operated mandate. The repayment
 * is `pending` until the rail reports; the collector sends the charge (never inside a database
 * transaction) and completes or fails the repayment from the rail's answer.
 */
async function requestMandateCharge(ctx: LoanContext, options: RecordRepaymentOptions): Promise<LoanRepayment> {
  const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
  if (!REPAYABLE.includes(loan.status)) throw invalidState(loan.status, 'repaid');
  const mandate = loan.activeMandateId
    ? await ctx.db.selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId).executeTakeFirst()
    : undefined;
  if (!mandate) throw new AppError('repayment_method_unavailable', 'The loan has no active mandate to charge.');
  if (mandate.provider === 'rail_c') {
    throw new AppError('repayment_method_unavailable', 'rail_c is partner-operated: the service never charges it; record its collections with method external.');
  }
  if (!isChargeable(mandate)) throw new AppError('repayment_method_unavailable', 'The mandate is not chargeable yet (not confirmed by the provider).');
  const row = pendingMandateCharge({ loan, mandateId: mandate.id, amountKobo: Math.min(options.amountKobo, loan.outstandingKobo), now: ctx.now, initiatedBy: 'partner' });
  if (row.amountKobo <= 0) throw new AppError('unprocessable', 'The loan has nothing outstanding; nothing was charged.');
  await ctx.db.insertInto('loanRepayments').values(row).execute();
  return toRepayment(row);
}

/** Applies the allocation's totals to the loan if nobody else has paid it meanwhile. */
async function moveLoan(ctx: LoanContext, loan: LoansTable, allocation: Allocation): Promise<LoansTable | undefined> {
  const outstandingKobo = loan.outstandingKobo - allocation.appliedKobo;
  const changes = {
    amountPaidKobo: loan.amountPaidKobo + allocation.appliedKobo,
    principalBalanceKobo: loan.principalBalanceKobo - allocation.principalPortionKobo,
    outstandingKobo,
    status: outstandingKobo === 0 ? 'completed' : loan.status,
    updatedAt: ctx.now.toISOString(),
  };
  const result = await updateLoanIfUnpaid(ctx.db, { set: changes, id: loan.id, amountPaidKobo: loan.amountPaidKobo, status: loan.status });
  return Number(result.numAffectedRows) === 1 ? { ...loan, ...changes } : undefined;
}

async function book(
  ctx: LoanWriteContext,
  loan: LoansTable,
  rows: ScheduleRow[],
  allocation: Allocation,
  options: RecordRepaymentOptions & { existingId?: string; mandateId?: string | null },
  /** The loan was `defaulted` (its principal written off) when this repayment applied: the principal is a recovery. */
  recovery: boolean,
): Promise<LoanRepayment> {
  const at = ctx.now.toISOString();
  const byNumber = new Map(rows.map((r) => [r.installmentNumber, r]));
  const touched = allocation.instalments.map((part) => {
    const row = byNumber.get(part.installmentNumber)!;
    return {
      id: row.id,
      paidFeeKobo: Number(row.paidFeeKobo ?? 0) + part.feeKobo,
      paidInterestKobo: Number(row.paidInterestKobo ?? 0) + part.interestKobo,
      paidPrincipalKobo: Number(row.paidPrincipalKobo ?? 0) + part.principalKobo,
      amountPaidKobo: row.amountPaidKobo + part.feeKobo + part.interestKobo + part.principalKobo,
      // An overdue instalment stays overdue until it is paid in full.
      status: part.status === 'paid' ? 'paid' : row.status === 'overdue' ? 'overdue' : part.status,
      paidAt: part.status === 'paid' ? at : row.paidAt,
    };
  });
  if (touched.length === 1) {
    const { id, ...set } = touched[0]!;
    await updateInstalment(ctx.db, { set: { ...set, updatedAt: at }, id });
  }
  else if (touched.length > 1) await updateInstalments(ctx.db, { rows: touched, updatedAt: at });

  // Out of arrears once no overdue instalment is left unpaid.
  if (loan.inArrears) {
    const stillOverdue = await ctx.db.selectFrom('loanScheduleItems').select('dueDate').where('loanId', '=', loan.id).where('status', '=', 'overdue').orderBy('dueDate').executeTakeFirst();
    await ctx.db
      .updateTable('loans')
      .set({ inArrears: Boolean(stillOverdue), arrearsSince: stillOverdue?.dueDate ?? null })
      .where('id', '=', loan.id)
      .execute();
  }

  const reference = `RPY-${newId()}`;
  try {
    await postRepayment(ctx, loan, allocation, options, reference, recovery);
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS' && (options.method === 'cash_wallet' || options.method === 'wallet')) {
      // A concurrent debit of the same wallet won the race; this request's transaction rolls back.
      throw new AppError('insufficient_wallet_balance', `The borrower's cash wallet holds less than ${allocation.appliedKobo} kobo: nothing was changed.`);
    }
    throw error;
  }

  const row = {
    id: options.existingId ?? newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    borrowerId: loan.borrowerId,
    reference,
    method: options.method,
    status: 'completed',
    amountKobo: allocation.appliedKobo,
    unallocatedKobo: allocation.unallocatedKobo,
    feePortionKobo: allocation.feePortionKobo,
    interestPortionKobo: allocation.interestPortionKobo,
    principalPortionKobo: allocation.principalPortionKobo,
    externalReference: options.externalReference,
    ledgerTransactionRef: reference,
    completedAt: at,
    settlementId: null,
    mandateId: options.mandateId ?? null,
    chargeReference: null,
    failureReason: null,
    // A new row is the partner's own record (`recordRepayment`); a completed charge keeps who started it.
    initiatedBy: 'partner' as RepaymentInitiator,
    createdAt: at,
    updatedAt: at,
  };
  let repayment: LoanRepayment;
  if (options.existingId) {
    const { id: _id, createdAt: _created, reference: _ref, chargeReference: _charge, initiatedBy: _initiator, ...completion } = row;
    await ctx.db.updateTable('loanRepayments').set({ ...completion, ledgerTransactionRef: reference }).where('id', '=', options.existingId).execute();
    const stored = await ctx.db.selectFrom('loanRepayments').selectAll().where('id', '=', options.existingId).executeTakeFirstOrThrow();
    repayment = toRepayment(stored);
  } else {
    await insertRepayment(ctx.db, row);
    repayment = toRepayment(row);
  }
  await emitLoanEvent(ctx, 'loan.repayment.completed', loan, {
    repaymentId: repayment.id,
    reference,
    method: repayment.method,
    initiatedBy: repayment.initiatedBy,
    amountKobo: repayment.amountKobo,
    feePortionKobo: repayment.feePortionKobo,
    interestPortionKobo: repayment.interestPortionKobo,
    principalPortionKobo: repayment.principalPortionKobo,
    outstandingKobo: loan.outstandingKobo,
  });
  if (loan.status === 'completed') await emitLoanEvent(ctx, 'loan.completed', loan, { amountPaidKobo: loan.amountPaidKobo });
  return repayment;
}

/**
 * The repayment's ledger transaction, in the loan's books (`loanBooks`: the partner's for a lending loan, the
 * service's for patient financing; docs/ledger.md). Every method credits the loan's buckets (receivable −principal,
 * interest income −interest, fee income −fee); the debit side says where the money came from: `external` the
 * collections the partner holds (for financing: in the service's books, code the partner), `mandate` the rail,
 * `cash_wallet` the borrower's wallet (always the partner's scope: the wallet is the borrower's there).
 * `wallet` is not a collection: principal only, the wallet's undrawn credit goes back to the pool
 * (wallet +N, wallet cash −N, pool +N, receivable −N).
 *
 * Patient financing: the principal part of every collection goes straight back to the service's `FINANCING` pool
 * (pool +principal instead of collections +principal; for `cash_wallet` the wallet's clearing cash gives it up), so
 * the pool is always funded − principal outstanding. A recovery (the loan was `defaulted`, its principal written off)
 * credits `recovery_income` instead of the receivable.
 */
async function postRepayment(
  ctx: LoanContext,
  loan: LoansTable,
  allocation: Allocation,
  options: RecordRepaymentOptions & { mandateId?: string | null },
  reference: string,
  recovery: boolean,
): Promise<void> {
  const partner = { organisationId: loan.organisationId, mode: loan.mode };
  const owner = await loanBooks(ctx.db, loan);
  // Lent from another organisation's pool (patient financing: the service's): its principal goes straight back there.
  const financing = owner.organisationId !== loan.organisationId;
  const applied = allocation.appliedKobo;
  const principal = allocation.principalPortionKobo;
  // What of the collection stays in the collections account: all of it, or for financing what is not principal.
  const collected = financing ? applied - principal : applied;
  const pool = async () => ensureAccount(ctx.db, { ...owner, kind: 'capital_pool', code: loan.capitalPoolCode }, ctx.now);
  let source: Posting[];
  switch (options.method) {
    case 'mandate':
      source = [{ account: await ensureAccount(ctx.db, { ...owner, kind: 'rail_collections', code: options.mandateId ?? 'rail' }, ctx.now), amountKobo: collected }];
      if (financing) source.push({ account: await pool(), amountKobo: principal });
      break;
    case 'cash_wallet':
      source = [{ account: await ensureAccount(ctx.db, walletRef({ ...partner, borrowerId: loan.borrowerId }), ctx.now), amountKobo: applied }];
      if (financing) {
        source.push(
          { account: await ensureAccount(ctx.db, { ...partner, kind: 'settlement_cash', code: 'borrower_wallet' }, ctx.now), amountKobo: -principal },
          { account: await pool(), amountKobo: principal },
        );
      }
      break;
    case 'wallet':
      source = [
        { account: await ensureAccount(ctx.db, walletRef({ ...partner, borrowerId: loan.borrowerId }), ctx.now), amountKobo: applied },
        { account: await ensureAccount(ctx.db, { ...partner, kind: 'settlement_cash', code: 'borrower_wallet' }, ctx.now), amountKobo: -applied },
        { account: await pool(), amountKobo: applied },
      ];
      break;
    default:
      source = [{ account: await ensureAccount(ctx.db, { ...owner, kind: 'external_collections', code: loan.organisationId }, ctx.now), amountKobo: collected }];
      if (financing) source.push({ account: await pool(), amountKobo: principal });
  }
  // Only the buckets this repayment moves need their accounts (a fee-only payment looks up no receivable).
  const buckets: Posting[] = [];
  const bucket = async (kind: 'loan_receivable' | 'recovery_income' | 'interest_income' | 'fee_income', code: string, amountKobo: number) => {
    if (amountKobo !== 0) buckets.push({ account: await ensureAccount(ctx.db, { ...owner, kind, code }, ctx.now), amountKobo });
  };
  if (recovery) await bucket('recovery_income', owner.organisationId, -principal);
  else await bucket('loan_receivable', loan.id, -principal);
  await bucket('interest_income', owner.organisationId, -allocation.interestPortionKobo);
  await bucket('fee_income', owner.organisationId, -allocation.feePortionKobo);
  await postTransaction(ctx.db, {
    ...partner,
    reference,
    kind: options.method === 'wallet' ? 'credit_return' : recovery ? 'recovery' : 'repayment',
    description: `${options.method} ${recovery ? 'recovery' : 'repayment'} of loan ${loan.id}`,
    postings: [...source, ...buckets].filter((p) => p.amountKobo !== 0),
    now: ctx.now,
  });
}

// The statements of the repayment path, compiled once per shape (see db/precompiled.ts).
/** By the loan's primary key alone, its owner checked after (`ownedBy` says why). */
const selectLoanAndReuse = precompiled((db, a: { id: string; externalReference: string }) =>
  db
    .selectFrom('loans')
    .selectAll('loans')
    .select((eb) =>
      eb
        .selectFrom('loanRepayments')
        .select('loanRepayments.id')
        .whereRef('loanRepayments.loanId', '=', 'loans.id')
        .where('loanRepayments.externalReference', '=', a.externalReference)
        .limit(1)
        .as('reusedRepaymentId'),
    )
    .where('loans.id', '=', a.id),
);
const selectRepayment = precompiled((db, a: { id: string }) => db.selectFrom('loanRepayments').selectAll().where('id', '=', a.id));
const selectSchedule = precompiled((db, a: { loanId: string }) =>
  db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', a.loanId).orderBy('installmentNumber'),
);
const updateLoanIfUnpaid = precompiled((db, a: { set: Partial<LoansTable>; id: string; amountPaidKobo: number; status: string }) =>
  db.updateTable('loans').set(a.set).where('id', '=', a.id).where('amountPaidKobo', '=', a.amountPaidKobo).where('status', '=', a.status),
);
const updateInstalment = precompiled((db, a: { set: Updateable<LoanScheduleItemsTable>; id: string }) =>
  db.updateTable('loanScheduleItems').set(a.set).where('id', '=', a.id),
);
type InstalmentPayment = Pick<ScheduleRow, 'id' | 'paidFeeKobo' | 'paidInterestKobo' | 'paidPrincipalKobo' | 'amountPaidKobo' | 'status' | 'paidAt'>;
/**
 * Several instalments in one statement: each column is a CASE on the row id. The ELSE keeps the
 * column, which also types the parameters (PostgreSQL takes the column's type for them).
 */
const updateInstalments = precompiled((db: Executor, a: { rows: InstalmentPayment[]; updatedAt: string }) => {
  const column = (name: Exclude<keyof InstalmentPayment, 'id'>, snake: string) =>
    sql<any>`case id ${sql.join(a.rows.map((r) => sql`when ${r.id} then ${r[name]}`), sql` `)} else ${sql.ref(snake)} end`;
  return db
    .updateTable('loanScheduleItems')
    .set({
      paidFeeKobo: column('paidFeeKobo', 'paid_fee_kobo'),
      paidInterestKobo: column('paidInterestKobo', 'paid_interest_kobo'),
      paidPrincipalKobo: column('paidPrincipalKobo', 'paid_principal_kobo'),
      amountPaidKobo: column('amountPaidKobo', 'amount_paid_kobo'),
      status: column('status', 'status'),
      paidAt: column('paidAt', 'paid_at'),
      updatedAt: a.updatedAt,
    })
    .where('id', 'in', a.rows.map((r) => r.id));
});
const insertRepayment = precompiled((db, row: LoanRepaymentsTable) => db.insertInto('loanRepayments').values(row));
