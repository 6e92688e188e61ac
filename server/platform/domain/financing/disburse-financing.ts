import type { Db } from '../../db/database';
import type { Services } from '../services';
import { AppError } from '../errors';
import { ensureAccount, newAccount, postTransaction } from '../ledger/ledger';
import { transitionLoan } from '../loans/loan';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { loadSnapshot, redateSchedule } from '../loans/pricing-snapshot';
import { FINANCING_LENDER_ID, FINANCING_POOL_CODE } from './financing-lender';
import { inUnitOfWork } from '../unit-of-work';

type DisbursePlatform = LoanContext['platform'] & Pick<Services, 'logger'>;

/**
 * Disburses a signed financing loan once its mandate is live at the provider (spec B: "a loan is not disbursed until
 * the provider confirms the direct debit live"). One transaction: the loan becomes `active` with its schedule counted
 * from today; the ledger moves the principal out of the service's `FINANCING` pool into the service's receivable, and
 * owes the treatment amount to the partner (docs/ledger.md). Each scope's postings balance on their own: the lender's
 * (the fixed financing lender organisation, guarded pool −P: never overdrawn; its `loan_receivable` +P) and the
 * partner's (`settlement_cash` +P, its `organisation_wallet` −P: the treatment amount is owed to the partner);
 * `loan.disbursed` goes out.
 *
 * Called when the mandate turns active (hosted application), when the partner polls the mandate, and by the sweep;
 * it is a no-op unless the loan is signed and its mandate active, so every caller may call it. An empty pool leaves the
 * loan signed (logged; the next call retries) and answers false.
 */
export async function disburseFinancingIfReady(db: Db, platform: DisbursePlatform, loanId: string, now: Date): Promise<boolean> {
  const ready = await db
    .selectFrom('loans')
    .innerJoin('financingApplications as f', 'f.id', 'loans.id')
    .select(['loans.id'])
    .where('loans.id', '=', loanId)
    .where('loans.status', '=', 'terms_accepted')
    .where('loans.hasActiveMandate', '=', true as never)
    .where('f.status', '=', 'offer_accepted')
    .executeTakeFirst();
  if (!ready) return false;
  try {
    await inUnitOfWork(db, async (trx) => {
      const loan = await trx.selectFrom('loans').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();
      const ctx: LoanWriteContext = { db: trx, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'financing-disbursement' };
      const at = now.toISOString();
      const reference = `DSB-${loan.id}`;
      const disbursed = await transitionLoan(
        trx,
        loan,
        ['terms_accepted'],
        { status: 'active', disbursedAt: at, disbursedAmountKobo: loan.principalKobo, disbursementReference: reference },
        now,
      );
      await redateSchedule(ctx, disbursed, await loadSnapshot(trx, loan.pricingSnapshotId!), now);
      const partner = { organisationId: loan.organisationId, mode: loan.mode };
      const lender = { organisationId: FINANCING_LENDER_ID, mode: loan.mode };
      const receivable = newAccount({ ...lender, kind: 'loan_receivable', code: loan.id }, now);
      const cash = await ensureAccount(trx, { ...partner, kind: 'settlement_cash', code: 'tenant_wallet' }, now);
      const wallet = await ensureAccount(trx, { ...partner, kind: 'organisation_wallet', code: loan.organisationId }, now);
      // Taken last: the pool row is the lock every financing disbursement contends for.
      const pool = await ensureAccount(trx, { ...lender, kind: 'capital_pool', code: FINANCING_POOL_CODE }, now);
      await postTransaction(trx, {
        ...partner,
        reference,
        kind: 'disbursement',
        description: `patient financing ${loan.id} disbursed from the service's pool to the partner's wallet`,
        postings: [
          { account: pool, amountKobo: -loan.principalKobo },
          { account: receivable, amountKobo: loan.principalKobo },
          { account: cash, amountKobo: loan.principalKobo },
          { account: wallet, amountKobo: -loan.principalKobo },
        ],
        now,
      });
      await emitLoanEvent(ctx, 'loan.disbursed', disbursed, { disbursedAmountKobo: loan.principalKobo, disbursedAt: at, disbursementReference: reference });
    });
    return true;
  } catch (error) {
    if (error instanceof AppError && (error.code === 'INSUFFICIENT_FUNDS' || error.code === 'invalid_loan_state')) {
      platform.logger.warn({ loanId, reason: error.code }, 'patient financing not disbursed yet (pool empty or moved concurrently); will retry');
      return false;
    }
    throw error;
  }
}

/** The sweep: disburses every signed financing loan whose mandate has gone live. Returns how many were disbursed. */
export async function disburseReadyFinancing(db: Db, platform: DisbursePlatform, now: Date, limit = 50): Promise<number> {
  const rows = await db
    .selectFrom('financingApplications')
    .innerJoin('loans', 'loans.id', 'financingApplications.id')
    .select('loans.id')
    .where('financingApplications.status', '=', 'offer_accepted')
    .where('loans.hasActiveMandate', '=', true as never)
    .limit(limit)
    .execute();
  let count = 0;
  for (const row of rows) if (await disburseFinancingIfReady(db, platform, row.id, now)) count += 1;
  return count;
}
