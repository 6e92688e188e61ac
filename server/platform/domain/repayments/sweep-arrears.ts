import type { Db, Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import { lateFeeFor } from '../pricing/price-loan';
import { loadSnapshot } from '../loans/pricing-snapshot';
import { emitLoanEvent } from '../loans/loan-events';
import type { LoanContext } from '../loans/loan-context';
import type { Platform } from '../../platform';

const DAY_MS = 86_400_000;

export interface ArrearsSweepResult {
  overdue: number;
  lateFeeKobo: number;
  defaulted: number;
}

function contextFor(db: Executor, platform: ArrearsPlatform, loan: LoansTable, now: Date): LoanContext {
  return { db, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'arrears-sweep' };
}

type ArrearsPlatform = Pick<Platform, 'secrets' | 'aml' | 'identity' | 'insurer' | 'config' | 'baseUrl'>;

/**
 * The overdue and default sweep, restartable and safe in several processes (every change is a
 * conditional UPDATE, so a row moves once):
 * 1. an unpaid instalment past its due date becomes `overdue` and gets its late fee once
 *    (lateFeeBps of its unpaid amount, from the frozen pricing); the loan's outstanding grows by
 *    it and the loan is marked in arrears (it stays `active`);
 * 2. a loan whose oldest overdue instalment is more than the tenant's threshold of days past due
 *    (DEFAULT_AFTER_DAYS_OVERDUE unless the tenant sets its own) becomes `defaulted` and emits
 *    `loan.defaulted`.
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
    await db.transaction().execute(async (trx) => {
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
    });
  }

  const orgs = await db.selectFrom('organisations').select(['id', 'defaultAfterDaysOverdue']).execute();
  for (const org of orgs) {
    const days = org.defaultAfterDaysOverdue ?? platform.config.DEFAULT_AFTER_DAYS_OVERDUE;
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    const late = await db
      .selectFrom('loans')
      .selectAll()
      .where('organisationId', '=', org.id)
      .where('status', '=', 'active')
      .where('inArrears', '=', true)
      .where('arrearsSince', '<', cutoff)
      .limit(batchSize)
      .execute();
    for (const loan of late) {
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('loans')
          .set({ status: 'defaulted', updatedAt: at })
          .where('id', '=', loan.id)
          .where('status', '=', 'active')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
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
