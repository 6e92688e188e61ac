import type { Platform } from '../platform/platform';
import { startPeriodic } from './periodic';
import { expireMandates } from '../platform/domain/mandates/expire-mandates';
import { sweepMandateReplacements } from '../platform/domain/mandates/take-over-mandate';

/**
 * Runs the mandate sweep every MANDATE_EXPIRY_SWEEP_INTERVAL_MS (and once now): mandates the borrower
 * never authorised within MANDATE_AUTHORISATION_WINDOW_HOURS are read back at the rail and expired
 * (or recorded as the rail has them). Restartable; safe in several processes (every write is
 * conditional, and only the process whose write moved a mandate emits its event and texts the borrower). It also
 * finishes borrowers' changes of account: a takeover deferred while a charge was in flight, and the old mandate's
 * cancellation at the rail when the rail did not take it at once (`take-over-mandate.ts`).
 */
export function startMandateSweep(platform: Platform, intervalMs = platform.config.MANDATE_EXPIRY_SWEEP_INTERVAL_MS): () => void {
  return startPeriodic(platform, 'mandate sweep', intervalMs, async () => {
    const result = await expireMandates(platform.db, platform, { windowHours: platform.config.MANDATE_AUTHORISATION_WINDOW_HOURS, now: platform.clock.now() });
    if (result.expired + result.readBack > 0) platform.logger.info({ worker: 'mandate-sweep', ...result }, 'mandate sweep');
    const replacements = await sweepMandateReplacements(platform.db, platform, platform.clock.now());
    if (replacements.replaced + replacements.cancelledAtRail > 0) platform.logger.info({ worker: 'mandate-sweep', ...replacements }, 'mandate replacements');
  });
}
