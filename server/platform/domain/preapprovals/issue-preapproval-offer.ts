import type { LoanProductsTable, PreapprovalsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { Organisation } from '../organisations/organisation';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { checkProductLimits, insertLoan } from '../loans/create-loan-row';
import { attestAndScreen, emitAttested, screenBorrower } from '../loans/attestation';
import { openAmlReview } from '../reviews/open-review';
import { rememberAssessmentId } from '../loans/loan-events';
import { newId } from '../ids';
import { guardedWriteBehind, isPostgres, precompiled, together } from '../../db/precompiled';
import { issueLoanOffer } from '../loans/issue-loan-offer';
import { getLoanRow } from '../loans/loan';
import type { LoansTable } from '../../db/schema';
import { LOAN_PRODUCT_COLUMNS, PREAPPROVAL_COLUMNS } from '../../db/columns';
import { ownedBy } from '../find-owned';

export interface IssueOfferResult {
  loan: LoansTable;
  /** false when the pre-approval already had a loan (idempotent replay). */
  created: boolean;
}


/**
 * The pre-approval with its borrower's name (for the AML screen), in one read. On PostgreSQL the pre-approval's row is
 * locked by it (`for update of preapprovals`): a concurrent issue-offer of the same pre-approval waits here until this
 * one commits and then reads the loan it created, so the claim below cannot lose a race and is checked with the commit.
 * (SQLite runs one write transaction at a time.)
 */
const selectWithBorrower = precompiled((db, a: { id: string }) => {
  // By primary key alone, the owner checked after (`ownedBy` says why).
  const query = db
    .selectFrom('preapprovals')
    .innerJoin('borrowers', 'borrowers.id', 'preapprovals.borrowerId')
    .select(PREAPPROVAL_COLUMNS.map((column) => `preapprovals.${column}` as const))
    .select(['borrowers.firstName as borrowerFirstName', 'borrowers.lastName as borrowerLastName'])
    .where('preapprovals.id', '=', a.id);
  return isPostgres(db) ? query.forUpdate('preapprovals') : query;
});

/**
 * The pre-approval with its borrower's name, and the product the offer would use (when one is named or a default is
 * set), read together: one round trip (`together`). The product is only checked once the pre-approval has been.
 */
async function readForOffer(ctx: LoanContext, id: string, productId: string | null) {
  const [withBorrower, products] = productId
    ? await together(ctx.db, [selectWithBorrower.compiled(ctx.db, { id }), selectProduct.compiled(ctx.db, { id: productId })])
    : [await selectWithBorrower(ctx.db, { id }), undefined];
  const row = ownedBy(withBorrower.rows[0], ctx.scope);
  if (!row) throw notFound('pre-approval');
  const { borrowerFirstName, borrowerLastName, ...preapproval } = row;
  return {
    preapproval: preapproval as PreapprovalsTable,
    borrower: { firstName: borrowerFirstName, lastName: borrowerLastName },
    product: products?.rows[0]?.organisationId === ctx.scope.organisationId ? products.rows[0] : undefined,
  };
}

/** By primary key alone, the organisation checked after (`ownedBy` says why). */
const selectProduct = precompiled((db, a: { id: string }) => db.selectFrom('loanProducts').select(LOAN_PRODUCT_COLUMNS).where('id', '=', a.id));

/** The product read with the pre-approval (`readForOffer`), checked: it exists and takes pushed decisions. */
function offerProduct(product: LoanProductsTable | undefined, id: string | null, named: boolean): LoanProductsTable {
  if (!id) throw new AppError('product_not_usable', 'No productId given and no default pre-approval product is configured.');
  if (!product) throw named ? notFound('loan product') : new AppError('product_not_usable', 'The default pre-approval product no longer exists.');
  if (product.approvalMode !== 'partner_pushed') {
    throw new AppError('product_not_usable', `Product ${product.code} is not a partner_pushed product.`);
  }
  return product;
}

const claimPreapproval = guardedWriteBehind((db, a: { loanId: string; status: string; updatedAt: string; id: string }) =>
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

  // Claim the pre-approval and link it to the loan about to be created, in one conditional UPDATE checked with the
  // commit: a concurrent issue-offer waited at the read (row lock on PostgreSQL) and then finds the loan this one
  // created, instead of creating a second.
  const loanId = newId();
  await claimPreapproval(ctx.db, { loanId, status: needsReview ? 'received' : 'offer_issued', updatedAt: ctx.now.toISOString(), id: preapproval.id }, () =>
    // Not reached while the read above holds the row; kept as the guard that a second loan is never created.
    new AppError('invalid_preapproval_state', 'The pre-approval changed meanwhile; no offer was issued. Read it again.'),
  );

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
  if (needsReview) {
    await openAmlReview(ctx, loan, attestation, 'issue_offer');
    return { loan, created: true };
  }
  return { loan: await issueLoanOffer(ctx, loan, product, ['attested'], {}, { createdNow: true }), created: true };
}
