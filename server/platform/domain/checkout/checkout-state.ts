import type { Executor } from '../../db/database';
import type { CheckoutSessionsTable, LoansTable } from '../../db/schema';
import { currentMandateRow, mandateFailure, toMandate, type LoanMandate, type MandateFailure } from '../mandates/mandate';
import { signOfferLetterLink } from '../loans/offer-letter-link';
import { loadSnapshot } from '../loans/pricing-snapshot';
import type { LoanStatus } from '../loans/loan';
import { DISBURSED_STATES } from '../loans/transitions';
import type { Secrets } from '../secrets';
import { maskPhone } from '../users/phone';
import { capturedBankAccount } from './bank-account';
import { payoutFacts, type CheckoutPayout } from './payout-facts';
import { getSessionRow, secondsUntil, toCheckoutSession, type CheckoutScope, type CheckoutSession } from './checkout-session';
import { guarantorsRequired, listGuarantors, toGuarantor, type Guarantor } from './guarantors';
import type { FinancingApplicationsTable } from '../../db/schema';
import { financingView, type FinancingView } from '../financing/financing-view';
import { currentOtpChallenge, loanPhone, type OtpChallengeView } from './otp';
import { chosenSettlementMerchant, settlementCatalogOffered, type SettlementMerchantChoice } from './settlement-catalog';
import { getCheckoutSettings, type CheckoutBranding } from './checkout-settings';
import type { Mode } from '../scope';
import { CHECKOUT_STEPS, type CheckoutStatus, type CheckoutStep, type OfferFacts } from '../../../shared/checkout-contract';

// The state's vocabulary and the offer's facts are the checkout contract's (the widget reads them too).
export { CHECKOUT_STEPS, type CheckoutStatus, type CheckoutStep, type OfferFacts };

const ACCEPTED: readonly LoanStatus[] = ['terms_accepted', 'disbursed', 'active', 'completed', 'defaulted'];
const LIVE_MANDATE = ['initiated', 'pending', 'active'];

export interface CheckoutState {
  /** `expiresInSeconds`: the session's remaining lifetime as of this answer (the page schedules its keep-alive by it, whatever its own clock says). */
  session: CheckoutSession & { otpVerified: boolean; expiresInSeconds: number };
  organisationName: string;
  /** The session's mode: the checkout shows a TEST MODE badge in test mode. */
  mode: Mode;
  /** The lender's public face (checkout settings) and the platform's name for "Secured by": nothing personal, so readable before the OTP. */
  branding: CheckoutBranding & { securedBy: string };
  phoneHint: string | null;
  /** The borrower's code in play (sent, not expired, not used) while the phone is not verified: what a reload restores. */
  otpChallenge: OtpChallengeView | null;
  status: CheckoutStatus;
  nextStep: CheckoutStep | null;
  steps: Array<{ name: CheckoutStep; done: boolean }>;
  /** The rest is null until the phone is verified: the link alone shows nothing personal. */
  borrower: {
    firstName: string;
    lastName: string;
    email: string | null;
    /** The e-mail on record, masked (`a•••@example.com`), or null when there is none and the mandate step must ask. */
    emailHint: string | null;
    identityStatus: string;
  } | null;
  loan: { id: string; status: LoanStatus; kycTier: string; currency: string; principalKobo: number; tenorDays: number; documentReference: string | null; termsAcceptedAt: string | null; hasActiveMandate: boolean; receiptSentAt: string | null } | null;
  offer: OfferFacts | null;
  bank: { bankCode: string; bankName: string; accountNumberLast4: string; accountName: string } | null;
  /** The latest mandate; `failure` says why it ended without becoming active (null while in play or active, or once another account was given). */
  mandate: (Pick<LoanMandate, 'id' | 'status' | 'provider' | 'authorizationUrl' | 'activatedAt'> & { failure: MandateFailure | null }) | null;
  /** The product's requirement (0: no `guarantors` step) and the guarantors named so far. */
  guarantorsRequired: number;
  guarantors: Guarantor[] | null;
  /** Where the lender's disbursement pays the money and whether it has (null before the OTP): what the done screen says. */
  payout: CheckoutPayout | null;
  /** Whether the loan has a `catalog` step (a `merchant_wallet` product with `settlementCatalogEnabled`), and the merchant chosen so far. */
  settlementCatalog: boolean;
  settlementMerchant: SettlementMerchantChoice | null;
  /** A patient-financing application (its `identity` and `decision` steps); null for other loans and before the OTP. */
  financing: FinancingView | null;
}

export interface StatePlatform {
  secrets: Secrets;
  baseUrl: string;
  settings: { OFFER_LETTER_LINK_TTL_SECONDS: number; CHECKOUT_PLATFORM_NAME: string };
}

/** A mandate that failed on an account the borrower has since replaced is no longer news: the step starts afresh. */
const onCapturedAccount = (row: { accountNumber: string | null; bankCode: string | null }, bank: { accountNumber: string; bankCode: string } | undefined) =>
  !bank || (row.accountNumber === bank.accountNumber && row.bankCode === bank.bankCode);

/** `ada.obi@example.com` → `a•••@example.com`: enough for the borrower to recognise, not to read off a shoulder. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '•••' : `${email[0]}•••${email.slice(at)}`;
}

/** The current offer's key facts, or null before an offer exists. */
export async function offerFacts(db: Executor, platform: StatePlatform, loan: LoansTable, now: Date): Promise<OfferFacts | null> {
  if (!loan.pricingSnapshotId || !loan.documentReference) return null;
  const snapshot = await loadSnapshot(db, loan.pricingSnapshotId);
  const rows = await db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loan.id).orderBy('installmentNumber').execute();
  const { priced, terms } = snapshot;
  const product = await db.selectFrom('loanProducts').select('rateDisplay').where('id', '=', loan.loanProductId).executeTakeFirst();
  return {
    documentReference: loan.documentReference,
    currency: loan.currency,
    principalKobo: priced.input.principalKobo,
    tenorDays: priced.input.tenorDays,
    repaymentFrequency: priced.input.repaymentFrequency,
    interestModel: terms.interestModel,
    interestRateBps: priced.input.annualRateBps,
    rateDisplay: product?.rateDisplay === 'monthly' ? 'monthly' : 'annual',
    fees: { processingFeeKobo: priced.processingFeeKobo, insurancePremiumKobo: priced.borrowerInsurancePremiumKobo, totalFeesKobo: priced.totalFeesKobo },
    totalInterestKobo: priced.totalInterestKobo,
    costOfCreditKobo: priced.costOfCreditKobo,
    totalRepayableKobo: priced.totalRepayableKobo,
    aprBps: priced.aprBps,
    lateFeeBps: terms.lateFeeBps,
    schedule: rows.map((r) => ({
      installmentNumber: r.installmentNumber,
      dueDate: r.dueDate,
      principalKobo: r.principalKobo,
      interestKobo: r.interestKobo,
      feeKobo: r.feeKobo,
      totalKobo: r.totalKobo,
    })),
    offerLetter: signOfferLetterLink(platform.secrets, {
      baseUrl: platform.baseUrl,
      loanId: loan.id,
      documentReference: loan.documentReference,
      now,
      ttlSeconds: platform.settings.OFFER_LETTER_LINK_TTL_SECONDS,
    }),
  };
}

function progress(
  session: CheckoutSessionsTable,
  loan: LoansTable,
  hasBank: boolean,
  guarantors: { required: number; confirmed: number },
  catalog: boolean,
  financing?: FinancingApplicationsTable,
) {
  const accepted = ACCEPTED.includes(loan.status as LoanStatus);
  // A financing application: the patient proves identity (then the service decides) and chooses a tenor (the offer issues).
  const financingSteps = financing
    ? [
        { name: 'identity' as const, done: financing.status !== 'initiated' },
        { name: 'decision' as const, done: loan.documentReference !== null || accepted },
      ]
    : [];
  const steps: CheckoutState['steps'] = [
    { name: 'otp', done: session.otpVerifiedAt !== null },
    ...(loan.kycTier === 'managed' && !financing ? [{ name: 'kyc' as const, done: !['kyc_required', 'kyc_pending'].includes(loan.status) }] : []),
    ...financingSteps,
    ...(guarantors.required > 0 ? [{ name: 'guarantors' as const, done: accepted || guarantors.confirmed >= guarantors.required }] : []),
    // Before the offer, so the borrower signs knowing who is paid; a loan disbursed without a choice (paid to the pushed provider) has nothing left to pick.
    ...(catalog ? [{ name: 'catalog' as const, done: loan.settlementProviderId !== null || DISBURSED_STATES.includes(loan.status as LoanStatus) }] : []),
    { name: 'offer', done: accepted },
    { name: 'bank', done: hasBank },
    { name: 'mandate', done: Boolean(loan.hasActiveMandate) },
  ];
  const nextStep = steps.find((s) => !s.done)?.name ?? null;
  let status: CheckoutStatus;
  if (loan.status === 'terms_declined') status = 'declined';
  else if (['rejected', 'cancelled'].includes(loan.status) || financing?.status === 'expired') status = 'closed';
  else if (nextStep === null) status = 'complete';
  else if (loan.status === 'under_review' || (nextStep === 'offer' && loan.status !== 'awaiting_acceptance')) status = 'waiting_for_lender';
  // Signed, account given, mandate live: the patient is done even while the disbursement to the clinic settles.
  else status = 'in_progress';
  return { steps, nextStep: status === 'in_progress' || status === 'waiting_for_lender' ? nextStep : null, status };
}

/** Where the borrower stands, computed from server-side state only (so a reload or a return from the rail resumes correctly). */
export async function getCheckoutState(db: Executor, platform: StatePlatform, scope: CheckoutScope, options: { organisationName: string; now: Date }): Promise<CheckoutState> {
  const session = await getSessionRow(db, scope);
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  const borrower = await db.selectFrom('borrowers').selectAll().where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  const mandateRow = await currentMandateRow(db, loan.id);
  const bank = await capturedBankAccount(db, loan.id);
  const hasBank = bank !== undefined || (mandateRow !== undefined && LIVE_MANDATE.includes(mandateRow.status));
  const required = await guarantorsRequired(db, loan.id);
  const guarantorRows = required > 0 ? await listGuarantors(db, loan.id) : [];
  const catalog = await settlementCatalogOffered(db, loan.id);
  const financing = await db.selectFrom('financingApplications').selectAll().where('id', '=', loan.id).executeTakeFirst();
  const { steps, nextStep, status } = progress(session, loan, hasBank, { required, confirmed: guarantorRows.filter((g) => g.verifiedAt).length }, catalog, financing);
  const phone = await loanPhone(db, loan.id);
  const verified = session.otpVerifiedAt !== null;
  const mandate = mandateRow ? toMandate(mandateRow) : undefined;
  const { allowedOrigins: _origins, returnUrl: _returnUrl, updatedAt: _updatedAt, ...branding } = await getCheckoutSettings(db, scope);
  return {
    session: { ...toCheckoutSession(session), otpVerified: verified, expiresInSeconds: secondsUntil(session.expiresAt, options.now) },
    organisationName: options.organisationName,
    mode: scope.mode,
    branding: { ...branding, securedBy: platform.settings.CHECKOUT_PLATFORM_NAME },
    phoneHint: phone ? maskPhone(phone) : null,
    otpChallenge: await currentOtpChallenge(db, session, options.now),
    status,
    nextStep,
    steps,
    borrower: verified
      ? { firstName: borrower.firstName, lastName: borrower.lastName, email: borrower.email, emailHint: borrower.email ? maskEmail(borrower.email) : null, identityStatus: borrower.identityStatus }
      : null,
    loan: verified
      ? {
          id: loan.id,
          status: loan.status as LoanStatus,
          kycTier: loan.kycTier,
          currency: loan.currency,
          principalKobo: loan.principalKobo,
          tenorDays: loan.tenorDays,
          documentReference: loan.documentReference,
          termsAcceptedAt: loan.termsAcceptedAt,
          hasActiveMandate: Boolean(loan.hasActiveMandate),
          receiptSentAt: loan.checkoutReceiptSentAt,
        }
      : null,
    offer: verified ? await offerFacts(db, platform, loan, options.now) : null,
    bank: verified && bank ? { bankCode: bank.bankCode, bankName: bank.bankName, accountNumberLast4: bank.accountNumber.slice(-4), accountName: bank.accountName } : null,
    mandate:
      verified && mandate
        ? { id: mandate.id, status: mandate.status, provider: mandate.provider, authorizationUrl: mandate.authorizationUrl, activatedAt: mandate.activatedAt, failure: onCapturedAccount(mandateRow!, bank) ? mandateFailure(mandateRow!) : null }
        : null,
    guarantorsRequired: required,
    guarantors: verified ? guarantorRows.map(toGuarantor) : null,
    settlementCatalog: catalog,
    settlementMerchant: verified && catalog ? await chosenSettlementMerchant(db, loan) : null,
    payout: verified ? await payoutFacts(db, loan) : null,
    financing: verified && financing ? financingView(financing) : null,
  };
}
