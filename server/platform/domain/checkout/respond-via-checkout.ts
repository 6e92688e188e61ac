import type { LoansTable } from '../../db/schema';
import { AppError } from '../errors';
import { getLoanRow } from '../loans/loan';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { acceptTerms, declineTerms, type BorrowerConsent } from '../loans/respond-to-offer';
import { submitKyc, type KycSubmission, type LoanKycResult } from '../loans/submit-kyc';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from './checkout-session';
import { offerFacts } from './checkout-state';
import { requireGuarantors } from './guarantors';
import { requireSettlementMerchant } from './settlement-catalog';
import { borrowerNameOnRecord, checkName, requireSignatureName, scorePercent, type NameCheck } from './ownership';
import { recordPasskeyEvidence, verifyOfferPasskey, type PasskeySignature } from '../passkeys/sign-with-passkey';

/** What the checkout server sends for a signature: the borrower's typed name and the request as it observed it. */
export interface CheckoutSignature {
  signatureFullName: string;
  signatureEmail?: string | null;
  /** The offer the borrower read; must be the current one. */
  documentReference: string;
  /** The borrower's IP and user agent as the checkout server saw them (see docs/checkout.md, consent trust model). */
  ipAddress: string;
  userAgent: string;
  /** Optional: a passkey assertion over this offer (see docs/checkout.md, passkeys); the typed name is still the signature. */
  passkey?: PasskeySignature;
  /** The borrower confirmed a typed name that matches their name on record only in part (see `requireSignatureName`). */
  confirmSignatureName?: boolean;
}

export type CheckoutLoanContext = LoanWriteContext;

/**
 * A reference that is not the current offer's answers 409 with the current offer's key facts in
 * `data.currentOffer`, so the borrower is shown what they would actually sign.
 */
async function requireCurrentOffer(ctx: CheckoutLoanContext, loan: LoansTable, documentReference: string): Promise<void> {
  if (loan.status !== 'awaiting_acceptance' || loan.documentReference === documentReference) return;
  const currentOffer = await offerFacts(ctx.db, ctx.platform, loan, ctx.now);
  throw new AppError(
    'stale_document_reference',
    'The offer has been re-issued since it was shown; show the borrower the current offer (data.currentOffer) and ask again.',
    undefined,
    { currentOffer },
  );
}

function consentOf(ctx: LoanContext, signature: CheckoutSignature, check?: NameCheck): BorrowerConsent {
  return {
    ...(check
      ? { signatureNameCheck: { status: check.status, scorePercent: scorePercent(check), nameOnRecord: check.nameOnRecord, confirmed: check.status !== 'match' && signature.confirmSignatureName === true } }
      : {}),
    signatureFullName: signature.signatureFullName,
    signatureEmail: signature.signatureEmail ?? null,
    ipAddress: signature.ipAddress,
    userAgent: signature.userAgent,
    // The platform's clock, not the browser's or the caller's.
    signedAt: ctx.now.toISOString(),
    documentReference: signature.documentReference,
  };
}

async function loanFor(ctx: CheckoutLoanContext, scope: CheckoutScope): Promise<LoansTable> {
  requireOtpVerified(await getSessionRow(ctx.db, scope));
  return getLoanRow(ctx.db, ctx.scope, scope.loanId);
}

/**
 * Signs the offer. The typed name must be the borrower's name on record (422
 * `signature_name_mismatch`; a partial match needs `confirmSignatureName`, 422
 * `signature_name_unconfirmed`), checked before anything else is used up. With a passkey, the assertion is verified (and its nonce used) first and stored
 * with the consent in the same transaction; any refusal leaves everything as it was. Accepting an
 * accepted offer again returns it unchanged, passkey or not.
 */
export async function acceptViaCheckout(ctx: CheckoutLoanContext, scope: CheckoutScope, signature: CheckoutSignature): Promise<LoansTable> {
  const loan = await loanFor(ctx, scope);
  await requireCurrentOffer(ctx, loan, signature.documentReference);
  if (loan.status !== 'awaiting_acceptance') return acceptTerms(ctx, loan.id, consentOf(ctx, signature));
  const nameCheck = checkName(signature.signatureFullName, await borrowerNameOnRecord(ctx.db, scope));
  requireSignatureName(nameCheck, signature.confirmSignatureName === true);
  await requireGuarantors(ctx.db, loan.id);
  await requireSettlementMerchant(ctx.db, loan);
  const evidence = signature.passkey ? await verifyOfferPasskey(ctx.db, scope, loan, signature.passkey, ctx.now) : undefined;
  const accepted = await acceptTerms(ctx, loan.id, consentOf(ctx, signature, nameCheck));
  // The e-mail given with the signature is the borrower's: kept on record when there is none, so the direct-debit step
  // does not ask for it again.
  if (signature.signatureEmail) {
    await ctx.db.updateTable('borrowers').set({ email: signature.signatureEmail, updatedAt: ctx.now.toISOString() }).where('id', '=', scope.borrowerId).where('email', 'is', null).execute();
  }
  if (evidence) {
    const consent = await ctx.db
      .selectFrom('loanConsents')
      .select('id')
      .where('loanId', '=', loan.id)
      .where('kind', '=', 'accept')
      .where('documentReference', '=', signature.documentReference)
      .executeTakeFirstOrThrow();
    await recordPasskeyEvidence(ctx.db, consent.id, evidence);
  }
  return accepted;
}

export async function declineViaCheckout(ctx: CheckoutLoanContext, scope: CheckoutScope, signature: CheckoutSignature, reason: string | null): Promise<LoansTable> {
  const loan = await loanFor(ctx, scope);
  await requireCurrentOffer(ctx, loan, signature.documentReference);
  // Declining is never refused for the name (the borrower can always say no); the comparison is kept as evidence.
  const nameCheck = loan.status === 'awaiting_acceptance' ? checkName(signature.signatureFullName, await borrowerNameOnRecord(ctx.db, scope)) : undefined;
  return declineTerms(ctx, loan.id, consentOf(ctx, signature, nameCheck), reason);
}

export async function submitKycViaCheckout(ctx: CheckoutLoanContext, scope: CheckoutScope, submission: KycSubmission): Promise<LoanKycResult> {
  const loan = await loanFor(ctx, scope);
  return submitKyc(ctx, loan.id, submission);
}
