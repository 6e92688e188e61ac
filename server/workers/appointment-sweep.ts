import type { Platform } from '../platform/platform';
import { startPeriodic } from './periodic';
import { sweepAppointments } from '../platform/domain/appointments/sweep-appointments';

/**
 * Runs the appointment sweep every APPOINTMENT_SWEEP_INTERVAL_MS (and once now): unattended and
 * overrunning appointments, recording processing, summaries. Restartable; safe in several processes.
 */
export function startAppointmentSweep(platform: Platform, intervalMs = platform.config.APPOINTMENT_SWEEP_INTERVAL_MS): () => void {
  return startPeriodic(platform, 'appointment sweep', intervalMs, async () => {
    const result = await sweepAppointments({ db: platform.db, files: platform.files, summariser: platform.summariser, speechToText: platform.speechToText, settings: platform.settings, now: platform.clock.now() });
    if (result.unattended + result.completed + result.recordings + result.summaries > 0) {
      platform.logger.info({ worker: 'appointment-sweep', ...result }, 'appointment sweep');
    }
  });
}
