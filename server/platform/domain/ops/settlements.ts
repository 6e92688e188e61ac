import type { Executor } from '../../db/database';
import { AppError, notFound } from '../errors';
import type { Mode } from '../scope';
import type { Services } from '../services';
import { recordSettlementFailure, runSettlement } from '../settlements/run-settlement';
import { toStatement, type SettlementStatement } from '../settlements/settlement';
import type { StaffActor } from './four-eyes';
import type { Keyset } from './queues';
import { writeStaffAudit } from './staff-audit';
import { requireStaffPermission } from './staff-permissions';

/**
 * Settlements whose run failed (a `failed` statement, recorded by the daily worker: `recordSettlementFailure`) and
 * that no later good statement covers yet (a later day's run sweeps the failed day's repayments; the record stays). "Retry" is that statement's own run again (`runSettlement` for its organisation,
 * mode and day): idempotent, since a period already settled answers the statement that covers it. A failing retry
 * records the new reason and answers 409 `settlement_retry_failed`. Finance or admin, one person in either mode: the
 * run sweeps earned income on the schedule's rule, no amount is chosen by a person.
 */
export interface FailedSettlementItem {
  id: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  periodStart: string;
  periodEnd: string;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const failedOnly = (db: Executor) =>
  db
    .selectFrom('settlementStatements as s')
    .innerJoin('organisations as o', 'o.id', 's.organisationId')
    .where('s.status', '=', 'failed')
    // Not covered yet by a later good statement (whose period swept the failed day's repayments).
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('settlementStatements as c')
            .select('c.id')
            .whereRef('c.organisationId', '=', 's.organisationId')
            .whereRef('c.mode', '=', 's.mode')
            .whereRef('c.periodEnd', '>', 's.periodEnd')
            .where('c.status', '!=', 'failed'),
        ),
      ),
    );

export async function failedSettlements(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<FailedSettlementItem[]> {
  let select = failedOnly(db).select(['s.id', 's.organisationId', 'o.name as organisationName', 's.mode', 's.periodStart', 's.periodEnd', 's.failureReason', 's.createdAt', 's.updatedAt']);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('s.createdAt', '<', after.at), eb.and([eb('s.createdAt', '=', after.at), eb('s.id', '<', after.id)])]));
  return select.orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').limit(options.limit).execute();
}

export async function countFailedSettlements(db: Executor): Promise<number> {
  const row = await failedOnly(db).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function retrySettlementByStaff(services: Pick<Services, 'db' | 'clock' | 'logger'>, actor: StaffActor, id: string): Promise<{ statement: SettlementStatement; changed: boolean }> {
  requireStaffPermission(actor, 'money');
  const row = await services.db.selectFrom('settlementStatements').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('settlement statement');
  if (row.status !== 'failed') return { statement: toStatement(row), changed: false };
  // Covered by a later statement already: runSettlement answers that one (changed: false).
  const now = services.clock.now();
  const options = { organisationId: row.organisationId, mode: row.mode, until: new Date(row.periodEnd), now };
  let outcome;
  try {
    outcome = await runSettlement(services.db, options);
  } catch (error) {
    if (error instanceof AppError) throw error;
    services.logger.error({ err: error, statementId: row.id }, 'settlement retry failed');
    const reason = (error as Error).message || 'unknown error';
    await recordSettlementFailure(services.db, { ...options, reason });
    await writeStaffAudit(services.db, { staffId: actor.staffId, action: 'settlement_retried', target: `settlement:${row.id} ${row.mode} ${row.periodEnd} failed again`, origin: actor.origin, now });
    throw new AppError('settlement_retry_failed', `The settlement failed again: ${reason.slice(0, 200)}. The reason is recorded; nothing was swept.`);
  }
  await writeStaffAudit(services.db, {
    staffId: actor.staffId,
    action: 'settlement_retried',
    target: `settlement:${row.id} ${row.mode} ${row.periodEnd} → ${outcome.statement.status} ${outcome.statement.totalSweptKobo}`,
    origin: actor.origin,
    now,
  });
  return { statement: outcome.statement, changed: outcome.created };
}
