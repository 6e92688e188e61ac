import type { Platform } from '../platform/platform';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency';

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
