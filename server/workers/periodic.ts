import type { Platform } from '../platform/platform';

/**
 * Runs `work` every `intervalMs` (and once now, unless `immediately` is false), never two runs at
 * once in this process; a failed run is logged (`<name> failed; will retry`) and retried at the
 * next tick. Returns `stop`. Every worker is restartable and safe in several processes at once: it
 * keeps no state between runs and every change it makes is a conditional write.
 */
export function startPeriodic(platform: Pick<Platform, 'logger'>, name: string, intervalMs: number, work: () => Promise<void>, immediately = true): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } catch (error) {
      platform.logger.warn({ err: error, worker: name }, `${name} failed; will retry`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  if (immediately) void run();
  return () => clearInterval(timer);
}
