/**
 * The checkout contract: the shapes of what the platform's checkout answers (its state and step
 * routes) as the borrower's browser reads them. The domain builds them (its modules import them from
 * here and re-export them); the widget types its API client with them, and imports nothing else of
 * the server but `server/shared/` (a unit test checks). Types and pure data only: this file imports
 * nothing, and the widget bundles only the constants it uses.
 *
 * Stability: the checkout server forwards these as they are, and a widget already on a page reads
 * them; fields are added, not renamed or removed.
 */

// ── Steps and status ───────────────────────────────────────────────────────────────────────────

export const CHECKOUT_STEPS = ['otp', 'kyc', 'identity', 'decision', 'guarantors', 'catalog', 'offer', 'bank', 'mandate'] as const;
export type CheckoutStep = (typeof CHECKOUT_STEPS)[number];

/**
 * - `in_progress`: `nextStep` is the borrower's to do;
 * - `waiting_for_lender`: the borrower has done what they can (KYC under review, offer not issued yet);
 * - `complete`: every step is done;
 * - `declined`: the borrower declined the offer; `closed`: the lender rejected or cancelled the loan.
 */
export type CheckoutStatus = 'in_progress' | 'waiting_for_lender' | 'complete' | 'declined' | 'closed';

// ── The phone code ─────────────────────────────────────────────────────────────────────────────

export interface OtpSent {
  sentTo: string;
  expiresAt: string;
  resendAvailableAt: string;
  /** Seconds from this answer until another code may be asked for: a phone whose clock is off still counts down right. */
  resendInSeconds: number;
  attemptsAllowed: number;
}

/** The code challenge in play, as the checkout state shows it after a reload (nothing of the code itself); also the 429 `otp_resend_too_soon`'s data. */
export interface OtpChallenge extends OtpSent {
  /** Wrong codes that may still be tried against this code (0: locked, ask for a new one). */
  attemptsLeft: number;
}

// ── The lender's face ──────────────────────────────────────────────────────────────────────────

export const BRANDING_FIELDS = ['displayName', 'logoUrl', 'brandColor', 'supportEmail', 'supportPhone', 'supportUrl', 'privacyUrl', 'termsUrl'] as const;

/**
 * What the checkout shows of the lender, each null until set: the name in the header (else the
 * organisation's name), a logo (https), the brand colour (`#rrggbb`; the widget keeps text AA
 * whatever it is), and the footer's support contact, privacy and terms links.
 */
export type CheckoutBranding = Record<(typeof BRANDING_FIELDS)[number], string | null>;

// ── The offer ──────────────────────────────────────────────────────────────────────────────────

/** How the checkout quotes the interest rate: a year (the stored nominal rate) or a month (it ÷ 12). */
export const RATE_DISPLAYS = ['annual', 'monthly'] as const;
export type RateDisplay = (typeof RATE_DISPLAYS)[number];

/** A signed, expiring link to the offer letter of one document reference. */
export interface OfferLetterLink {
  url: string;
  expiresAt: string;
  documentReference: string;
}

/** The key facts of the current offer, from its frozen pricing snapshot (amounts in kobo). */
export interface OfferFacts {
  documentReference: string;
  currency: string;
  principalKobo: number;
  tenorDays: number;
  repaymentFrequency: string;
  interestModel: string;
  interestRateBps: number;
  /** How the product quotes the rate: `annual` (`interestRateBps` a year) or `monthly` (÷ 12, a month). Display only. */
  rateDisplay: RateDisplay;
  fees: { processingFeeKobo: number; insurancePremiumKobo: number; totalFeesKobo: number };
  totalInterestKobo: number;
  costOfCreditKobo: number;
  totalRepayableKobo: number;
  aprBps: number;
  lateFeeBps: number;
  schedule: Array<{ installmentNumber: number; dueDate: string; principalKobo: number; interestKobo: number; feeKobo: number; totalKobo: number }>;
  offerLetter: OfferLetterLink;
}

// ── Banks and the mandate ──────────────────────────────────────────────────────────────────────

export type InstitutionType = 'commercial' | 'merchant' | 'non_interest' | 'microfinance' | 'payment_service' | 'mobile_money';

export interface Bank {
  /** What the checkout sends as `bankCode`: a bank's 3-digit CBN code where confirmed, otherwise the 6-digit NIP institution code. */
  code: string;
  name: string;
  type: InstitutionType;
  /** The NIBSS Instant Payment institution code (6 digits): what name enquiry and transfers address. */
  nipCode: string;
  /**
   * The CBN code the NUBAN check digit is computed with (3 digits for banks, 5 for other financial
   * institutions); null where account numbers are not NUBANs with that check digit (wallets numbered
   * by phone) or the CBN code is not confirmed: those are checked by name enquiry only.
   */
  nubanCode: string | null;
  /** Other names borrowers search by (brands, abbreviations). */
  aliases: readonly string[];
}

/**
 * Why a mandate ended without becoming active, in the borrower's terms: `declined` (they refused
 * at their bank), `failed` (the bank or rail failed or cancelled it), `expired`; null while it is
 * in play or active.
 */
export type MandateFailure = 'declined' | 'failed' | 'expired';

// ── The money ──────────────────────────────────────────────────────────────────────────────────

/**
 * Where the lender's disbursement pays the money: `bank_account` (the borrower's, paid out by the
 * lender), `wallet` (the borrower's wallet with the lender), `merchant` (`merchantName`, when known),
 * `lender` (the lender's own wallet); `releasedAt`: when the lender disbursed, null until then.
 */
export interface CheckoutPayout {
  to: 'bank_account' | 'wallet' | 'merchant' | 'lender';
  merchantName: string | null;
  releasedAt: string | null;
}

// ── Guarantors and the settlement catalog ──────────────────────────────────────────────────────

export interface Guarantor {
  id: string;
  fullName: string;
  phoneHint: string;
  relationship: string;
  verified: boolean;
  verifiedAt: string | null;
}

/** What the borrower sees of a merchant: the directory's public business facts, nothing about people. */
export interface SettlementMerchant {
  id: string;
  name: string;
  providerType: string;
  address: string | null;
  city: string | null;
  state: string | null;
}

export interface SettlementMerchantPage {
  merchants: SettlementMerchant[];
  pagination: { total: number; page: number; limit: number; totalPages: number; hasNext: boolean };
}

export interface SettlementMerchantChoice {
  merchant: SettlementMerchant;
  chosenAt: string;
}

// ── Patient financing ──────────────────────────────────────────────────────────────────────────

/**
 * A patient-financing application's status. `initiated` → `application_submitted` → `approved` | `rejected`;
 * `approved` → `offer_accepted` | `offer_rejected`; `offer_accepted` → `disbursed` → `completed` | `defaulted`.
 * `cancelled` and `expired` from anything before `disbursed` (expiry only before `offer_accepted`: a signed
 * offer waits for its mandate).
 */
export const FINANCING_STATUSES = [
  'initiated',
  'application_submitted',
  'approved',
  'rejected',
  'offer_accepted',
  'offer_rejected',
  'disbursed',
  'completed',
  'defaulted',
  'cancelled',
  'expired',
] as const;
export type FinancingStatus = (typeof FINANCING_STATUSES)[number];

export interface TenorOption {
  tenorMonths: number;
  tenorDays: number;
  annualRateBps: number;
  /** The largest instalment (the affordability test uses it). */
  instalmentKobo: number;
  instalmentCount: number;
  totalRepayableKobo: number;
  costOfCreditKobo: number;
  aprBps: number;
}

/** What the patient's browser sees of the application (never the BVN, its hash or the bureau report). */
export interface FinancingView {
  sdkReference: string;
  status: FinancingStatus;
  treatment: string;
  amountKobo: number;
  expiresAt: string;
  /** The tenors the patient may choose from, once approved. */
  options: TenorOption[] | null;
  riskBand: string | null;
  rejectionReason: string | null;
}
