import type { Db, Tx } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import { lateFeeFor } from '../pricing/price-loan';
import { loadSnapshot } from '../loans/pricing-snapshot';
import { emitLoanEvent } from '../loans/loan-events';
import { tellLoanFollowers } from '../events/followers';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import type { Services } from '../services';
import { inUnitOfWork } from '../unit-of-work';
import { writeOffLoan } from '../ledger/loan-books';

const DAY_MS = 86_400_000;

export interface ArrearsSweepResult {
  overdue: number;
  lateFeeKobo: number;
  defaulted: number;
}

function contextFor(db: Tx, platform: ArrearsPlatform, loan: LoansTable, now: Date): LoanWriteContext {
  return { db, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'arrears-sweep' };
}

type ArrearsPlatform = Pick<Services, 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings' | 'baseUrl'>;

/**
 * The overdue and default sweep, restartable and safe in several processes (every change is a
 * conditional UPDATE, so a row moves once):
 * 1. an unpaid instalment past its due date becomes `overdue` and gets its late fee once
 *    (lateFeeBps of its unpaid amount, from the frozen pricing); the loan's outstanding grows by
 *    it and the loan is marked in arrears (it stays `active`);
 * 2. a loan whose oldest overdue instalment is more than the threshold of days past due becomes
 *    `defaulted` and emits `loan.defaulted`; in the same transaction its outstanding principal is written off in the
 *    loan's books (`writeOffLoan`: receivable → `loan_write_off`, the partner's for lending, the service's for
 *    patient financing). The threshold is the product's recovery policy
 *    (`recoveryDefaultAfterDaysOverdue`) when the product has `recoveryEnabled`, else the tenant's
 *    (`defaultAfterDaysOverdue`), else DEFAULT_AFTER_DAYS_OVERDUE.
 */
export async function sweepArrears(db: Db, platform: ArrearsPlatform, now: Date, batchSize = 200): Promise<ArrearsSweepResult> {
  const at = now.toISOString();
  const result: ArrearsSweepResult = { overdue: 0, lateFeeKobo: 0, defaulted: 0 };
  const due = await db
    .selectFrom('loanScheduleItems')
    .innerJoin('loans', 'loans.id', 'loanScheduleItems.loanId')
    .selectAll('loanScheduleItems')
    .where('loanScheduleItems.status', 'in', ['pending', 'partial'])
    .where('loanScheduleItems.dueDate', '<', at)
    .where('loans.status', '=', 'active')
    .orderBy('loanScheduleItems.dueDate')
    .limit(batchSize)
    .execute();
  for (const item of due) {
    await inUnitOfWork(db, async (trx) => {
      const loan = await trx.selectFrom('loans').selectAll().where('id', '=', item.loanId).executeTakeFirstOrThrow();
      const snapshot = await loadSnapshot(trx, loan.pricingSnapshotId!);
      const unpaid = item.totalKobo - item.amountPaidKobo;
      const fee = lateFeeFor(unpaid, snapshot.terms.lateFeeBps);
      const moved = await trx
        .updateTable('loanScheduleItems')
        .set({ status: 'overdue', lateFeeKobo: fee, updatedAt: at })
        .where('id', '=', item.id)
        .where('status', 'in', ['pending', 'partial'])
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return;
      await trx
        .updateTable('loans')
        .set((eb) => ({
          outstandingKobo: eb('outstandingKobo', '+', fee),
          inArrears: true,
          arrearsSince: loan.arrearsSince ?? item.dueDate,
          updatedAt: at,
        }))
        .where('id', '=', loan.id)
        .execute();
      result.overdue += 1;
      result.lateFeeKobo += fee;
      // "An instalment passed its due date unpaid": the lending API has no such event, so only a followed loan's
      // follower hears it (patient financing's `loan.repayment.due`).
      await tellLoanFollowers(contextFor(trx, platform, loan, now), 'loan.repayment.due', loan, {
        installmentNumber: item.installmentNumber,
        dueDate: item.dueDate,
        amountDueKobo: unpaid + fee,
      });
    });
  }

  const orgs = await db.selectFrom('organisations').select(['id', 'defaultAfterDaysOverdue']).execute();
  const policies = await db
    .selectFrom('loanProducts')
    .select(['id', 'organisationId', 'recoveryDefaultAfterDaysOverdue'])
    .where('recoveryEnabled', '=', true)
    .where('recoveryDefaultAfterDaysOverdue', 'is not', null)
    .execute();
  for (const org of orgs) {
    const tenantDays = org.defaultAfterDaysOverdue ?? platform.settings.DEFAULT_AFTER_DAYS_OVERDUE;
    const own = policies.filter((p) => p.organisationId === org.id);
    const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const candidates = db
      .selectFrom('loans')
      .selectAll()
      .where('organisationId', '=', org.id)
      .where('status', '=', 'active')
      .where('inArrears', '=', true);
    // Loans of a product with its own recovery policy default on the product's threshold; all others on the tenant's.
    const late = [
      ...(await candidates
        .where('arrearsSince', '<', cutoff(tenantDays))
        .$if(own.length > 0, (q) => q.where('loanProductId', 'not in', own.map((p) => p.id)))
        .limit(batchSize)
        .execute()),
    ];
    for (const policy of own) {
      late.push(
        ...(await candidates
          .where('loanProductId', '=', policy.id)
          .where('arrearsSince', '<', cutoff(policy.recoveryDefaultAfterDaysOverdue!))
          .limit(batchSize)
          .execute()),
      );
    }
    for (const loan of late) {
      await inUnitOfWork(db, async (trx) => {
        const moved = await trx
          .updateTable('loans')
          .set({ status: 'defaulted', updatedAt: at })
          .where('id', '=', loan.id)
          .where('status', '=', 'active')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        await writeOffLoan(trx, loan, now);
        const daysPastDue = Math.floor((now.getTime() - new Date(loan.arrearsSince!).getTime()) / DAY_MS);
        await emitLoanEvent(contextFor(trx, platform, loan, now), 'loan.defaulted', { ...loan, status: 'defaulted' }, {
          daysPastDue,
          outstandingKobo: loan.outstandingKobo,
          arrearsSince: loan.arrearsSince,
        });
        result.defaulted += 1;
      });
    }
  }
  return result;
}
