import type { LoanProductsTable, PreapprovalsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { Organisation } from '../organisations/organisation';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { checkProductLimits, insertLoan } from '../loans/create-loan-row';
import { attestAndScreen, emitAttested, screenBorrower } from '../loans/attestation';
import { rememberAssessmentId } from '../loans/loan-events';
import { newId } from '../ids';
import { precompiled, together } from '../../db/precompiled';
import { issueLoanOffer } from '../loans/issue-loan-offer';
import { getLoanRow } from '../loans/loan';
import type { LoansTable } from '../../db/schema';
import { findOwned } from '../find-owned';
import { LOAN_PRODUCT_COLUMNS, PREAPPROVAL_COLUMNS } from '../../db/columns';

export interface IssueOfferResult {
  loan: LoansTable;
  /** false when the pre-approval already had a loan (idempotent replay). */
  created: boolean;
}

async function preapprovalRow(ctx: LoanContext, id: string): Promise<PreapprovalsTable> {
  const row = await findOwned(ctx.db, 'preapprovals', ctx.scope, id, 'pre-approval');
  return row;
}

/** The pre-approval with its borrower's name (for the AML screen), in one read. */
const selectWithBorrower = precompiled((db, a: { id: string; organisationId: string; mode: LoanContext['scope']['mode'] }) =>
  db
    .selectFrom('preapprovals')
    .innerJoin('borrowers', 'borrowers.id', 'preapprovals.borrowerId')
    .select(PREAPPROVAL_COLUMNS.map((column) => `preapprovals.${column}` as const))
    .select(['borrowers.firstName as borrowerFirstName', 'borrowers.lastName as borrowerLastName'])
    .where('preapprovals.id', '=', a.id)
    .where('preapprovals.organisationId', '=', a.organisationId)
    .where('preapprovals.mode', '=', a.mode),
);

/**
 * The pre-approval with its borrower's name, and the product the offer would use (when one is named or a default is
 * set), read together: one round trip (`together`). The product is only checked once the pre-approval has been.
 */
async function readForOffer(ctx: LoanContext, id: string, productId: string | null) {
  const scope = { id, organisationId: ctx.scope.organisationId, mode: ctx.scope.mode };
  const [withBorrower, products] = productId
    ? await together(ctx.db, [selectWithBorrower.compiled(ctx.db, scope), selectProduct.compiled(ctx.db, { id: productId, organisationId: ctx.scope.organisationId })])
    : [await selectWithBorrower(ctx.db, scope), undefined];
  const row = withBorrower.rows[0];
  if (!row) throw notFound('pre-approval');
  const { borrowerFirstName, borrowerLastName, ...preapproval } = row;
  return {
    preapproval: preapproval as PreapprovalsTable,
    borrower: { firstName: borrowerFirstName, lastName: borrowerLastName },
    product: products?.rows[0],
  };
}

const selectProduct = precompiled((db, a: { id: string; organisationId: string }) =>
  db.selectFrom('loanProducts').select(LOAN_PRODUCT_COLUMNS).where('id', '=', a.id).where('organisationId', '=', a.organisationId),
);

/** The product read with the pre-approval (`readForOffer`), checked: it exists and takes pushed decisions. */
function offerProduct(read: LoanProductsTable | undefined, id: string | null, named: boolean): LoanProductsTable {
  if (!id) throw new AppError('product_not_usable', 'No productId given and no default pre-approval product is configured.');
  const product = read;
  if (!product) throw named ? notFound('loan product') : new AppError('product_not_usable', 'The default pre-approval product no longer exists.');
  if (product.approvalMode !== 'partner_pushed') {
    throw new AppError('product_not_usable', `Product ${product.code} is not a partner_pushed product.`);
  }
  return product;
}

const claimPreapproval = precompiled((db, a: { loanId: string; status: string; updatedAt: string; id: string }) =>
  db
    .updateTable('preapprovals')
    .set({ loanId: a.loanId, status: a.status, updatedAt: a.updatedAt })
    .where('id', '=', a.id)
    .where('loanId', 'is', null)
    .where('status', '=', 'received'),
);

/**
 * Turns a stored pre-approval into a loan with an issued offer. Every check runs before the first
 * write, so a refusal changes nothing. The pushed evidence is recorded as the Tier A attestation
 * and screened; a hit (or, in live mode without an AML provider, no screen) leaves the loan under review with no offer.
 */
export async function issuePreapprovalOffer(
  ctx: LoanWriteContext,
  options: { organisation: Organisation; preapprovalId: string; productId?: string },
): Promise<IssueOfferResult> {
  const productId = options.productId ?? options.organisation.defaultPreapprovalProductId ?? null;
  const { preapproval, borrower, product: productRow } = await readForOffer(ctx, options.preapprovalId, productId);
  rememberAssessmentId(preapproval.id, preapproval.assessmentId);
  if (preapproval.loanId) return { loan: await getLoanRow(ctx.db, ctx.scope, preapproval.loanId), created: false };
  const expired = preapproval.expiresAt !== null && preapproval.expiresAt <= ctx.now.toISOString();
  if (preapproval.status !== 'received' || expired) {
    throw new AppError('invalid_preapproval_state', `The pre-approval is ${expired ? 'expired' : preapproval.status}; no offer can be issued.`);
  }
  if (preapproval.tenorDays === null) {
    throw new AppError('preapproval_not_offerable', 'The pushed decision has no conditions.tenor_days, so no offer can be priced.');
  }
  const product = offerProduct(productRow, productId, options.productId !== undefined);
  const rateBps = preapproval.interestRateBps ?? product.interestRateBps;
  const cap = options.organisation.maxInterestRateBps;
  if (cap !== null && rateBps > cap) {
    throw new AppError('interest_rate_bps_above_tenant_cap', `interestRateBps ${rateBps} is above the tenant cap of ${cap}; it is never clamped.`);
  }
  checkProductLimits(product, preapproval.approvedAmountKobo, preapproval.tenorDays);
  // The screen only reads, so it runs before the first write: its verdict decides the statuses the
  // claim and the new loan are written with (a hit leaves the pre-approval `received`).
  const verdict = await screenBorrower(ctx, borrower, ctx.scope.mode);
  // A hit, or no screen at all (`pending`: live mode without a provider), is reviewed by a person.
  const needsReview = verdict.status !== 'clear';

  // Claim the pre-approval and link it to the loan about to be created, in one conditional
  // UPDATE: a concurrent issue-offer waits here (row lock on PostgreSQL) and then finds the loan
  // this one created, instead of creating a second.
  const loanId = newId();
  const claim = await claimPreapproval(ctx.db, { loanId, status: needsReview ? 'received' : 'offer_issued', updatedAt: ctx.now.toISOString(), id: preapproval.id });
  if (Number(claim.numAffectedRows) !== 1) {
    const current = await preapprovalRow(ctx, preapproval.id);
    if (current.loanId) return { loan: await getLoanRow(ctx.db, ctx.scope, current.loanId), created: false };
    throw new AppError('invalid_preapproval_state', `The pre-approval is ${current.status}; no offer can be issued.`);
  }

  // Created straight in the status the screen leads to (`pending` is never visible outside this
  // transaction): `under_review` on a hit or no screen, `attested` otherwise.
  const loan = await insertLoan(ctx, {
    id: loanId,
    borrowerId: preapproval.borrowerId,
    product,
    amountKobo: preapproval.approvedAmountKobo,
    tenorDays: preapproval.tenorDays,
    interestRateBps: rateBps,
    repaymentFrequency: preapproval.repaymentFrequency,
    status: needsReview ? 'under_review' : 'attested',
    preapprovalId: preapproval.id,
    clientReference: preapproval.clientReference,
  });
  const attestation = await attestAndScreen(
    ctx,
    loan,
    {
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
    },
    verdict,
  );
  await emitAttested(ctx, loan, attestation);
  if (needsReview) return { loan, created: true };
  return { loan: await issueLoanOffer(ctx, loan, product, ['attested'], {}, { createdNow: true }), created: true };
}
