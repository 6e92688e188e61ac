import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { LoanProductsTable, LoansTable } from '../../db/schema';
import { newId } from '../ids';
import { priceLoan, type PricedLoan, type RepaymentFrequency } from '../pricing/price-loan';
import { dueDates } from '../pricing/schedule-dates';
import type { LoanContext } from './loan-context';

/** The product terms a loan was priced with, frozen so later product edits never change it. */
export interface FrozenTerms {
  productId: string;
  productCode: string;
  interestModel: 'flat' | 'reducing_balance';
  processingFeeBps: number;
  processingFeeFlatKobo: number;
  insuranceMode: 'automatic' | 'manual' | 'off';
  insurancePremiumBps: number;
  insurancePremiumBearer: 'borrower' | 'tenant';
  lateFeeBps: number;
}

export interface PricingSnapshot {
  id: string;
  loanId: string;
  documentReference: string;
  terms: FrozenTerms;
  priced: PricedLoan;
  createdAt: string;
}

export function termsOf(product: LoanProductsTable): FrozenTerms {
  return {
    productId: product.id,
    productCode: product.code,
    interestModel: product.interestModel as FrozenTerms['interestModel'],
    processingFeeBps: product.processingFeeBps,
    processingFeeFlatKobo: product.processingFeeFlatKobo,
    insuranceMode: product.insuranceMode as FrozenTerms['insuranceMode'],
    insurancePremiumBps: product.insurancePremiumBps,
    insurancePremiumBearer: product.insurancePremiumBearer as FrozenTerms['insurancePremiumBearer'],
    lateFeeBps: product.lateFeeBps,
  };
}

export function priceWith(loan: Pick<LoansTable, 'principalKobo' | 'interestRateBps' | 'tenorDays' | 'repaymentFrequency'>, terms: FrozenTerms): PricedLoan {
  return priceLoan({
    principalKobo: loan.principalKobo,
    annualRateBps: loan.interestRateBps,
    tenorDays: loan.tenorDays,
    repaymentFrequency: loan.repaymentFrequency as RepaymentFrequency,
    interestModel: terms.interestModel,
    processingFeeBps: terms.processingFeeBps,
    processingFeeFlatKobo: terms.processingFeeFlatKobo,
    insuranceMode: terms.insuranceMode,
    insurancePremiumBps: terms.insurancePremiumBps,
    insurancePremiumBearer: terms.insurancePremiumBearer,
    lateFeeBps: terms.lateFeeBps,
  });
}

/** Stores an immutable snapshot under a new document reference (one per issued offer). */
export async function freezeSnapshot(ctx: LoanContext, loan: LoansTable, terms: FrozenTerms, version: number): Promise<PricingSnapshot> {
  const snapshot: PricingSnapshot = {
    id: newId(),
    loanId: loan.id,
    documentReference: `OFR-${loan.id}-${version}`,
    terms,
    priced: priceWith(loan, terms),
    createdAt: ctx.now.toISOString(),
  };
  await ctx.db
    .insertInto('pricingSnapshots')
    .values({
      id: snapshot.id,
      organisationId: loan.organisationId,
      mode: loan.mode,
      loanId: loan.id,
      documentReference: snapshot.documentReference,
      pricing: toJson({ terms, priced: snapshot.priced }),
      createdAt: snapshot.createdAt,
    })
    .execute();
  return snapshot;
}

export async function loadSnapshot(db: Executor, id: string): Promise<PricingSnapshot> {
  const row = await db.selectFrom('pricingSnapshots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const pricing = fromJson<{ terms: FrozenTerms; priced: PricedLoan }>(row.pricing)!;
  return { id: row.id, loanId: row.loanId, documentReference: row.documentReference, terms: pricing.terms, priced: pricing.priced, createdAt: row.createdAt };
}

/** Replaces the loan's schedule with the snapshot's rows, due dates counted from `start`. */
export async function writeSchedule(ctx: LoanContext, loan: LoansTable, snapshot: PricingSnapshot, start: Date, replace = true): Promise<void> {
  if (replace) await ctx.db.deleteFrom('loanScheduleItems').where('loanId', '=', loan.id).execute();
  const dates = dueDates(start, snapshot.priced.instalments);
  const at = ctx.now.toISOString();
  const rows = snapshot.priced.instalments.map((item, i) => ({
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    installmentNumber: item.installmentNumber,
    dueDate: dates[i]!,
    principalKobo: item.principalKobo,
    interestKobo: item.interestKobo,
    feeKobo: item.feeKobo,
    totalKobo: item.totalKobo,
    amountPaidKobo: 0,
    paidAt: null,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
  }));
  // Chunked: SQLite caps the number of bound parameters per statement.
  for (let i = 0; i < rows.length; i += 60) await ctx.db.insertInto('loanScheduleItems').values(rows.slice(i, i + 60)).execute();
}
