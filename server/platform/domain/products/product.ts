import { z } from 'zod';
import type { Executor } from '../../db/database';
import type { LoanProductsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation } from '../../db/database';
import { safeName } from '../../../shared/safe-text';
import { APPROVAL_MODES, INSURANCE_MODES, INTEREST_MODELS, KYC_TIERS, PREMIUM_BEARERS, REPAYMENT_FREQUENCIES, SETTLEMENT_DESTINATIONS } from '../../../shared/loan-product-fields';
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

const kobo = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const bps = z.number().int().min(0).max(100_000);
export const POOL_CODE = /^[A-Za-z0-9_-]{1,50}$/;

/** What an operator supplies to define a product: the spec's LoanProduct fields without ids and timestamps. */
export const ProductInputSchema = z
  .object({
    code: z.string().trim().min(1).max(50),
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

export interface LoanProduct extends Omit<LoanProductsTable, 'isActive' | 'settlementCatalogEnabled' | 'recoveryEnabled'> {
  isActive: boolean;
  settlementCatalogEnabled: boolean;
  recoveryEnabled: boolean;
}

export function toProduct(row: LoanProductsTable): LoanProduct {
  return {
    ...row,
    isActive: Boolean(row.isActive),
    settlementCatalogEnabled: Boolean(row.settlementCatalogEnabled),
    recoveryEnabled: Boolean(row.recoveryEnabled),
  };
}

export async function createProduct(
  db: Executor,
  options: { organisationId: string; input: unknown; now: Date },
): Promise<LoanProduct> {
  const parsed = ProductInputSchema.safeParse(options.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_request', `${issue.path.join('.') || 'input'}: ${issue.message}`);
  }
  const at = options.now.toISOString();
  const row: LoanProductsTable = {
    id: newId(),
    organisationId: options.organisationId,
    ...parsed.data,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.insertInto('loanProducts').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', `a product with code ${row.code} exists already`);
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
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_request', `${issue.path.join('.') || 'input'}: ${issue.message}`);
  }
  const updatedAt = options.now.toISOString();
  try {
    await db
      .updateTable('loanProducts')
      .set({ ...parsed.data, updatedAt })
      .where('id', '=', before.id)
      .where('organisationId', '=', options.organisationId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', `a product with code ${parsed.data.code} exists already`);
    throw error;
  }
  return { before, after: { ...before, ...parsed.data, updatedAt } };
}
