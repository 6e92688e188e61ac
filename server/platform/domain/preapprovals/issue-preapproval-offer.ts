import type { LoanProductsTable, PreapprovalsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { Organisation } from '../organisations/organisation';
import type { LoanContext } from '../loans/loan-context';
import { checkProductLimits, insertLoan } from '../loans/create-loan-row';
import { attestAndScreen, emitAttested } from '../loans/attestation';
import { issueLoanOffer } from '../loans/issue-loan-offer';
import { getLoanRow, transitionLoan } from '../loans/loan';
import type { LoansTable } from '../../db/schema';

export interface IssueOfferResult {
  loan: LoansTable;
  /** false when the pre-approval already had a loan (idempotent replay). */
  created: boolean;
}

async function preapprovalRow(ctx: LoanContext, id: string): Promise<PreapprovalsTable> {
  const row = await ctx.db
    .selectFrom('preapprovals')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', ctx.scope.organisationId)
    .where('mode', '=', ctx.scope.mode)
    .executeTakeFirst();
  if (!row) throw notFound('pre-approval');
  return row;
}

async function offerProduct(ctx: LoanContext, organisation: Organisation, productId?: string): Promise<LoanProductsTable> {
  const id = productId ?? organisation.defaultPreapprovalProductId;
  if (!id) throw new AppError('product_not_usable', 'No productId given and no default pre-approval product is configured.');
  const product = await ctx.db
    .selectFrom('loanProducts')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', organisation.id)
    .executeTakeFirst();
  if (!product) throw productId ? notFound('loan product') : new AppError('product_not_usable', 'The default pre-approval product no longer exists.');
  if (product.approvalMode !== 'partner_pushed') {
    throw new AppError('product_not_usable', `Product ${product.code} is not a partner_pushed product.`);
  }
  return product;
}

/**
 * Turns a stored pre-approval into a loan with an issued offer. Every check runs before the first
 * write, so a refusal changes nothing. The pushed evidence is recorded as the Tier A attestation
 * and screened; a hit leaves the loan under review with no offer.
 */
export async function issuePreapprovalOffer(
  ctx: LoanContext,
  options: { organisation: Organisation; preapprovalId: string; productId?: string },
): Promise<IssueOfferResult> {
  const preapproval = await preapprovalRow(ctx, options.preapprovalId);
  if (preapproval.loanId) return { loan: await getLoanRow(ctx.db, ctx.scope, preapproval.loanId), created: false };
  const expired = preapproval.expiresAt !== null && preapproval.expiresAt <= ctx.now.toISOString();
  if (preapproval.status !== 'received' || expired) {
    throw new AppError('invalid_preapproval_state', `The pre-approval is ${expired ? 'expired' : preapproval.status}; no offer can be issued.`);
  }
  if (preapproval.tenorDays === null) {
    throw new AppError('preapproval_not_offerable', 'The pushed decision has no conditions.tenor_days, so no offer can be priced.');
  }
  const product = await offerProduct(ctx, options.organisation, options.productId);
  const rateBps = preapproval.interestRateBps ?? product.interestRateBps;
  const cap = options.organisation.maxInterestRateBps;
  if (cap !== null && rateBps > cap) {
    throw new AppError('interest_rate_bps_above_tenant_cap', `interestRateBps ${rateBps} is above the tenant cap of ${cap}; it is never clamped.`);
  }
  checkProductLimits(product, preapproval.approvedAmountKobo, preapproval.tenorDays);

  // Claim the pre-approval: a concurrent issue-offer waits here (row lock on PostgreSQL) and then
  // finds the loan this one created, instead of creating a second.
  const claim = await ctx.db
    .updateTable('preapprovals')
    .set({ updatedAt: ctx.now.toISOString() })
    .where('id', '=', preapproval.id)
    .where('loanId', 'is', null)
    .where('status', '=', 'received')
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) {
    const current = await preapprovalRow(ctx, preapproval.id);
    if (current.loanId) return { loan: await getLoanRow(ctx.db, ctx.scope, current.loanId), created: false };
    throw new AppError('invalid_preapproval_state', `The pre-approval is ${current.status}; no offer can be issued.`);
  }

  let loan = await insertLoan(ctx, {
    borrowerId: preapproval.borrowerId,
    product,
    amountKobo: preapproval.approvedAmountKobo,
    tenorDays: preapproval.tenorDays,
    interestRateBps: rateBps,
    repaymentFrequency: preapproval.repaymentFrequency,
    status: 'pending',
    preapprovalId: preapproval.id,
    clientReference: preapproval.clientReference,
  });
  const attestation = await attestAndScreen(ctx, loan, {
    schemaVersion: 1,
    attestedChecks: {
      source: 'partner_pushed_decision',
      assessmentId: preapproval.assessmentId,
      bvnProvided: true,
      recommendation: preapproval.recommendation,
      riskBand: preapproval.riskBand,
      trustScore: preapproval.trustScore,
      confidence: preapproval.confidence,
    },
  });
  const linked = { loanId: loan.id, updatedAt: ctx.now.toISOString() };
  if (attestation.amlScreenStatus === 'hit') {
    loan = await transitionLoan(ctx.db, loan, ['pending'], { status: 'under_review' }, ctx.now);
    await emitAttested(ctx, loan, attestation);
    await ctx.db.updateTable('preapprovals').set(linked).where('id', '=', preapproval.id).execute();
    return { loan, created: true };
  }
  loan = await transitionLoan(ctx.db, loan, ['pending'], { status: 'attested' }, ctx.now);
  await emitAttested(ctx, loan, attestation);
  loan = await issueLoanOffer(ctx, loan, product, ['attested']);
  await ctx.db.updateTable('preapprovals').set({ ...linked, status: 'offer_issued' }).where('id', '=', preapproval.id).execute();
  return { loan, created: true };
}
