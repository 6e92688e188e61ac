import type { Platform } from '../platform/platform';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency';
import { expirePreapprovals } from '../platform/domain/preapprovals/expire-preapprovals';
import { sweepArrears } from '../platform/domain/repayments/sweep-arrears';
import { runSettlement } from '../platform/domain/settlements/run-settlement';
import { runCollections } from '../platform/domain/repayments/collect-mandates';

/**
 * Periodic clean-up that is safe to run in every process at once: deletes idempotency keys past
 * their retention. Restartable: it keeps no state between runs.
 */
export function startHousekeeping(platform: Platform, intervalMs = 3_600_000): () => void {
  const run = async () => {
    try {
      const purged = await purgeExpiredIdempotencyKeys(platform.db, platform.clock.now());
      if (purged > 0) platform.logger.info({ purged }, 'expired idempotency keys purged');
    } catch (error) {
      platform.logger.warn({ err: error }, 'housekeeping failed; will retry');
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}

/** Lapses unconsumed pre-approvals past `expiresAt` (emits `preapproval.expired`). Restartable. */
export function startExpirySweep(platform: Platform): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      let moved: number;
      do {
        moved = await expirePreapprovals(platform.db, platform.clock.now());
        if (moved > 0) platform.logger.info({ expired: moved }, 'pre-approvals expired');
      } while (moved > 0);
    } catch (error) {
      platform.logger.warn({ err: error }, 'expiry sweep failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), platform.config.EXPIRY_SWEEP_INTERVAL_MS);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}

/** Marks overdue instalments (late fee once) and defaults loans past the threshold. Restartable. */
export function startArrearsSweep(platform: Platform): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await sweepArrears(platform.db, platform, platform.clock.now());
      if (result.overdue || result.defaulted) platform.logger.info(result, 'arrears swept');
    } catch (error) {
      platform.logger.warn({ err: error }, 'arrears sweep failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), platform.config.ARREARS_SWEEP_INTERVAL_MS);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}

/**
 * Daily settlement: each run settles every organisation and mode with unswept repayments up to
 * the start of the current UTC day. Idempotent (a covered period is never swept again).
 */
export function startSettlementWorker(platform: Platform): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const now = platform.clock.now();
      const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const due = await platform.db
        .selectFrom('loanRepayments')
        .select(['organisationId', 'mode'])
        .distinct()
        .where('settlementId', 'is', null)
        .where('status', '=', 'completed')
        .where('completedAt', '<', until.toISOString())
        .execute();
      for (const { organisationId, mode } of due) {
        const { statement, created } = await runSettlement(platform.db, { organisationId, mode, until, now });
        if (created) platform.logger.info({ organisationId, mode, statementId: statement.id, totalSweptKobo: statement.totalSweptKobo }, 'settled');
      }
    } catch (error) {
      platform.logger.warn({ err: error }, 'settlement run failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), platform.config.SETTLEMENT_INTERVAL_MS);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}

/** Sends mandate charges, reads their results and collects due instalments. Restartable. */
export function startCollector(platform: Platform): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await runCollections(platform, platform.clock.now());
      if (result.scheduled || result.charged || result.completed || result.failed) platform.logger.info(result, 'collections');
    } catch (error) {
      platform.logger.warn({ err: error }, 'collection run failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), platform.config.COLLECTION_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
