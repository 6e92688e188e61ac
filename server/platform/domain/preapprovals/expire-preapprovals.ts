import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { enqueueEvent } from '../events/enqueue-event';
import { toPreapproval } from './preapproval';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Moves unconsumed `received` pre-approvals past their lapse time to `expired`, emitting
 * `preapproval.expired` in the same transaction as each move. Restartable and safe to run in
 * several processes: each row moves by a conditional UPDATE, so only one run emits for it.
 */
export async function expirePreapprovals(db: Db, now: Date, batchSize = 200): Promise<number> {
  const at = now.toISOString();
  const due = await db
    .selectFrom('preapprovals')
    .selectAll()
    // A literal, so the partial index (status = 'received' and loan_id is null) applies.
    .where('status', '=', sql.lit('received'))
    .where('loanId', 'is', null)
    .where('expiresAt', '<=', at)
    .orderBy('expiresAt')
    .limit(batchSize)
    .execute();
  let expired = 0;
  for (const row of due) {
    await inUnitOfWork(db, async (trx) => {
      const moved = await trx
        .updateTable('preapprovals')
        .set({ status: 'expired', updatedAt: at })
        .where('id', '=', row.id)
        .where('status', '=', 'received')
        .where('loanId', 'is', null)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return;
      const p = toPreapproval({ ...row, status: 'expired', updatedAt: at });
      await enqueueEvent(trx, {
        organisationId: p.organisationId,
        mode: row.mode,
        event: 'preapproval.expired',
        data: { preapprovalId: p.id, assessmentId: p.assessmentId, borrowerId: p.borrowerId, clientReference: p.clientReference, status: p.status, expiresAt: p.expiresAt },
        now,
      });
      expired += 1;
    });
  }
  return expired;
}
