import type { LoansTable } from '../../db/schema';
import type { Insertable } from 'kysely';
import type { LoanConsentsTable } from '../../db/schema';
import { writeBehind } from '../../db/precompiled';
import { AppError } from '../errors';
import { newId } from '../ids';
import { getLoanRow, transitionLoan, type LoanStatus } from './loan';
import type { LoanContext, LoanWriteContext } from './loan-context';
import { emitLoanEvent } from './loan-events';
import { DISBURSED_STATES, FROM } from './transitions';
import { closeOpenReviewOf } from '../reviews/close-open-review';

/** Evidence of the borrower's signature, as the partner's surface (or our checkout) observed it. */
export interface BorrowerConsent {
  signatureFullName: string;
  ipAddress: string;
  userAgent: string;
  signedAt: string;
  documentReference: string;
  signatureEmail?: string | null;
  /** Checkout only: how the typed name compared with the borrower's name on record, kept with the evidence. */
  signatureNameCheck?: { status: 'match' | 'partial' | 'mismatch'; scorePercent: number; nameOnRecord: string; confirmed: boolean };
}

async function recordConsent(ctx: LoanContext, loan: LoansTable, kind: 'accept' | 'decline', consent: BorrowerConsent, reason: string | null) {
  await insertConsent(ctx.db, {
    id: newId(),
    loanId: loan.id,
    kind,
    signatureFullName: consent.signatureFullName,
    signatureEmail: consent.signatureEmail ?? null,
    ipAddress: consent.ipAddress,
    userAgent: consent.userAgent,
    signedAt: consent.signedAt,
    documentReference: consent.documentReference,
    reason,
    recordedBy: ctx.actor,
    signatureNameMatch: consent.signatureNameCheck?.status ?? null,
    signatureNameMatchScore: consent.signatureNameCheck?.scorePercent ?? null,
    signatureNameOnRecord: consent.signatureNameCheck?.nameOnRecord ?? null,
    signatureNameConfirmed: consent.signatureNameCheck ? consent.signatureNameCheck.confirmed : null,
    createdAt: ctx.now.toISOString(),
  });
}

const insertConsent = writeBehind((db, row: Insertable<LoanConsentsTable>) => db.insertInto('loanConsents').values(row));
/** Moves the pre-approval along with its loan. */
export const updatePreapprovalStatus = writeBehind((db, a: { status: string; updatedAt: string; id: string }) =>
  db.updateTable('preapprovals').set({ status: a.status, updatedAt: a.updatedAt }).where('id', '=', a.id),
);

function checkReference(loan: LoansTable, consent: BorrowerConsent): void {
  if (consent.documentReference !== loan.documentReference) {
    throw new AppError(
      'stale_document_reference',
      'consent.documentReference does not name the current offer; show the borrower the current offer letter and ask again.',
    );
  }
}

async function setPreapprovalStatus(ctx: LoanContext, loan: LoansTable, status: string): Promise<void> {
  if (!loan.preapprovalId) return;
  await updatePreapprovalStatus(ctx.db, { status, updatedAt: ctx.now.toISOString(), id: loan.preapprovalId });
}

/**
 * The product's guarantor rule holds on every path to acceptance: the partner's accept-terms as much as the checkout
 * (which asks for the guarantors before the signature). Guarantors are named and confirm their phone in the checkout.
 */
async function requireConfirmedGuarantors(ctx: LoanContext, loan: LoansTable): Promise<void> {
  const row = await ctx.db
    .selectFrom('loanProducts as p')
    .select((eb) => [
      'p.guarantorsRequired',
      eb.selectFrom('loanGuarantors as g').select((sub) => sub.fn.countAll<number | string>().as('n')).where('g.loanId', '=', loan.id).where('g.verifiedAt', 'is not', null).as('confirmed'),
    ])
    .where('p.id', '=', loan.loanProductId)
    .executeTakeFirstOrThrow();
  const required = Number(row.guarantorsRequired);
  const confirmed = Number(row.confirmed ?? 0);
  if (confirmed < required) {
    throw new AppError(
      'guarantors_required',
      `This loan's product asks for ${required} confirmed guarantor${required === 1 ? '' : 's'} (${confirmed} so far): the borrower names them in the checkout, then accepts.`,
      undefined,
      { required, confirmed },
    );
  }
}

/** The borrower accepts the current offer. Accepting it again with the same reference changes nothing. */
export async function acceptTerms(ctx: LoanWriteContext, loanId: string, consent: BorrowerConsent): Promise<LoansTable> {
  const loan = await getLoanRow(ctx.db, ctx.scope, loanId);
  if (loan.status === 'terms_accepted' && consent.documentReference === loan.documentReference) return loan;
  if (loan.status === 'awaiting_acceptance') {
    checkReference(loan, consent);
    await requireConfirmedGuarantors(ctx, loan);
  }
  // The signed letter (offer + signature block) is fixed from this moment; it is rendered on first fetch.
  const at = ctx.now.toISOString();
  // Only writes follow (consent, pre-approval, event): a concurrent answer is refused with the commit (409).
  const accepted = await transitionLoan(ctx.db, loan, FROM.respondToOffer, { status: 'terms_accepted', termsAcceptedAt: at, offerLetterIssuedAt: at }, ctx.now, {
    checkAtCommit: true,
  });
  await recordConsent(ctx, accepted, 'accept', consent, null);
  await setPreapprovalStatus(ctx, accepted, 'accepted');
  await emitLoanEvent(ctx, 'loan.offer.accepted', accepted, { documentReference: consent.documentReference, termsAcceptedAt: accepted.termsAcceptedAt });
  return accepted;
}

/** The borrower declines the offer: terminal. Declining again changes nothing. */
export async function declineTerms(ctx: LoanWriteContext, loanId: string, consent: BorrowerConsent, reason: string | null): Promise<LoansTable> {
  const loan = await getLoanRow(ctx.db, ctx.scope, loanId);
  if (loan.status === 'terms_declined') return loan;
  if (loan.status === 'awaiting_acceptance') checkReference(loan, consent);
  const declined = await transitionLoan(ctx.db, loan, FROM.respondToOffer, { status: 'terms_declined', declineReason: reason }, ctx.now);
  await recordConsent(ctx, declined, 'decline', consent, reason);
  await setPreapprovalStatus(ctx, declined, 'declined');
  await emitLoanEvent(ctx, 'loan.offer.declined', declined, { documentReference: consent.documentReference, reason });
  return declined;
}

/**
 * Either side calls the loan off before disbursement. Cancelling a cancelled loan changes nothing;
 * once money has moved it is refused with 400.
 */
export async function cancelLoan(
  ctx: LoanWriteContext,
  options: { loanId: string; reason: string | null; cancelledBy: 'tenant' | 'borrower' | 'admin' },
): Promise<LoansTable> {
  const loan = await getLoanRow(ctx.db, ctx.scope, options.loanId);
  if (loan.status === 'cancelled') return loan;
  if (DISBURSED_STATES.includes(loan.status as LoanStatus)) {
    throw new AppError('loan_already_disbursed', 'The loan has been disbursed and can no longer be cancelled; it can only be repaid.');
  }
  const cancelled = await transitionLoan(
    ctx.db,
    loan,
    FROM.cancel,
    { status: 'cancelled', cancelledBy: options.cancelledBy, cancellationReason: options.reason, cancelledAt: ctx.now.toISOString() },
    ctx.now,
  );
  await emitLoanEvent(ctx, 'loan.cancelled', cancelled, { cancelledBy: options.cancelledBy, reason: options.reason });
  await closeOpenReviewOf(ctx, loan, cancelled, 'cancelled', { by: ctx.actor, note: options.reason });
  return cancelled;
}
