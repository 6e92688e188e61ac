import type { LoanProductsTable, LoansTable } from '../../db/schema';
import type { LoanWriteContext } from './loan-context';
import { emitOfferIssued } from './loan-events';
import { transitionLoan, type LoanStatus } from './loan';
import { freezeSnapshot, termsOf, writeSchedule } from './pricing-snapshot';
import { mintApplicationSession, sessionLifetime } from '../checkout/checkout-session';
import { offerReadyText } from '../checkout/offer-ready-text';

/**
 * Freezes the pricing, builds the schedule (dates from today until disbursement rebuilds them),
 * makes the offer current, mints the checkout session behind `applicationUrl` and announces it:
 * the common end of approve and issue-offer. A re-issued offer gets a fresh session (older ones
 * stay valid until they expire; they show the current offer). A borrower who was waiting in the
 * checkout gets a text with the link after the commit.
 */
export async function issueLoanOffer(
  ctx: LoanWriteContext,
  loan: LoansTable,
  product: LoanProductsTable,
  from: readonly LoanStatus[],
  extra: Partial<LoansTable> = {},
  /** `createdNow`: the loan was inserted by this transaction, so no borrower can be waiting in its checkout yet. */
  options: { createdNow?: boolean } = {},
): Promise<LoansTable> {
  const version = loan.offerVersion + 1;
  const snapshot = await freezeSnapshot(ctx, loan, termsOf(product), version);
  // A first offer has no schedule to replace.
  await writeSchedule(ctx, loan, snapshot, ctx.now, loan.offerVersion > 0);
  const at = ctx.now.toISOString();
  const application = await mintApplicationSession(ctx.db, {
    secrets: ctx.platform.secrets,
    lifetime: sessionLifetime(ctx.platform.settings),
    baseUrl: ctx.platform.baseUrl,
    loan,
    now: ctx.now,
  });
  const offered = await transitionLoan(
    ctx.db,
    loan,
    from,
    {
      ...extra,
      ...application,
      status: 'awaiting_acceptance',
      pricingSnapshotId: snapshot.id,
      documentReference: snapshot.documentReference,
      offerVersion: version,
      offerLetterIssuedAt: at,
      approvedAt: at,
      principalBalanceKobo: loan.principalKobo,
      outstandingKobo: snapshot.priced.totalRepayableKobo,
    },
    ctx.now,
    { createdNow: options.createdNow },
  );
  await emitOfferIssued(ctx, offered);
  // A borrower who waited in the checkout for the lender hears about the offer by text, once it is committed.
  if (ctx.afterCommit && !options.createdNow) {
    const text = await offerReadyText(ctx.db, ctx.platform.secrets, offered);
    if (text) ctx.afterCommit(({ sms }) => text(sms.for(offered.mode)));
  }
  return offered;
}
