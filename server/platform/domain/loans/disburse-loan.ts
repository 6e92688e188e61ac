import type { LoansTable } from '../../db/schema';
import { AppError } from '../errors';
import { ensureAccount, newAccount, postTransaction, type AccountKind } from '../ledger/ledger';
import { getLoanRow, transitionLoan } from './loan';
import type { LoanContext, LoanWriteContext } from './loan-context';
import { emitLoanEvent } from './loan-events';
import { insureLoan } from './insurance';
import { loadSnapshot, redateSchedule } from './pricing-snapshot';
import { FROM } from './transitions';
import { SERVICE_APPROVAL_MODE } from '../products/product';
import { updatePreapprovalStatus } from './respond-to-offer';

/** Where disbursed money is owed, by settlement destination. */
async function destinationAccount(ctx: LoanContext, loan: LoansTable) {
  const owner = { organisationId: loan.organisationId, mode: loan.mode };
  let kind: AccountKind;
  let code: string;
  switch (loan.settlementDestination) {
    case 'borrower_wallet':
      [kind, code] = ['borrower_wallet', loan.borrowerId];
      break;
    case 'merchant_wallet': {
      // The merchant the borrower chose in the checkout's catalog step, read after the status
      // transition (which holds the loan row), so a choice committed just before is the one paid;
      // otherwise the provider of the push.
      const chosen = await ctx.db.selectFrom('loans').select('settlementProviderId').where('id', '=', loan.id).executeTakeFirstOrThrow();
      const pushed =
        !chosen.settlementProviderId && loan.preapprovalId
          ? await ctx.db.selectFrom('preapprovals').select('providerOrgId').where('id', '=', loan.preapprovalId).executeTakeFirst()
          : undefined;
      [kind, code] = ['merchant_wallet', chosen.settlementProviderId ?? pushed?.providerOrgId ?? 'unassigned'];
      break;
    }
    case 'tenant_wallet':
      [kind, code] = ['organisation_wallet', loan.organisationId];
      break;
    default:
      [kind, code] = ['borrower_payable', loan.borrowerId];
  }
  // A borrower's own account is opened by their first disbursement: usually new here.
  return ensureAccount(ctx.db, { ...owner, kind, code }, ctx.now, { likelyNew: kind === 'borrower_payable' || kind === 'borrower_wallet' });
}

/**
 * Releases the principal from the product's capital pool, in the same transaction that marks the
 * loan disbursed: the pool debit is guarded in its UPDATE, so an insufficient pool refuses the
 * whole disbursement (409, nothing changed), also under concurrent disbursements. The schedule is
 * rebuilt from today, automatic-insurance products are insured, and the loan becomes `active`.
 */
export async function disburseLoan(ctx: LoanWriteContext, loanId: string): Promise<LoansTable> {
  const loan = await getLoanRow(ctx.db, ctx.scope, loanId);
  if (loan.approvalMode === SERVICE_APPROVAL_MODE) {
    throw new AppError('approval_mode_mismatch', 'The service disburses patient-financing loans itself, from its own pool, once the mandate is live.');
  }
  const at = ctx.now.toISOString();
  const reference = `DSB-${loan.id}`;
  // Checked with the commit (a concurrent disbursement is refused there, 409): before anything reaches outside the
  // database (the insurer, below) the transaction waits for it (`insureLoan`'s checkpoint).
  const disbursed = await transitionLoan(
    ctx.db,
    loan,
    FROM.disburse,
    { status: 'active', disbursedAt: at, disbursedAmountKobo: loan.principalKobo, disbursementReference: reference },
    ctx.now,
    { checkAtCommit: true },
  );
  const snapshot = await loadSnapshot(ctx.db, loan.pricingSnapshotId!);
  await redateSchedule(ctx, disbursed, snapshot, ctx.now);
  if (loan.preapprovalId) {
    await updatePreapprovalStatus(ctx.db, { status: 'disbursed', updatedAt: at, id: loan.preapprovalId });
  }
  // A borrower's own account is usually opened here (a statement waited for, which also settles the transition's check).
  const destination = await destinationAccount(ctx, loan);
  const policy =
    snapshot.terms.insuranceMode === 'automatic' && snapshot.priced.insurancePremiumKobo > 0 ? await insureLoan(ctx, disbursed, 'automatic', snapshot) : undefined;
  await emitLoanEvent(ctx, 'loan.disbursed', disbursed, {
    disbursedAmountKobo: disbursed.disbursedAmountKobo,
    disbursedAt: at,
    disbursementReference: reference,
    settlementDestination: disbursed.settlementDestination,
    insurancePolicyId: policy?.id ?? null,
  });

  // The pool row is the one lock every disbursement of the pool contends for: take it last, so it
  // is held only until commit.
  const owner = { organisationId: loan.organisationId, mode: loan.mode };
  const receivable = newAccount({ ...owner, kind: 'loan_receivable', code: loan.id }, ctx.now);
  const cash = await ensureAccount(ctx.db, { ...owner, kind: 'settlement_cash', code: loan.settlementDestination }, ctx.now);
  const pool = await ensureAccount(ctx.db, { ...owner, kind: 'capital_pool', code: loan.capitalPoolCode }, ctx.now);
  const poolRefusal = () => new AppError('insufficient_pool_funds', `Capital pool ${loan.capitalPoolCode} does not hold ${loan.principalKobo} kobo; nothing was disbursed.`);
  try {
    // The last writes: the guarded moves leave with the commit, and a pool short of the principal refuses the whole
    // disbursement there (409, nothing changed).
    await postTransaction(ctx.db, {
      ...owner,
      reference,
      kind: 'disbursement',
      description: `loan ${loan.id} disbursed to ${loan.settlementDestination}`,
      postings: [
        { account: pool, amountKobo: -loan.principalKobo },
        { account: cash, amountKobo: loan.principalKobo },
        { account: receivable, amountKobo: loan.principalKobo },
        { account: destination, amountKobo: -loan.principalKobo },
      ],
      now: ctx.now,
      refusalAtCommit: poolRefusal,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') throw poolRefusal();
    throw error;
  }
  return disbursed;
}
