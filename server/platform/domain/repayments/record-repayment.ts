import type { Selectable } from 'kysely';
import type { LoanScheduleItemsTable, LoansTable } from '../../db/schema';

type ScheduleRow = Selectable<LoanScheduleItemsTable>;
import { AppError } from '../errors';
import { newId } from '../ids';
import { ensureAccount, postTransaction, type Posting } from '../ledger/ledger';
import { requireBalance, requireWallet, walletRef } from '../wallets/wallet';
import { allocatePrincipalReturn } from './allocate-principal-return';
import { getLoanRow, invalidState } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { allocateRepayment, type Allocation, type InstalmentBalance } from './allocate-repayment';
import { isChargeable } from '../mandates/mandate';
import { toRepayment, type LoanRepayment, type RepaymentMethod } from './repayment';

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
export async function recordRepayment(ctx: LoanContext, options: RecordRepaymentOptions): Promise<RecordRepaymentResult> {
  if (options.method === 'mandate') return { repayment: await requestMandateCharge(ctx, options), created: true };
  if (options.externalReference) {
    const existing = await ctx.db
      .selectFrom('loanRepayments')
      .selectAll()
      .where('loanId', '=', options.loanId)
      .where('externalReference', '=', options.externalReference)
      .executeTakeFirst();
    if (existing) {
      await getLoanRow(ctx.db, ctx.scope, options.loanId);
      return { repayment: toRepayment(existing), created: false };
    }
  }
  if (options.method === 'cash_wallet' || options.method === 'wallet') {
    const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
    if (!REPAYABLE.includes(loan.status)) throw invalidState(loan.status, 'repaid');
    if (options.method === 'wallet' && loan.settlementDestination !== 'borrower_wallet') {
      throw new AppError('no_undrawn_credit', `The loan was disbursed to ${loan.settlementDestination}, not to the borrower's wallet: there is no undrawn credit to sweep back.`);
    }
    await requireWallet(ctx.db, { ...ctx.scope, borrowerId: loan.borrowerId });
  }
  return { repayment: await applyRepayment(ctx, options), created: true };
}

/**
 * Allocates `amountKobo` against the loan's balances and books it (a new row, or the pending row
 * `existingId` of a mandate charge that has succeeded).
 */
export async function applyRepayment(ctx: LoanContext, options: RecordRepaymentOptions & { existingId?: string; mandateId?: string | null }): Promise<LoanRepayment> {
  for (let attempt = 1; ; attempt++) {
    const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
    if (!REPAYABLE.includes(loan.status)) throw invalidState(loan.status, 'repaid');
    const rows = await ctx.db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loan.id).orderBy('installmentNumber').execute();
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
    return book(ctx, moved, rows, allocation, options);
  }
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
  const at = ctx.now.toISOString();
  const row = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    borrowerId: loan.borrowerId,
    reference: `RPY-${newId()}`,
    method: 'mandate',
    status: 'pending',
    amountKobo: Math.min(options.amountKobo, loan.outstandingKobo),
    unallocatedKobo: 0,
    feePortionKobo: 0,
    interestPortionKobo: 0,
    principalPortionKobo: 0,
    externalReference: null,
    ledgerTransactionRef: null,
    completedAt: null,
    settlementId: null,
    mandateId: mandate.id,
    chargeReference: null,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
  };
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
  const result = await ctx.db
    .updateTable('loans')
    .set(changes)
    .where('id', '=', loan.id)
    .where('amountPaidKobo', '=', loan.amountPaidKobo)
    .where('status', '=', loan.status)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ...loan, ...changes } : undefined;
}

async function book(
  ctx: LoanContext,
  loan: LoansTable,
  rows: ScheduleRow[],
  allocation: Allocation,
  options: RecordRepaymentOptions & { existingId?: string; mandateId?: string | null },
): Promise<LoanRepayment> {
  const at = ctx.now.toISOString();
  const byNumber = new Map(rows.map((r) => [r.installmentNumber, r]));
  for (const part of allocation.instalments) {
    const row = byNumber.get(part.installmentNumber)!;
    const applied = part.feeKobo + part.interestKobo + part.principalKobo;
    await ctx.db
      .updateTable('loanScheduleItems')
      .set({
        paidFeeKobo: Number(row.paidFeeKobo ?? 0) + part.feeKobo,
        paidInterestKobo: Number(row.paidInterestKobo ?? 0) + part.interestKobo,
        paidPrincipalKobo: Number(row.paidPrincipalKobo ?? 0) + part.principalKobo,
        amountPaidKobo: row.amountPaidKobo + applied,
        // An overdue instalment stays overdue until it is paid in full.
        status: part.status === 'paid' ? 'paid' : row.status === 'overdue' ? 'overdue' : part.status,
        paidAt: part.status === 'paid' ? at : row.paidAt,
        updatedAt: at,
      })
      .where('id', '=', row.id)
      .execute();
  }

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
    await postRepayment(ctx, loan, allocation, options, reference);
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
    createdAt: at,
    updatedAt: at,
  };
  let repayment: LoanRepayment;
  if (options.existingId) {
    const { id: _id, createdAt: _created, reference: _ref, chargeReference: _charge, ...completion } = row;
    await ctx.db.updateTable('loanRepayments').set({ ...completion, ledgerTransactionRef: reference }).where('id', '=', options.existingId).execute();
    const stored = await ctx.db.selectFrom('loanRepayments').selectAll().where('id', '=', options.existingId).executeTakeFirstOrThrow();
    repayment = toRepayment(stored);
  } else {
    await ctx.db.insertInto('loanRepayments').values(row).execute();
    repayment = toRepayment(row);
  }
  await emitLoanEvent(ctx, 'loan.repayment.completed', loan, {
    repaymentId: repayment.id,
    reference,
    method: repayment.method,
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
 * The repayment's ledger transaction. Every method credits the loan's buckets (receivable −principal,
 * interest income −interest, fee income −fee); the debit side says where the money came from:
 * `external` the partner's own collections, `mandate` the rail, `cash_wallet` the borrower's wallet.
 * `wallet` is not a collection: principal only, the wallet's undrawn credit goes back to the pool
 * (wallet +N, wallet cash −N, pool +N, receivable −N).
 */
async function postRepayment(
  ctx: LoanContext,
  loan: LoansTable,
  allocation: Allocation,
  options: RecordRepaymentOptions & { mandateId?: string | null },
  reference: string,
): Promise<void> {
  const owner = { organisationId: loan.organisationId, mode: loan.mode };
  const applied = allocation.appliedKobo;
  let source: Posting[];
  switch (options.method) {
    case 'mandate':
      source = [{ account: await ensureAccount(ctx.db, { ...owner, kind: 'rail_collections', code: options.mandateId ?? 'rail' }, ctx.now), amountKobo: applied }];
      break;
    case 'cash_wallet':
      source = [{ account: await ensureAccount(ctx.db, walletRef({ ...owner, borrowerId: loan.borrowerId }), ctx.now), amountKobo: applied }];
      break;
    case 'wallet':
      source = [
        { account: await ensureAccount(ctx.db, walletRef({ ...owner, borrowerId: loan.borrowerId }), ctx.now), amountKobo: applied },
        { account: await ensureAccount(ctx.db, { ...owner, kind: 'settlement_cash', code: 'borrower_wallet' }, ctx.now), amountKobo: -applied },
        { account: await ensureAccount(ctx.db, { ...owner, kind: 'capital_pool', code: loan.capitalPoolCode }, ctx.now), amountKobo: applied },
      ];
      break;
    default:
      source = [{ account: await ensureAccount(ctx.db, { ...owner, kind: 'external_collections', code: loan.organisationId }, ctx.now), amountKobo: applied }];
  }
  const receivable = await ensureAccount(ctx.db, { ...owner, kind: 'loan_receivable', code: loan.id }, ctx.now);
  const interest = await ensureAccount(ctx.db, { ...owner, kind: 'interest_income', code: loan.organisationId }, ctx.now);
  const fees = await ensureAccount(ctx.db, { ...owner, kind: 'fee_income', code: loan.organisationId }, ctx.now);
  await postTransaction(ctx.db, {
    ...owner,
    reference,
    kind: options.method === 'wallet' ? 'credit_return' : 'repayment',
    description: `${options.method} repayment of loan ${loan.id}`,
    postings: [
      ...source,
      { account: receivable, amountKobo: -allocation.principalPortionKobo },
      { account: interest, amountKobo: -allocation.interestPortionKobo },
      { account: fees, amountKobo: -allocation.feePortionKobo },
    ].filter((p) => p.amountKobo !== 0),
    now: ctx.now,
  });
}
