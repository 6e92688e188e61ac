import type { Platform } from '../platform/platform';
import { startPeriodic } from './periodic';
import { sendBorrowerReminders } from '../platform/domain/borrower-loans/reminders';

/**
 * Runs the borrower reminders every BORROWER_REMINDER_INTERVAL_MS (and once now): texts before a direct debit (the
 * product's `reminders.leadDays`) and after a failed one, outside each organisation's quiet hours (one that falls due
 * inside them goes at the first run after they end). Restartable; safe in several processes: a reminder is claimed by
 * a unique key before its text goes out, so each goes at most once per instalment.
 */
export function startBorrowerReminders(platform: Platform, intervalMs = platform.config.BORROWER_REMINDER_INTERVAL_MS): () => void {
  return startPeriodic(platform, 'borrower reminders', intervalMs, async () => {
    const result = await sendBorrowerReminders(platform, platform.clock.now());
    if (result.sent + result.failed > 0) platform.logger.info({ worker: 'borrower-reminders', ...result }, 'borrower reminders');
  });
}
