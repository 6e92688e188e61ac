import { EARLY_SETTLEMENT_INTEREST } from '../domain/repayments/settlement-quote';
import { isIP } from 'node:net';
import { z } from 'zod';
import { NAME_MISMATCH_POLICIES } from '../../shared/name-mismatch-policy';
import {
  APPROVAL_MODES,
  INSURANCE_MODES,
  INTEREST_MODELS,
  KYC_TIERS,
  PREMIUM_BEARERS,
  RATE_DISPLAYS,
  REPAYMENT_FREQUENCIES,
  SETTLEMENT_DESTINATIONS,
} from '../domain/products/product';
import { PROVIDER_TYPES } from '../domain/providers/provider';
import { safeName } from '../../shared/safe-text';
import { KoboAmount, Timestamp, Uuid } from '../domain/contract-fields';

/** Names (people, organisations) refuse control and bidi characters: see server/shared/safe-text.ts. */
export { safeName };

/** Shared pieces of the public contract, declared in the domain (its event catalogue uses them too). */
export { KoboAmount, Timestamp, Uuid };

/**
 * An IPv4 or IPv6 address, as one string schema (a union of `z.ipv4()` and `z.ipv6()` documents as an `anyOf` of two
 * identical `format: ip` strings, which API-document validators flag).
 */
export const IpAddress = z
  .string()
  .max(45)
  .refine((value) => isIP(value) !== 0, { error: 'must be an IPv4 or IPv6 address' })
  .meta({ example: '203.0.113.7' });

export const IdParams = z.object({ id: Uuid.meta({ description: 'Record id (UUID).' }) });

/** `?limit=` with a default and the ceiling every list shares (100). */
export const limitParam = (fallback: number) =>
  z.coerce.number().int().min(1).max(100).default(fallback).meta({ description: `Page size, 1-100 (default ${fallback}).` });

/** Boolean query flags: `true`/`false` (or 1/0); anything else is a 400. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** The product's early-settlement rule (`repayments/settlement-quote.ts`), as the borrower's settlement quote applies it. */
export const EarlySettlementRuleSchema = z
  .object({
    interest: z.enum(EARLY_SETTLEMENT_INTEREST).meta({
      description:
        '`to_date` (default): interest accrued to the day of the quote (whole days of the running period, pro rata) less interest paid; `scheduled`: the rest of the scheduled interest, as if the loan ran to term.',
    }),
    feeBps: z.number().int().min(0).max(10_000).meta({
      description: 'A settlement fee in basis points of the unpaid principal (rounded down), never taking the quote above the scheduled outstanding. Default 0.',
    }),
  })
  .meta({ id: 'EarlySettlementRule', description: 'What paying the loan off early costs. Unpaid principal and the fees of instalments already due are always owed; fees of instalments not yet due are not.' });

/** The product's reminder texts (`borrower-loans/reminders.ts`). */
export const ReminderRuleSchema = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether the product\'s borrowers get reminders by text. Default true.' }),
    leadDays: z.number().int().min(0).max(14).meta({
      description:
        'How many days before each direct debit the reminder goes out: from the start of that local day, outside the organisation\'s quiet hours (default 21:00–08:00 Africa/Lagos). 0 = on the day of the debit, before it. Default 3.',
    }),
  })
  .meta({
    id: 'ReminderRule',
    description:
      'Texts to the borrower in their language: one `leadDays` days before each direct debit, and one after a failed debit with the link to pay now (`/my-loan`). At most one of each per instalment.',
  });

export const LoanProductSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    code: z.string().max(50),
    name: z.string().max(150),
    description: z.string().nullable(),
    currency: z.string().length(3),
    isActive: z.boolean(),
    kycTier: z.enum(KYC_TIERS),
    approvalMode: z.enum(APPROVAL_MODES),
    interestModel: z.enum(INTEREST_MODELS),
    interestRateBps: z.number().int().meta({ description: 'Annual nominal rate in basis points, pro-rated by tenor at pricing time.' }),
    lateFeeBps: z.number().int(),
    processingFeeBps: z.number().int().meta({ description: 'Basis points of principal.' }),
    processingFeeFlatKobo: KoboAmount,
    minAmountKobo: KoboAmount,
    maxAmountKobo: KoboAmount,
    minTenorDays: z.number().int(),
    maxTenorDays: z.number().int(),
    repaymentFrequency: z
      .enum(REPAYMENT_FREQUENCIES)
      .nullable()
      .meta({ description: 'Instalment frequency for loans priced from the product; null means monthly.' }),
    insuranceMode: z.enum(INSURANCE_MODES),
    insurancePremiumBearer: z.enum(PREMIUM_BEARERS),
    insurancePremiumBps: z.number().int(),
    settlementDestination: z.enum(SETTLEMENT_DESTINATIONS),
    settlementCatalogEnabled: z.boolean(),
    capitalPoolCode: z.string().nullable(),
    recoveryEnabled: z.boolean(),
    recoveryPolicyId: Uuid.nullable(),
    recoveryDefaultAfterDaysOverdue: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          'The product\'s recovery policy. With `recoveryEnabled`, a loan defaults once an instalment has been overdue this many days; otherwise the tenant\'s threshold applies.',
      }),
    guarantorsRequired: z
      .number()
      .int()
      .meta({ description: 'Guarantors the borrower names in the hosted checkout (each confirms their phone by OTP) before signing; 0 = none.' }),
    rateDisplay: z.enum(RATE_DISPLAYS).meta({
      description:
        'How the checkout quotes the interest rate to the borrower: `annual` (default: `interestRateBps` a year) or `monthly` ' +
        '(`interestRateBps` ÷ 12 a month, as Nigerian consumer lenders usually quote). Display only: pricing always uses the annual rate, and the APR is shown in both cases as the comparison figure.',
    }),
    nameMismatchPolicy: z.enum(NAME_MISMATCH_POLICIES).meta({
      description:
        'What a bank account in another name that the borrower confirmed as theirs does in the checkout: `allow` (default: it is kept), `review` (it is kept and the loan waits ' +
        '`under_review` for a person: a `name_mismatch` review with the names, the comparison\'s score and the confirmation; clearing returns the loan to where it was) or `refuse` ' +
        '(409 `account_name_mismatch` even when confirmed: only an account in the borrower\'s own name).',
    }),
    earlySettlement: EarlySettlementRuleSchema,
    reminders: ReminderRuleSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'LoanProduct', description: 'A loan product (read-only over the API; defined by an operator).' });

export const BorrowerSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    clientReference: z.string().nullable(),
    firstName: z.string().max(100),
    lastName: z.string().max(100),
    phone: z.string().max(20),
    email: z.email().nullable(),
    identityStatus: z.enum(['unclaimed', 'linked']),
    linkedAt: Timestamp.nullable(),
    userId: Uuid.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Borrower', description: 'A borrower of the organisation. The raw BVN is never returned or stored in clear.' });

export const ProviderDirectoryItemSchema = z
  .object({
    id: Uuid.meta({ description: 'Use as `providerId` in pushes.' }),
    code: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    providerType: z.enum(PROVIDER_TYPES),
    organisationType: z.string(),
    receivesDrugs: z.boolean(),
    receivesTests: z.boolean(),
    isActive: z.boolean(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    localGovernment: z.string().nullable(),
    country: z.string().nullable(),
    organisationLogoUrl: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'ProviderDirectoryItem', description: 'An active patient-serving provider of the public directory.' });

export const PaginationSchema = z
  .object({
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
    hasNext: z.boolean(),
  })
  .meta({ id: 'Pagination' });

export const PoolBalanceSchema = z
  .object({
    code: z.string().meta({ description: 'The capital pool code products name in `capitalPoolCode`.' }),
    currency: z.string().length(3),
    balanceKobo: KoboAmount.meta({ description: 'Available to disburse, in kobo. Never negative.' }),
    balanceNaira: z.number().meta({ description: 'Display mirror of balanceKobo. Never send it back or compute with it.' }),
  })
  .meta({ id: 'PoolBalance' });

export const CapitalPositionSchema = z
  .object({
    pools: z.array(PoolBalanceSchema),
    totalBalanceKobo: KoboAmount,
    totalBalanceNaira: z.number().meta({ description: 'Display mirror of totalBalanceKobo.' }),
  })
  .meta({ id: 'CapitalPosition', description: 'Balances of the credential mode\'s capital pools, one entry per pool code.' });

export const UsageRollupSchema = z
  .object({
    day: Timestamp.meta({ description: 'Start of the UTC day.' }),
    requestCount: z.number().int().meta({ format: 'int64' }),
    errorCount: z.number().int().meta({ format: 'int64', description: 'Requests answered 4xx or 5xx.' }),
  })
  .meta({ id: 'APIUsageDailyRollup' });

export const PREAPPROVAL_STATUS_VALUES = ['received', 'offer_issued', 'accepted', 'declined', 'expired', 'disbursed'] as const;

export const BorrowerMatchSchema = z
  .object({
    borrower: z.enum(['new', 'existing']).meta({ description: '`existing`: the organisation already had a borrower with this BVN (in this mode).' }),
    differs: z.array(z.enum(['name', 'phone'])).meta({ description: 'What this push says differently from the borrower on record. The name on record stays; a different name (not a spelling or form of it) is refused with 409 `borrower_conflict`.' }),
    codesTo: z.enum(['phone_on_record', 'pushed_phone']).meta({
      description:
        'Where this pre-approval\'s checkout texts its codes and links. `pushed_phone`: the push gave another phone than the one on record; the checkout texts the pushed phone, and once the borrower verifies a code there it becomes the phone on record (the newest verified phone wins).',
    }),
  })
  .meta({ id: 'BorrowerMatch', description: 'How the pushed borrower compared with the borrower on record for the same BVN.' });

export const PreapprovalSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    borrowerId: Uuid,
    assessmentId: z.string().meta({ description: 'From `decision.metadata.assessment_id`; the idempotency key of the push.' }),
    clientReference: z.string().nullable(),
    recommendation: z.string().meta({ description: '`decision.recommendation` lower-cased, e.g. `approve`, `decline`.' }),
    approvedAmountKobo: KoboAmount.meta({ description: 'The pushed naira amount converted exactly to kobo at ingest (0 for a decline without an amount).' }),
    interestRateBps: z.number().int().nullable().meta({ description: 'The pushed percent converted exactly to basis points.' }),
    tenorDays: z.number().int().nullable(),
    repaymentFrequency: z.string().nullable(),
    confidence: z.string().nullable(),
    riskBand: z.string().nullable(),
    trustScore: z.number().int().nullable(),
    status: z.enum(PREAPPROVAL_STATUS_VALUES),
    expiresAt: Timestamp.nullable().meta({ description: 'When an unconsumed pre-approval lapses (tenant-configured); not set on declines.' }),
    loanId: Uuid.nullable(),
    providerOrgId: Uuid.nullable(),
    borrowerMatch: BorrowerMatchSchema.nullable().meta({ description: 'Null for pushes recorded before the comparison was kept.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Preapproval', description: 'A pushed credit decision. The pushed payloads are never echoed back.' });

export const PreapprovalAckSchema = z
  .object({
    preapprovalId: Uuid,
    assessmentId: z.string(),
    borrowerId: Uuid,
    recommendation: z.string(),
    approvedAmountKobo: KoboAmount,
    status: z.enum(PREAPPROVAL_STATUS_VALUES),
    expiresAt: Timestamp.nullable(),
    borrowerMatch: BorrowerMatchSchema.nullable(),
  })
  .meta({ id: 'PreapprovalAck', description: 'Acknowledgement of a push, the same on a replay.' });

export const PushPreapprovalBody = z
  .object({
    borrower: z
      .object({
        firstName: safeName({ max: 100 }),
        lastName: safeName({ max: 100 }),
        phone: z.string().trim().regex(/^\+?[0-9][0-9 ()-]{5,19}$/, 'a phone number of at most 20 characters').max(20),
        email: z.email().max(150).nullable().optional(),
      })
      .strict(),
    decision: z
      .looseObject({})
      .meta({
        additionalProperties: true,
        description:
          'The partner\'s credit-decision payload, verbatim. Must carry `metadata.assessment_id`, `metadata.bvn` (11 digits) and ' +
          '`decision.recommendation`; `decision.approved_amount` (naira, at most 2 decimals, required unless declining) and ' +
          '`decision.conditions` {`interest_rate` percent (at most 2 decimals), `tenor_days`, `repayment_frequency`} are summarised. ' +
          '`confidence`, `risk_band`, `trust_score` (or `trust_score.score` / `breakdown.risk_band`) are recorded for audit. ' +
          'The BVN is matched, kept only as a keyed hash and scrubbed from the stored payload; an optional `metadata.nin` likewise (keyed hash only).',
        example: {
          metadata: { assessment_id: 'asm_01J9Z3', bvn: '22222222222' },
          decision: {
            recommendation: 'APPROVE',
            approved_amount: 150000.5,
            conditions: { interest_rate: 4.5, tenor_days: 90, repayment_frequency: 'monthly' },
          },
          confidence: 'high',
          risk_band: 'B',
          trust_score: 712,
        },
      }),
    clientReference: z.string().max(255).optional(),
    enriched: z.looseObject({}).optional().meta({ additionalProperties: true, description: 'Enriched payload, verbatim; kept for audit, never echoed.' }),
    providerId: Uuid.optional().meta({ description: 'A provider id from GET /v1/providers; record-only.' }),
  })
  .strict();
