import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { LoanProductsTable, LoansTable } from '../../db/schema';
import { newId } from '../ids';
import { sql, type Insertable } from 'kysely';
import type { LoanScheduleItemsTable, PricingSnapshotsTable } from '../../db/schema';
import { precompiled, writeBehind } from '../../db/precompiled';
import { priceLoan, type PricedLoan, type RepaymentFrequency } from '../pricing/price-loan';
import { dueDates } from '../pricing/schedule-dates';
import type { LoanContext } from './loan-context';
import { BoundedMap } from '../../../shared/bounded-map';

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
  const row = {
    id: snapshot.id,
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    documentReference: snapshot.documentReference,
    pricing: toJson({ terms, priced: snapshot.priced }),
    createdAt: snapshot.createdAt,
  };
  await insertSnapshot(ctx.db, row);
  // Remembered as it will read back (parsed from the stored JSON), not as the object built here.
  rememberSnapshot(fromRow(row));
  return snapshot;
}

/**
 * Snapshots are immutable once stored, so the ones this process wrote or read are remembered
 * (bounded, oldest out first); disbursement and insurance then need no read. One that never
 * committed is never asked for: no committed loan references its id. Callers must not mutate them.
 */
const snapshots = new BoundedMap<string, PricingSnapshot>(2_000);

function rememberSnapshot(snapshot: PricingSnapshot): void {
  snapshots.set(snapshot.id, snapshot);
}

function fromRow(row: { id: string; loanId: string; documentReference: string; pricing: unknown; createdAt: string }): PricingSnapshot {
  const pricing = fromJson<{ terms: FrozenTerms; priced: PricedLoan }>(row.pricing)!;
  return { id: row.id, loanId: row.loanId, documentReference: row.documentReference, terms: pricing.terms, priced: pricing.priced, createdAt: row.createdAt };
}

export async function loadSnapshot(db: Executor, id: string): Promise<PricingSnapshot> {
  const known = snapshots.get(id);
  if (known) return known;
  const snapshot = fromRow(await db.selectFrom('pricingSnapshots').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  rememberSnapshot(snapshot);
  return snapshot;
}

/** The snapshot's schedule rows for the loan, due dates counted from `start`. */
function scheduleRows(ctx: LoanContext, loan: LoansTable, snapshot: PricingSnapshot, start: Date): Insertable<LoanScheduleItemsTable>[] {
  const dates = dueDates(start, snapshot.priced.instalments);
  const at = ctx.now.toISOString();
  return snapshot.priced.instalments.map((item, i) => ({
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
}

/** Replaces the loan's schedule with the snapshot's rows, due dates counted from `start`. */
export async function writeSchedule(ctx: LoanContext, loan: LoansTable, snapshot: PricingSnapshot, start: Date, replace = true): Promise<void> {
  if (replace) await deleteSchedule(ctx.db, { loanId: loan.id });
  const rows = scheduleRows(ctx, loan, snapshot, start);
  // Chunked: SQLite caps the number of bound parameters per statement.
  for (let i = 0; i < rows.length; i += 60) await insertScheduleRows(ctx.db, { rows: rows.slice(i, i + 60) });
}

/**
 * Moves the loan's schedule to due dates counted from `start` (disbursement) in place. The rows are the snapshot's,
 * written when its offer was issued, so only their dates change: one upsert per 60 instalments, which moves each
 * instalment's due date and inserts, from the snapshot, any instalment that is missing — instead of deleting and
 * re-inserting every row (and every index entry). Nothing is read back, so it is written behind (`writeBehind`).
 */
export async function redateSchedule(ctx: LoanContext, loan: LoansTable, snapshot: PricingSnapshot, start: Date): Promise<void> {
  const rows = scheduleRows(ctx, loan, snapshot, start);
  for (let i = 0; i < rows.length; i += 60) await redateScheduleRows(ctx.db, { rows: rows.slice(i, i + 60) });
}

const redateScheduleRows = writeBehind((db, a: { rows: Insertable<LoanScheduleItemsTable>[] }) =>
  db
    .insertInto('loanScheduleItems')
    .values(a.rows)
    .onConflict((oc) =>
      oc.columns(['loanId', 'installmentNumber']).doUpdateSet((eb) => ({ dueDate: eb.ref('excluded.dueDate'), updatedAt: eb.ref('excluded.updatedAt') })),
    ),
);

const insertSnapshot = writeBehind((db, row: Insertable<PricingSnapshotsTable>) => db.insertInto('pricingSnapshots').values(row));
const deleteSchedule = precompiled((db, a: { loanId: string }) => db.deleteFrom('loanScheduleItems').where('loanId', '=', a.loanId));
const insertScheduleRows = writeBehind((db, a: { rows: Insertable<LoanScheduleItemsTable>[] }) => db.insertInto('loanScheduleItems').values(a.rows));
