import type { Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { Services } from '../services';
import { notFound } from '../errors';
import { lenderContact, type LenderContact } from '../checkout/lender-contact';
import { signOfferLetterLink } from '../loans/offer-letter-link';
import { earlySettlementOf } from '../products/product';
import type { EarlySettlementRule } from '../repayments/settlement-quote';
import type { BorrowerScope } from './borrower-session';
import { LENT_STATES, borrowerIdsForPhone } from './borrower-phone';
import { paymentRange } from './pay-now-rules';
import { latestReplacement, toBorrowerMandate, type BorrowerMandate, type MandateReplacement } from './mandate-replacements';

/**
 * What a borrower sees of their own loans, through a borrower session: only the loans of the borrowers with the
 * session's phone, at the session's lender and mode, once lent. Another lender's loan, or an id that is not theirs,
 * is 404 like an unknown one.
 */

export type InstalmentState = 'paid' | 'due' | 'late';

export interface BorrowerInstalment {
  installmentNumber: number;
  dueDate: string;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  lateFeeKobo: number;
  /** principal + interest + fee + late fee */
  totalKobo: number;
  amountPaidKobo: number;
  /** What is still owed on it. */
  remainingKobo: number;
  /** `paid`; `late`: its due date has passed and something is unpaid; `due`: not yet due (or due today) and unpaid. */
  state: InstalmentState;
  paidAt: string | null;
}

export interface BorrowerRepayment {
  id: string;
  reference: string;
  method: string;
  status: string;
  amountKobo: number;
  createdAt: string;
  completedAt: string | null;
}

export interface BorrowerLoanSummary {
  id: string;
  status: string;
  currency: string;
  principalKobo: number;
  outstandingKobo: number;
  amountPaidKobo: number;
  inArrears: boolean;
  disbursedAt: string | null;
  /** The next unpaid instalment: when and how much; null once nothing is owed. */
  nextDebit: { dueDate: string; amountKobo: number; byDirectDebit: boolean } | null;
}

export interface BorrowerLoan extends BorrowerLoanSummary {
  schedule: BorrowerInstalment[];
  repayments: BorrowerRepayment[];
  lender: LenderContact;
  /** A short-lived signed link to the signed offer letter; null without one. */
  offerLetter: { url: string; expiresAt: string } | null;
  /** Pay now's range (`minKobo`..`maxKobo`, both 0 when nothing is owed) and whether there is a direct debit to charge. */
  payments: { minKobo: number; maxKobo: number; directDebitActive: boolean };
  earlySettlement: EarlySettlementRule;
  /** The direct debit the loan is collected from now (bank, last 4 digits, status); null without one. */
  mandate: BorrowerMandate | null;
  /** The latest change of debit account (pending, or how the last one ended); null when none was asked for. */
  mandateReplacement: MandateReplacement | null;
}

type ViewPlatform = Pick<Services, 'secrets' | 'baseUrl' | 'settings' | 'banks'>;

/** A loan the session reaches, or 404. */
export async function borrowerLoanRow(db: Executor, scope: BorrowerScope, loanId: string): Promise<LoansTable> {
  const borrowerIds = await borrowerIdsForPhone(db, scope, scope.phone);
  const loan =
    borrowerIds.length === 0
      ? undefined
      : await db
          .selectFrom('loans')
          .selectAll()
          .where('id', '=', loanId)
          .where('organisationId', '=', scope.organisationId)
          .where('mode', '=', scope.mode)
          .where('borrowerId', 'in', borrowerIds)
          .where('status', 'in', LENT_STATES)
          .executeTakeFirst();
  if (!loan) throw notFound('loan');
  return loan;
}

function instalmentsOf(rows: Array<{ installmentNumber: number; dueDate: string; principalKobo: number; interestKobo: number; feeKobo: number; lateFeeKobo: number | null; amountPaidKobo: number; status: string; paidAt: string | null }>, now: Date): BorrowerInstalment[] {
  const at = now.toISOString();
  return rows.map((r) => {
    const lateFeeKobo = Number(r.lateFeeKobo ?? 0);
    const totalKobo = r.principalKobo + r.interestKobo + r.feeKobo + lateFeeKobo;
    const remainingKobo = Math.max(0, totalKobo - r.amountPaidKobo);
    const state: InstalmentState = remainingKobo === 0 || r.status === 'paid' ? 'paid' : r.status === 'overdue' || r.dueDate < at ? 'late' : 'due';
    return {
      installmentNumber: r.installmentNumber,
      dueDate: r.dueDate,
      principalKobo: r.principalKobo,
      interestKobo: r.interestKobo,
      feeKobo: r.feeKobo,
      lateFeeKobo,
      totalKobo,
      amountPaidKobo: r.amountPaidKobo,
      remainingKobo,
      state,
      paidAt: r.paidAt,
    };
  });
}

async function scheduleOf(db: Executor, loanId: string, now: Date) {
  const rows = await db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loanId).orderBy('installmentNumber').execute();
  return instalmentsOf(rows, now);
}

function summaryOf(loan: LoansTable, schedule: BorrowerInstalment[]): BorrowerLoanSummary {
  const next = schedule.find((i) => i.state !== 'paid');
  return {
    id: loan.id,
    status: loan.status,
    currency: loan.currency,
    principalKobo: loan.principalKobo,
    outstandingKobo: loan.outstandingKobo,
    amountPaidKobo: loan.amountPaidKobo,
    inArrears: Boolean(loan.inArrears),
    disbursedAt: loan.disbursedAt,
    nextDebit: next && loan.outstandingKobo > 0 ? { dueDate: next.dueDate, amountKobo: next.remainingKobo, byDirectDebit: Boolean(loan.activeMandateId) } : null,
  };
}

/** The session's loans, newest first. */
export async function listBorrowerLoans(db: Executor, scope: BorrowerScope, now: Date): Promise<BorrowerLoanSummary[]> {
  const borrowerIds = await borrowerIdsForPhone(db, scope, scope.phone);
  if (borrowerIds.length === 0) return [];
  const loans = await db
    .selectFrom('loans')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('borrowerId', 'in', borrowerIds)
    .where('status', 'in', LENT_STATES)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const out: BorrowerLoanSummary[] = [];
  for (const loan of loans) out.push(summaryOf(loan, await scheduleOf(db, loan.id, now)));
  return out;
}

/** One loan in full: schedule, repayments, the lender's contact, the offer letter, what can be paid now. */
export async function getBorrowerLoan(db: Executor, platform: ViewPlatform, scope: BorrowerScope, loanId: string, now: Date): Promise<BorrowerLoan> {
  const loan = await borrowerLoanRow(db, scope, loanId);
  const schedule = await scheduleOf(db, loan.id, now);
  const repayments = await db
    .selectFrom('loanRepayments')
    .select(['id', 'reference', 'method', 'status', 'amountKobo', 'createdAt', 'completedAt'])
    .where('loanId', '=', loan.id)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const mandate = loan.activeMandateId ? await db.selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId).executeTakeFirst() : undefined;
  const product = await db.selectFrom('loanProducts').select(['earlySettlementInterest', 'earlySettlementFeeBps']).where('id', '=', loan.loanProductId).executeTakeFirstOrThrow();
  const offerLetter = loan.documentReference
    ? signOfferLetterLink(platform.secrets, {
        baseUrl: platform.baseUrl,
        loanId: loan.id,
        documentReference: loan.documentReference,
        now,
        ttlSeconds: platform.settings.OFFER_LETTER_LINK_TTL_SECONDS,
      })
    : null;
  return {
    ...summaryOf(loan, schedule),
    schedule,
    repayments,
    lender: await lenderContact(db, scope),
    offerLetter: offerLetter && { url: offerLetter.url, expiresAt: offerLetter.expiresAt },
    payments: { ...paymentRange(loan.outstandingKobo), directDebitActive: Boolean(loan.activeMandateId) },
    earlySettlement: earlySettlementOf(product),
    mandate: mandate ? toBorrowerMandate(mandate, platform.banks) : null,
    mandateReplacement: await latestReplacement(db, loan.id),
  };
}
