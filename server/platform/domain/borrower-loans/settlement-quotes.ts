import { toJson, type Executor } from '../../db/database';
import type { LoansTable, SettlementQuotesTable } from '../../db/schema';
import type { LoanWriteContext } from '../loans/loan-context';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { emitLoanEvent } from '../loans/loan-events';
import { invalidState } from '../loans/loan';
import { earlySettlementOf } from '../products/product';
import { quoteEarlySettlement, type EarlySettlementInterest } from '../repayments/settlement-quote';
import type { InstalmentBalance } from '../repayments/allocate-repayment';
import { lenderContact } from '../checkout/lender-contact';
import { formatNaira } from '../offer-letter/format-offer-letter';
import type { BorrowerScope } from './borrower-session';
import { borrowerLoanRow } from './borrower-loans';
import { sendBorrowerCharge, startBorrowerCharge, type ChargePlatform } from './borrower-charge';
import { textPaymentReceipt } from './payment-receipt';

/**
 * Paying a loan off early. A quote (`repayments/settlement-quote.ts`, under the product's rule) is stored, so what the
 * borrower saw is what is charged: its amounts, the balances it settles and the loan's paid amount when it was made.
 * Paying it charges its total once on the mandate (`borrower-charge.ts`). When the charge is taken, in the transaction
 * that applies it (`applySettledQuote`, called by `settleCharge` whoever reads the charge back: this request or the
 * collector), the schedule takes the quote's settled balances (the interest and fees not owed are taken off the
 * instalments; the settlement fee is added to the last one), the loan's outstanding drops by the waived amount, and the
 * repayment is then allocated like any other, leaving nothing: the loan is `completed` (`loan.completed`), the
 * mandate is cancelled, and `loan.settlement_quote.paid` is written. The ledger needs no waiver entry: interest and fees
 * are income only when collected, and the receivable (principal) is always paid in full.
 */

export interface SettlementQuoteView {
  id: string;
  loanId: string;
  status: 'open' | 'paying' | 'paid' | 'expired' | 'stale';
  totalKobo: number;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  settlementFeeKobo: number;
  waivedKobo: number;
  rule: { interest: EarlySettlementInterest; feeBps: number };
  validUntil: string;
  paidAt: string | null;
  createdAt: string;
}

import { SETTLEABLE } from './apply-settled-quote';

function balancesOf(rows: Array<Record<string, unknown> & { installmentNumber: number; dueDate: string; principalKobo: number; interestKobo: number; feeKobo: number }>): InstalmentBalance[] {
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

function viewOf(row: SettlementQuotesTable, loan: Pick<LoansTable, 'amountPaidKobo'>, now: Date): SettlementQuoteView {
  const status: SettlementQuoteView['status'] =
    row.status !== 'open' ? row.status : loan.amountPaidKobo !== Number(row.amountPaidKobo) ? 'stale' : row.validUntil <= now.toISOString() ? 'expired' : 'open';
  return {
    id: row.id,
    loanId: row.loanId,
    status,
    totalKobo: Number(row.totalKobo),
    principalKobo: Number(row.principalKobo),
    interestKobo: Number(row.interestKobo),
    feeKobo: Number(row.feeKobo),
    settlementFeeKobo: Number(row.settlementFeeKobo),
    waivedKobo: Number(row.waivedKobo),
    rule: { interest: row.interestRule as EarlySettlementInterest, feeBps: Number(row.feeBps) },
    validUntil: row.validUntil,
    paidAt: row.paidAt,
    createdAt: row.createdAt,
  };
}

/** What settling the loan today costs, under its product's rule; stored until the end of the Lagos day. */
export async function createSettlementQuote(ctx: LoanWriteContext, scope: BorrowerScope, loanId: string): Promise<SettlementQuoteView> {
  const loan = await borrowerLoanRow(ctx.db, scope, loanId);
  if (!SETTLEABLE.includes(loan.status) || loan.outstandingKobo <= 0 || !loan.disbursedAt) throw invalidState(loan.status, 'settled early');
  const rows = await ctx.db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loan.id).orderBy('installmentNumber').execute();
  const product = await ctx.db.selectFrom('loanProducts').select(['earlySettlementInterest', 'earlySettlementFeeBps']).where('id', '=', loan.loanProductId).executeTakeFirstOrThrow();
  const rule = earlySettlementOf(product);
  const quote = quoteEarlySettlement({ instalments: balancesOf(rows), startedAt: loan.disbursedAt, asOf: ctx.now.toISOString(), rule });
  const at = ctx.now.toISOString();
  const row: SettlementQuotesTable = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    sessionId: scope.sessionId,
    interestRule: rule.interest,
    feeBps: rule.feeBps,
    totalKobo: quote.totalKobo,
    principalKobo: quote.principalKobo,
    interestKobo: quote.interestKobo,
    feeKobo: quote.feeKobo,
    settlementFeeKobo: quote.settlementFeeKobo,
    waivedKobo: quote.waivedKobo,
    amountPaidKobo: loan.amountPaidKobo,
    settledInstalments: toJson(quote.settledInstalments),
    validUntil: quote.validUntil,
    status: 'open',
    repaymentId: null,
    paidAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.db.insertInto('settlementQuotes').values(row).execute();
  await emitLoanEvent(ctx, 'loan.settlement_quote.created', loan, {
    quoteId: row.id,
    totalKobo: quote.totalKobo,
    waivedKobo: quote.waivedKobo,
    settlementFeeKobo: quote.settlementFeeKobo,
    validUntil: quote.validUntil,
  });
  return viewOf(row, loan, ctx.now);
}

async function quoteRow(db: Executor, loanId: string, quoteId: string): Promise<SettlementQuotesTable> {
  const row = await db.selectFrom('settlementQuotes').selectAll().where('id', '=', quoteId).where('loanId', '=', loanId).executeTakeFirst();
  if (!row) throw notFound('settlement quote');
  return row;
}

/** A stored quote of one of the session's loans. */
export async function getSettlementQuote(db: Executor, scope: BorrowerScope, loanId: string, quoteId: string, now: Date): Promise<SettlementQuoteView> {
  const loan = await borrowerLoanRow(db, scope, loanId);
  return viewOf(await quoteRow(db, loan.id, quoteId), loan, now);
}

/**
 * Pays a quote: refused when its day is over (409 `settlement_quote_expired`) or the loan has changed since
 * (409 `settlement_quote_stale`), or while another payment is being collected. A quote whose earlier charge was
 * refused can be paid again the same day.
 */
export async function paySettlementQuote(
  platform: ChargePlatform,
  scope: BorrowerScope,
  options: { loanId: string; quoteId: string; now: Date },
): Promise<{ quote: SettlementQuoteView; loanStatus: string; outstandingKobo: number }> {
  const { now } = options;
  let quote: SettlementQuotesTable | undefined;
  const started = await startBorrowerCharge(
    platform,
    scope,
    options.loanId,
    now,
    async (trx, loan) => {
      quote = await quoteRow(trx, loan.id, options.quoteId);
      const view = viewOf(quote, loan, now);
      if (view.status === 'expired') throw new AppError('settlement_quote_expired', `This quote held until ${quote.validUntil}; ask for a new one.`);
      if (view.status !== 'open') throw new AppError('settlement_quote_stale', 'The loan has changed since this quote was made; ask for a new one.');
      return view.totalKobo;
    },
    async (trx, _loan, repayment) => {
      const at = now.toISOString();
      const moved = await trx
        .updateTable('settlementQuotes')
        .set({ status: 'paying', repaymentId: repayment.id, updatedAt: at })
        .where('id', '=', quote!.id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new AppError('settlement_quote_stale', 'This quote is being paid already; re-read the loan.');
    },
  );
  const status = await sendBorrowerCharge(platform, started, now, async (trx) => {
    await trx.updateTable('settlementQuotes').set({ status: 'open', repaymentId: null, updatedAt: now.toISOString() }).where('id', '=', quote!.id).where('repaymentId', '=', started.repayment.id).execute();
  });
  const loan = await platform.db.selectFrom('loans').select(['amountPaidKobo', 'status', 'outstandingKobo']).where('id', '=', started.loan.id).executeTakeFirstOrThrow();
  if (status === 'completed') {
    // The mandate was cancelled in the platform's books when the quote applied; tell the provider too (best effort: no
    // charge is ever sent on a cancelled mandate).
    if (started.mandate.providerReference) {
      void started.rail.cancel(started.mandate.providerReference).catch((error: unknown) => platform.logger.warn({ err: error, mandateId: started.mandate.id }, 'mandate not cancelled at the provider'));
    }
    textPaymentReceipt(platform, scope, started.loan, started.repayment, loan.outstandingKobo);
  }
  const row = await quoteRow(platform.db, started.loan.id, options.quoteId);
  return { quote: viewOf(row, loan, now), loanStatus: loan.status, outstandingKobo: loan.outstandingKobo };
}
