import type { Platform } from '../platform/platform';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency';
import { expirePreapprovals } from '../platform/domain/preapprovals/expire-preapprovals';
import { sweepArrears } from '../platform/domain/repayments/sweep-arrears';

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
