import { z } from 'zod';
import { AppError } from '../errors';
import { BVN_HASH_PURPOSE } from '../preapprovals/push-preapproval';
import { findOrCreateBorrower } from '../borrowers/find-or-create-borrower';
import { newId } from '../ids';
import { REPAYMENT_FREQUENCIES } from '../products/product';
import type { LoanContext } from './loan-context';
import { checkProductLimits, insertLoan } from './create-loan-row';
import type { LoansTable } from '../../db/schema';
import { safeName } from '../../../shared/safe-text';
import { newBorrowerRow } from '../borrowers/borrower';

/** `admin loan create` input: a loan originated elsewhere, brought in for tenant approval. */
export const OperatorLoanInputSchema = z
  .object({
    borrower: z
      .object({
        firstName: safeName({ max: 100 }),
        lastName: safeName({ max: 100 }),
        phone: z.string().trim().min(6).max(20),
        email: z.email().max(150).nullable().optional(),
        bvn: z.string().regex(/^\d{11}$/, 'exactly 11 digits').optional(),
      })
      .strict(),
    productId: z.uuid(),
    amountKobo: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    tenorDays: z.number().int().min(1).max(3650),
    repaymentFrequency: z.enum(REPAYMENT_FREQUENCIES).optional(),
    clientReference: z.string().max(255).optional(),
  })
  .strict();

export type OperatorLoanInput = z.infer<typeof OperatorLoanInputSchema>;

/**
 * Creates a loan in its initial state on a non-pushed product: `kyc_required` for managed-tier
 * products (the service runs KYC), `pending` otherwise. A borrower with a BVN is matched by it.
 */
export async function createOperatorLoan(ctx: LoanContext, input: OperatorLoanInput): Promise<LoansTable> {
  const product = await ctx.db
    .selectFrom('loanProducts')
    .selectAll()
    .where('id', '=', input.productId)
    .where('organisationId', '=', ctx.scope.organisationId)
    .executeTakeFirst();
  if (!product) throw new AppError('NOT_FOUND', 'productId: no such product in this organisation');
  if (product.approvalMode === 'partner_pushed') {
    throw new AppError('product_not_usable', 'partner_pushed products take their loans from pushed decisions (POST /v1/preapprovals).');
  }
  checkProductLimits(product, input.amountKobo, input.tenorDays);
  const { bvn, ...details } = input.borrower;
  const borrower = bvn
    ? await findOrCreateBorrower(ctx.db, {
        ...ctx.scope,
        bvnHash: ctx.platform.secrets.hmac(BVN_HASH_PURPOSE, bvn),
        details,
        clientReference: input.clientReference ?? null,
        ninHash: null,
        now: ctx.now,
      })
    : await insertBorrowerWithoutBvn(ctx, details, input.clientReference ?? null);
  return insertLoan(ctx, {
    borrowerId: borrower.id,
    product,
    amountKobo: input.amountKobo,
    tenorDays: input.tenorDays,
    interestRateBps: product.interestRateBps,
    repaymentFrequency: input.repaymentFrequency ?? null,
    status: product.kycTier === 'managed' ? 'kyc_required' : 'pending',
    clientReference: input.clientReference ?? null,
  });
}

async function insertBorrowerWithoutBvn(ctx: LoanContext, details: { firstName: string; lastName: string; phone: string; email?: string | null }, clientReference: string | null) {
  const row = newBorrowerRow(ctx.scope, details, { clientReference, now: ctx.now });
  await ctx.db.insertInto('borrowers').values(row).execute();
  return row;
}
