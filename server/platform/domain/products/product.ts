import { z } from 'zod';
import type { Executor } from '../../db/database';
import type { LoanProductsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation } from '../../db/database';
import { safeName } from '../../../shared/safe-text';
import { APPROVAL_MODES, INSURANCE_MODES, INTEREST_MODELS, KYC_TIERS, PREMIUM_BEARERS, PRODUCT_CODE, PRODUCT_CODE_RULE, REPAYMENT_FREQUENCIES, SETTLEMENT_DESTINATIONS } from '../../../shared/loan-product-fields';
/** The fields' value sets live in `server/shared/loan-product-fields.ts` (the dashboard's form offers the same). */
export { APPROVAL_MODES, INSURANCE_MODES, INTEREST_MODELS, KYC_TIERS, PREMIUM_BEARERS, REPAYMENT_FREQUENCIES, SETTLEMENT_DESTINATIONS };
/**
 * The approval mode of a product the service lends from itself (patient financing's), never one a tenant's product
 * takes. The service decides and disburses such loans itself: the lending API's reject and disburse refuse them
 * (approve refuses every mode but `tenant`).
 */
export const SERVICE_APPROVAL_MODE = 'service';
/** How the checkout quotes the interest rate (the checkout contract's list). */
export { RATE_DISPLAYS, type RateDisplay } from '../../../shared/checkout-contract';
import { RATE_DISPLAYS } from '../../../shared/checkout-contract';
import { NAME_MISMATCH_POLICIES } from '../../../shared/name-mismatch-policy';
import { DEFAULT_EARLY_SETTLEMENT, EARLY_SETTLEMENT_INTEREST, type EarlySettlementRule } from '../repayments/settlement-quote';

export const MAX_REMINDER_LEAD_DAYS = 14;
export const DEFAULT_REMINDERS: ReminderRule = { enabled: true, leadDays: 3 };

const kobo = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const bps = z.number().int().min(0).max(100_000);
export const POOL_CODE = /^[A-Za-z0-9_-]{1,50}$/;

/** What an operator supplies to define a product: the spec's LoanProduct fields without ids and timestamps. */
export const ProductInputSchema = z
  .object({
    code: z.string().trim().regex(PRODUCT_CODE, PRODUCT_CODE_RULE),
    name: safeName({ max: 150 }),
    description: z.string().max(2000).nullable().default(null),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code').default('NGN'),
    isActive: z.boolean().default(true),
    kycTier: z.enum(KYC_TIERS),
    approvalMode: z.enum(APPROVAL_MODES),
    interestModel: z.enum(INTEREST_MODELS),
    interestRateBps: bps,
    lateFeeBps: bps.default(0),
    processingFeeBps: bps.default(0),
    processingFeeFlatKobo: kobo.default(0),
    minAmountKobo: kobo.min(1),
    maxAmountKobo: kobo.min(1),
    minTenorDays: z.number().int().min(1).max(3650),
    maxTenorDays: z.number().int().min(1).max(3650),
    repaymentFrequency: z.enum(REPAYMENT_FREQUENCIES).nullable().default(null),
    insuranceMode: z.enum(INSURANCE_MODES).default('off'),
    insurancePremiumBearer: z.enum(PREMIUM_BEARERS).default('borrower'),
    insurancePremiumBps: bps.default(0),
    settlementDestination: z.enum(SETTLEMENT_DESTINATIONS),
    settlementCatalogEnabled: z.boolean().default(false),
    capitalPoolCode: z.string().regex(POOL_CODE, 'letters, digits, _ and -, at most 50').nullable().default(null),
    recoveryEnabled: z.boolean().default(false),
    recoveryPolicyId: z.uuid().nullable().default(null),
    /** Recovery policy: days an instalment may stay overdue before the loan defaults; required when recoveryEnabled. */
    recoveryDefaultAfterDaysOverdue: z.number().int().min(1).max(3650).nullable().default(null),
    /** Guarantors the borrower names in checkout (each confirms their phone by OTP) before signing; 0 = none. */
    guarantorsRequired: z.number().int().min(0).max(5).default(0),
    /** How the checkout quotes `interestRateBps` to the borrower (the APR is always shown beside it). */
    rateDisplay: z.enum(RATE_DISPLAYS).default('annual'),
    /** What a bank account in another name that the borrower confirmed does (`shared/name-mismatch-policy.ts`). */
    nameMismatchPolicy: z.enum(NAME_MISMATCH_POLICIES).default('allow'),
    /** What paying the loan off early costs (`repayments/settlement-quote.ts`): interest to date or as scheduled, and a fee in bps of the unpaid principal. */
    earlySettlement: z
      .object({ interest: z.enum(EARLY_SETTLEMENT_INTEREST), feeBps: z.number().int().min(0).max(10_000) })
      .strict()
      .default({ ...DEFAULT_EARLY_SETTLEMENT }),
    /** Texts to the borrower (`borrower-loans/reminders.ts`): one `leadDays` days before each direct debit, one after a failed debit. */
    reminders: z
      .object({ enabled: z.boolean(), leadDays: z.number().int().min(0).max(MAX_REMINDER_LEAD_DAYS) })
      .strict()
      .default({ ...DEFAULT_REMINDERS }),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.minAmountKobo > p.maxAmountKobo) {
      ctx.addIssue({ code: 'custom', path: ['minAmountKobo'], message: 'must not exceed maxAmountKobo' });
    }
    if (p.minTenorDays > p.maxTenorDays) {
      ctx.addIssue({ code: 'custom', path: ['minTenorDays'], message: 'must not exceed maxTenorDays' });
    }
    if (p.recoveryEnabled && p.recoveryDefaultAfterDaysOverdue === null) {
      ctx.addIssue({ code: 'custom', path: ['recoveryDefaultAfterDaysOverdue'], message: 'required when recoveryEnabled is true' });
    }
    if (p.settlementCatalogEnabled && p.settlementDestination !== 'merchant_wallet') {
      ctx.addIssue({
        code: 'custom',
        path: ['settlementCatalogEnabled'],
        message: 'only allowed when settlementDestination is merchant_wallet',
      });
    }
  });

export type ProductInput = z.input<typeof ProductInputSchema>;

/** 400 `invalid_request` naming the first refused field in the message and as `data.field` (a form shows it beside that field). */
function refusedInput(error: z.ZodError): AppError {
  const issue = error.issues[0]!;
  const field = issue.path.join('.') || 'input';
  return new AppError('invalid_request', `${field}: ${issue.message}`, undefined, { field });
}

export interface LoanProduct
  extends Omit<
    LoanProductsTable,
    'isActive' | 'settlementCatalogEnabled' | 'recoveryEnabled' | 'earlySettlementInterest' | 'earlySettlementFeeBps' | 'remindersEnabled' | 'reminderLeadDays'
  > {
  isActive: boolean;
  settlementCatalogEnabled: boolean;
  recoveryEnabled: boolean;
  earlySettlement: EarlySettlementRule;
  reminders: ReminderRule;
}

/** The product's reminder rule: a text `leadDays` days (0–14) before each direct debit, and one after a failed debit. */
export interface ReminderRule {
  enabled: boolean;
  leadDays: number;
}

/** The product's reminder rule as stored (two columns). */
export const remindersOf = (row: Pick<LoanProductsTable, 'remindersEnabled' | 'reminderLeadDays'>): ReminderRule => ({
  enabled: Boolean(row.remindersEnabled),
  leadDays: Number(row.reminderLeadDays),
});

/** The product's early-settlement rule as stored (two columns). */
export const earlySettlementOf = (row: Pick<LoanProductsTable, 'earlySettlementInterest' | 'earlySettlementFeeBps'>): EarlySettlementRule => ({
  interest: row.earlySettlementInterest as EarlySettlementRule['interest'],
  feeBps: Number(row.earlySettlementFeeBps),
});

export function toProduct(row: LoanProductsTable): LoanProduct {
  const { earlySettlementInterest: _interest, earlySettlementFeeBps: _fee, remindersEnabled: _reminders, reminderLeadDays: _lead, ...rest } = row;
  return {
    ...rest,
    isActive: Boolean(row.isActive),
    settlementCatalogEnabled: Boolean(row.settlementCatalogEnabled),
    recoveryEnabled: Boolean(row.recoveryEnabled),
    earlySettlement: earlySettlementOf(row),
    reminders: remindersOf(row),
  };
}

/** The validated input as columns: the early-settlement rule and the reminder rule go into two columns each. */
function columnsOf(input: z.output<typeof ProductInputSchema>) {
  const { earlySettlement, reminders, ...fields } = input;
  return {
    ...fields,
    earlySettlementInterest: earlySettlement.interest,
    earlySettlementFeeBps: earlySettlement.feeBps,
    remindersEnabled: reminders.enabled,
    reminderLeadDays: reminders.leadDays,
  };
}

export async function createProduct(
  db: Executor,
  options: { organisationId: string; input: unknown; now: Date },
): Promise<LoanProduct> {
  const parsed = ProductInputSchema.safeParse(options.input);
  if (!parsed.success) throw refusedInput(parsed.error);
  const at = options.now.toISOString();
  const row: LoanProductsTable = {
    id: newId(),
    organisationId: options.organisationId,
    ...columnsOf(parsed.data),
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.insertInto('loanProducts').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', `code: a product with code ${row.code} exists already`, undefined, { field: 'code' });
    throw error;
  }
  return toProduct(row);
}

export async function listProducts(db: Executor, organisationId: string): Promise<LoanProduct[]> {
  const rows = await db
    .selectFrom('loanProducts')
    .selectAll()
    .where('organisationId', '=', organisationId)
    .orderBy('createdAt', 'asc')
    .orderBy('code', 'asc')
    .execute();
  return rows.map(toProduct);
}

export async function getProduct(db: Executor, organisationId: string, id: string): Promise<LoanProduct> {
  const row = await db
    .selectFrom('loanProducts')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', organisationId)
    .executeTakeFirst();
  if (!row) throw notFound('loan product');
  return toProduct(row);
}

/** The fields an operator or the dashboard sets (ProductInputSchema's keys), as they stand on a product. */
function inputOf(product: LoanProduct): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(ProductInputSchema.shape)) fields[key] = product[key as keyof LoanProduct];
  return fields;
}

/**
 * Changes some fields of a product (a partial `ProductInput`; `{ isActive: false }` deactivates it). The product
 * after the change is validated as a whole by the same schema `createProduct` uses, so an edit can never produce a
 * product a create would refuse (e.g. a new `maxAmountKobo` below the stored `minAmountKobo`); unknown fields are
 * refused. Loans keep what they were given: the rate, amounts and pool are copied onto the loan when it is created,
 * and the fee, insurance and late-fee terms are frozen in the loan's pricing snapshot when its offer is issued
 * (`loans/pricing-snapshot.ts`), so an edit changes only loans created and offers issued after it.
 */
export async function updateProduct(
  db: Executor,
  options: { organisationId: string; id: string; changes: unknown; now: Date },
): Promise<{ before: LoanProduct; after: LoanProduct }> {
  if (typeof options.changes !== 'object' || options.changes === null || Array.isArray(options.changes)) {
    throw new AppError('invalid_request', 'input: must be an object of the fields to change');
  }
  const before = await getProduct(db, options.organisationId, options.id);
  const parsed = ProductInputSchema.safeParse({ ...inputOf(before), ...options.changes });
  if (!parsed.success) throw refusedInput(parsed.error);
  const updatedAt = options.now.toISOString();
  try {
    await db
      .updateTable('loanProducts')
      .set({ ...columnsOf(parsed.data), updatedAt })
      .where('id', '=', before.id)
      .where('organisationId', '=', options.organisationId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', `code: a product with code ${parsed.data.code} exists already`, undefined, { field: 'code' });
    throw error;
  }
  return { before, after: { ...before, ...parsed.data, updatedAt } };
}
