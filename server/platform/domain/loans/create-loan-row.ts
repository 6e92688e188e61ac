import type { LoanProductsTable, LoansTable } from '../../db/schema';
import { toJson } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { writeBehind } from '../../db/precompiled';
import type { LoanContext } from './loan-context';
import type { LoanStatus } from './loan';

export interface NewLoan {
  /** A pre-generated id, when the caller must reference the loan before it is inserted. */
  id?: string;
  borrowerId: string;
  product: LoanProductsTable;
  amountKobo: number;
  tenorDays: number;
  interestRateBps: number;
  repaymentFrequency: string | null;
  status: LoanStatus;
  preapprovalId?: string | null;
  clientReference?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Checks a product can carry this loan: active, has a pool, amount and tenor inside its limits. */
export function checkProductLimits(product: LoanProductsTable, amountKobo: number, tenorDays: number): void {
  if (!product.isActive) throw new AppError('product_not_usable', `Product ${product.code} is not active.`);
  if (!product.capitalPoolCode) throw new AppError('product_not_usable', `Product ${product.code} has no capital pool to fund it.`);
  if (amountKobo < product.minAmountKobo || amountKobo > product.maxAmountKobo) {
    throw new AppError(
      'outside_product_limits',
      `amountKobo ${amountKobo} is outside the product's limits (${product.minAmountKobo}-${product.maxAmountKobo}).`,
    );
  }
  if (tenorDays < product.minTenorDays || tenorDays > product.maxTenorDays) {
    throw new AppError('outside_product_limits', `tenorDays ${tenorDays} is outside the product's limits (${product.minTenorDays}-${product.maxTenorDays}).`);
  }
}

export async function insertLoan(ctx: LoanContext, input: NewLoan): Promise<LoansTable> {
  const at = ctx.now.toISOString();
  const row: LoansTable = {
    id: input.id ?? newId(),
    organisationId: ctx.scope.organisationId,
    mode: ctx.scope.mode,
    borrowerId: input.borrowerId,
    loanProductId: input.product.id,
    preapprovalId: input.preapprovalId ?? null,
    status: input.status,
    approvalMode: input.product.approvalMode,
    kycTier: input.product.kycTier,
    settlementDestination: input.product.settlementDestination,
    capitalPoolCode: input.product.capitalPoolCode!,
    currency: input.product.currency,
    tenorDays: input.tenorDays,
    repaymentFrequency: input.repaymentFrequency ?? input.product.repaymentFrequency ?? 'monthly',
    interestRateBps: input.interestRateBps,
    amountRequestedKobo: input.amountKobo,
    principalKobo: input.amountKobo,
    principalBalanceKobo: input.amountKobo,
    amountPaidKobo: 0,
    outstandingKobo: input.amountKobo,
    disbursedAmountKobo: null,
    disbursedAt: null,
    disbursementReference: null,
    approvedAt: null,
    approvalNotes: null,
    rejectionReason: null,
    termsAcceptedAt: null,
    offerLetterIssuedAt: null,
    pricingSnapshotId: null,
    documentReference: null,
    offerVersion: 0,
    activeMandateId: null,
    hasActiveMandate: false,
    applicationUrl: null,
    applicationTokenSealed: null,
    clientReference: input.clientReference ?? null,
    metadata: toJson(input.metadata ?? null),
    cancelledBy: null,
    cancellationReason: null,
    cancelledAt: null,
    declineReason: null,
    inArrears: false,
    arrearsSince: null,
    settlementProviderId: null,
    settlementProviderChosenAt: null,
    checkoutReceiptSentAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await insertLoanRow(ctx.db, row);
  return row;
}

const insertLoanRow = writeBehind((db, row: LoansTable) => db.insertInto('loans').values(row));
