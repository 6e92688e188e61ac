import { z } from 'zod';
import { LOAN_STATUSES } from '../domain/loans/loan';
import { REPAYMENT_INITIATORS } from '../domain/repayments/repayment-initiator';
import { IpAddress, KoboAmount, Timestamp, Uuid, safeName } from './schemas';

export const LoanStatusSchema = z.enum(LOAN_STATUSES).meta({
  id: 'LoanStatus',
  description:
    'pending → (attested | kyc_required → kyc_completed) → awaiting_acceptance → terms_accepted → active (after disbursement) → completed | defaulted. ' +
    'Side exits: under_review (AML hit, or not screened in live mode without a provider; needs a human), rejected, terms_declined, cancelled (before disbursement). ' +
    '`approved` and `disbursed` are not resting states here: approval issues the offer at once, disbursement makes the loan `active`.',
});

export const LoanSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    borrowerId: Uuid,
    loanProductId: Uuid,
    status: LoanStatusSchema,
    approvalMode: z.enum(['tenant', 'auto_credit_score', 'myitura_analyst', 'partner_pushed']),
    kycTier: z.enum(['delegated', 'managed']),
    settlementDestination: z.enum(['borrower_wallet', 'borrower_bank_account', 'merchant_wallet', 'tenant_wallet']),
    currency: z.string(),
    tenorDays: z.number().int(),
    repaymentFrequency: z.enum(['daily', 'weekly', 'biweekly', 'monthly']).meta({ description: 'The instalment frequency priced.' }),
    interestRateBps: z.number().int().meta({ description: 'The annual nominal rate this loan is priced at (pushed or product rate).' }),
    amountRequestedKobo: KoboAmount,
    principalKobo: KoboAmount.meta({ description: 'Approved principal; equals requested unless re-priced.' }),
    principalBalanceKobo: KoboAmount,
    amountPaidKobo: KoboAmount,
    outstandingKobo: KoboAmount.meta({ description: 'Principal + cost of credit (interest and borrower-borne fees, late fees once charged) − paid. Before an offer: the principal.' }),
    disbursedAmountKobo: KoboAmount.nullable(),
    disbursedAt: Timestamp.nullable(),
    disbursementReference: z.string().nullable(),
    approvedAt: Timestamp.nullable(),
    approvalNotes: z.string().nullable(),
    rejectionReason: z.string().nullable(),
    termsAcceptedAt: Timestamp.nullable(),
    offerLetterIssuedAt: Timestamp.nullable(),
    pricingSnapshotId: Uuid.nullable(),
    documentReference: z.string().nullable().meta({ description: 'The current offer\'s reference; a consent must name it.' }),
    activeMandateId: Uuid.nullable(),
    hasActiveMandate: z.boolean(),
    applicationUrl: z.string().nullable(),
    clientReference: z.string().nullable(),
    metadata: z.looseObject({}).nullable().meta({ additionalProperties: true }),
    cancelledBy: z.enum(['tenant', 'borrower', 'admin']).nullable().meta({ description: 'Who called the loan off (string, nullable).' }),
    cancellationReason: z.string().nullable(),
    preapprovalId: Uuid.nullable(),
    inArrears: z.boolean().meta({
      description: 'An instalment is overdue and unpaid. The loan stays `active` while in arrears ("active in arrears"); it becomes `defaulted` after the tenant\'s default threshold.',
    }),
    arrearsSince: Timestamp.nullable().meta({ description: 'Due date of the oldest unpaid overdue instalment.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Loan' });

export const LoanDetailSchema = LoanSchema.extend({
  checkoutSession: z
    .object({
      expiresAt: Timestamp.meta({ description: 'When the link stops working unless the borrower is active on the page (each activity slides it by `CHECKOUT_SESSION_TTL_MINUTES`).' }),
      maxExpiresAt: Timestamp.meta({ description: 'The link\'s absolute end (`CHECKOUT_SESSION_MAX_LIFETIME_MINUTES` after it was minted, 12 hours by default).' }),
      revokedAt: Timestamp.nullable(),
    })
    .nullable()
    .meta({ description: 'The checkout session behind `applicationUrl`; null when the loan has none.' }),
}).meta({ id: 'LoanDetail', description: 'A Loan as `GET /v1/loans/{id}` returns it: the Loan resource and its application link\'s expiry.' });

export const ScheduleItemSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    loanId: Uuid,
    installmentNumber: z.number().int(),
    dueDate: Timestamp,
    principalKobo: KoboAmount,
    interestKobo: KoboAmount,
    feeKobo: KoboAmount,
    totalKobo: KoboAmount.meta({ description: 'principal + interest + fee, fixed at schedule generation.' }),
    lateFeeKobo: KoboAmount.meta({ description: 'The late fee charged once when the instalment became overdue (0 before). Amount due = totalKobo + lateFeeKobo.' }),
    amountPaidKobo: KoboAmount,
    paidAt: Timestamp.nullable(),
    status: z.enum(['pending', 'paid', 'partial', 'overdue', 'waived']),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'LoanRepaymentScheduleItem' });

export const KycAttestationSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    borrowerId: Uuid,
    loanId: Uuid.nullable(),
    attestedAt: Timestamp,
    attestedByKey: z.string().meta({ description: 'Masked public key of the attesting credential.' }),
    attestedChecks: z.looseObject({}).meta({ additionalProperties: true }),
    schemaVersion: z.number().int(),
    amlScreenStatus: z.enum(['pending', 'clear', 'hit']),
    amlScreenDetail: z.string().nullable(),
    amlScreenedAt: Timestamp.nullable(),
    sampledForAudit: z.boolean(),
    auditOutcome: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'KYCAttestation' });

export const LoanKycResultSchema = z
  .object({
    outcome: z.enum(['verified', 'failed', 'pending']),
    loanStatus: LoanStatusSchema,
    documents: z.array(z.object({ type: z.string(), status: z.string() })),
  })
  .meta({ id: 'LoanKYCResult' });

/** The managed-tier KYC a partner (`POST /v1/loans/{id}/kyc`) or the borrower's checkout (`POST /v1/checkout/kyc`) submits. */
export const KycInput = z
  .object({
    bvn: z.string().regex(/^\d{11}$/, 'exactly 11 digits'),
    nin: z.string().min(11).max(15).optional(),
    dateOfBirth: z.string().max(20).optional(),
    address: z.string().max(255).optional(),
  })
  .strict();

export const OfferLetterLinkSchema = z
  .object({
    url: z.string().meta({ format: 'uri', description: 'Signed, short-lived; needs no API key. A tampered or expired link answers 403.' }),
    expiresAt: Timestamp,
    documentReference: z.string(),
  })
  .meta({ id: 'OfferLetterLink' });

export const InsurancePolicySchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    loanId: Uuid,
    provider: z.string(),
    status: z.enum(['pending', 'active', 'failed']).meta({
      description: '`pending`: live cover the insurer binds by hand; it becomes `active` (with `policyReference`, the insurer\'s policy number, and `loan.insurance.activated`) once the service\'s staff record the policy.',
    }),
    triggeredBy: z.enum(['automatic', 'manual']),
    premiumBearer: z.enum(['borrower', 'tenant']),
    premiumKobo: KoboAmount,
    commissionKobo: KoboAmount.meta({ description: 'The platform\'s share of the premium.' }),
    policyReference: z.string().nullable(),
    errorMessage: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    activatedAt: Timestamp.nullable().meta({ description: 'When the policy became `active`; null while `pending` or `failed`.' }),
  })
  .meta({ id: 'LoanInsurancePolicy' });

export const BorrowerConsentSchema = z
  .object({
    signatureFullName: safeName({ min: 2, max: 200 }).meta({ description: 'The typed name is the signature.' }),
    ipAddress: IpAddress.meta({ description: 'Borrower\'s IP as seen by the partner.' }),
    userAgent: z.string().min(1).max(400),
    signedAt: z.iso.datetime({ offset: true }).meta({ description: 'At the partner\'s clock.' }),
    documentReference: z.string().min(1).max(200).meta({ description: 'From the offer-letter link; must name the current offer.' }),
    signatureEmail: z.email().max(150).nullable().optional(),
  })
  .strict()
  .meta({ id: 'BorrowerConsent', description: 'Evidence of the borrower\'s signature, stored with the loan.' });

export const PreapprovalFunnelSchema = z
  .object({
    pushed: z.number().int(),
    awaitingOffer: z.number().int(),
    offerIssued: z.number().int(),
    acceptedByBorrower: z.number().int(),
    declinedByBorrower: z.number().int(),
    declinedByPartner: z.number().int(),
    expired: z.number().int(),
    disbursed: z.number().int(),
    approvedAmountKobo: KoboAmount,
    disbursedAmountKobo: KoboAmount,
    repaidAmountKobo: KoboAmount,
    outstandingKobo: KoboAmount,
  })
  .meta({
    id: 'PreapprovalFunnel',
    description:
      'Counts are cumulative by the furthest stage reached (a disbursed pre-approval also counts as offered and accepted). Only loans from pushed decisions count.',
  });

export const RepaymentSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    loanId: Uuid,
    borrowerId: Uuid,
    reference: z.string().meta({ description: 'System-generated, unique; also the ledger transaction reference.' }),
    method: z.enum(['wallet', 'mandate', 'external', 'cash_wallet']),
    initiatedBy: z.enum(REPAYMENT_INITIATORS).meta({
      description:
        'Who started the repayment: `schedule` — the service\'s automatic direct debit of what fell due (method `mandate`); ' +
        '`borrower` — the borrower on their own loan page (pay now or pay off early; method `mandate`); ' +
        '`partner` — you, through `POST /v1/loans/{id}/repayments` (any method). ' +
        'Repayments from before this field existed: a charge that paid off the loan early reads `borrower`, every other `mandate` charge `schedule`, every other method `partner`.',
    }),
    status: z.enum(['pending', 'completed', 'failed']),
    amountKobo: KoboAmount.meta({ description: 'What was applied to the loan.' }),
    unallocatedKobo: KoboAmount.meta({ description: 'What was sent beyond the whole outstanding and not applied (return it to the payer).' }),
    feePortionKobo: KoboAmount,
    interestPortionKobo: KoboAmount,
    principalPortionKobo: KoboAmount,
    externalReference: z.string().nullable(),
    ledgerTransactionRef: z.string().nullable(),
    completedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'LoanRepayment' });
