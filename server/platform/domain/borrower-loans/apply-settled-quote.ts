import { fromJson, type Tx } from '../../db/database';
import type { LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import type { InstalmentBalance } from '../repayments/allocate-repayment';

/** Loans that can be settled early: lent and still owing. */
export const SETTLEABLE = ['active', 'disbursed'];

/**
 * Called by `settleCharge` in the transaction that applies a taken mandate charge, before it is allocated: when the
 * charge pays a settlement quote, the schedule takes the quote's settled balances and the outstanding drops by the
 * waived amount, so the allocation leaves nothing owed; the mandate is cancelled. When the loan has moved since the
 * quote (a payment applied meanwhile), nothing is waived and the charge applies as an ordinary payment.
 */
export async function applySettledQuote(ctx: LoanWriteContext, repaymentId: string): Promise<void> {
  const quote = await ctx.db.selectFrom('settlementQuotes').selectAll().where('repaymentId', '=', repaymentId).where('status', '=', 'paying').executeTakeFirst();
  if (!quote) return;
  const at = ctx.now.toISOString();
  const loan = await ctx.db.selectFrom('loans').selectAll().where('id', '=', quote.loanId).executeTakeFirstOrThrow();
  if (loan.amountPaidKobo !== Number(quote.amountPaidKobo) || !SETTLEABLE.includes(loan.status)) {
    await ctx.db.updateTable('settlementQuotes').set({ status: 'open', repaymentId: null, updatedAt: at }).where('id', '=', quote.id).execute();
    return;
  }
  await settleSchedule(ctx.db, loan.id, fromJson<InstalmentBalance[]>(quote.settledInstalments) ?? [], at);
  const outstandingKobo = loan.outstandingKobo - Number(quote.waivedKobo);
  await ctx.db.updateTable('loans').set({ outstandingKobo, activeMandateId: null, hasActiveMandate: false, updatedAt: at }).where('id', '=', loan.id).execute();
  if (loan.activeMandateId) await ctx.db.updateTable('loanMandates').set({ status: 'cancelled', updatedAt: at }).where('id', '=', loan.activeMandateId).execute();
  await ctx.db.updateTable('settlementQuotes').set({ status: 'paid', paidAt: at, updatedAt: at }).where('id', '=', quote.id).execute();
  await emitLoanEvent(ctx, 'loan.settlement_quote.paid', { ...loan, outstandingKobo }, {
    quoteId: quote.id,
    repaymentId,
    totalKobo: Number(quote.totalKobo),
    waivedKobo: Number(quote.waivedKobo),
    settlementFeeKobo: Number(quote.settlementFeeKobo),
  });
}

/** The instalments take the settled balances: interest and fee buckets as the quote left them, totals with them. */
async function settleSchedule(db: Tx, loanId: string, settled: InstalmentBalance[], at: string): Promise<void> {
  for (const i of settled) {
    await db
      .updateTable('loanScheduleItems')
      .set({ interestKobo: i.interestKobo, feeKobo: i.feeKobo, totalKobo: i.principalKobo + i.interestKobo + i.feeKobo, updatedAt: at })
      .where('loanId', '=', loanId)
      .where('installmentNumber', '=', i.installmentNumber)
      .execute();
  }
}
