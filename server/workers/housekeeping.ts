import type { Platform } from '../platform/platform';
import { startPeriodic } from './periodic';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency';
import { purgeWebhookAttemptLog } from '../platform/domain/webhooks/purge-attempt-log';
import { purgeAccountCounts } from '../platform/domain/dashboard/request-limits';
import { expirePreapprovals } from '../platform/domain/preapprovals/expire-preapprovals';
import { sweepArrears } from '../platform/domain/repayments/sweep-arrears';
import { recordSettlementFailure, runSettlement, settlementsDue } from '../platform/domain/settlements/run-settlement';
import { runCollections } from '../platform/domain/repayments/collect-mandates';
import { purgeCheckoutData } from '../platform/domain/checkout/purge-checkout-data';
import { purgeSignInWindows } from '../platform/domain/borrower-loans/sign-in-limits';
import { expireFinancingApplications } from '../platform/domain/financing/expire-financing';
import { disburseReadyFinancing } from '../platform/domain/financing/disburse-financing';

/** The in-process workers (`startPeriodic`: restartable, safe to run in several processes at once). */

/**
 * Deletes what is kept for a while only: idempotency keys past their retention, spent OTP data and old sandbox texts,
 * webhook attempts past `WEBHOOK_ATTEMPT_RETENTION_DAYS`, and the account-request and borrower sign-in counts past their windows.
 */
export function startHousekeeping(platform: Platform, intervalMs = 3_600_000): () => void {
  return startPeriodic(platform, 'housekeeping', intervalMs, async () => {
    const purged = await purgeExpiredIdempotencyKeys(platform.db, platform.clock.now());
    if (purged > 0) platform.logger.info({ purged }, 'expired idempotency keys purged');
    const attempts = await purgeWebhookAttemptLog(platform.db, { now: platform.clock.now(), retentionDays: platform.config.WEBHOOK_ATTEMPT_RETENTION_DAYS });
    if (attempts > 0) platform.logger.info({ purged: attempts }, 'webhook attempts past their retention purged');
    const counts = await purgeAccountCounts(platform.db, platform.clock.now());
    if (counts > 0) platform.logger.info({ purged: counts }, 'old sign-in failures and account-request counts purged');
    const checkout = await purgeCheckoutData(platform.db, platform.clock.now());
    if (checkout.windows + checkout.challenges + checkout.passkeyChallenges + checkout.sandboxSms > 0) platform.logger.info(checkout, 'spent checkout data purged');
    const signIn = await purgeSignInWindows(platform.db, platform.clock.now());
    if (signIn > 0) platform.logger.info({ purged: signIn }, 'borrower sign-in counts of past hours purged');
  });
}

/** Lapses unconsumed pre-approvals past `expiresAt` (emits `preapproval.expired`). */
export function startExpirySweep(platform: Platform): () => void {
  return startPeriodic(platform, 'expiry sweep', platform.config.EXPIRY_SWEEP_INTERVAL_MS, async () => {
    let moved: number;
    do {
      moved = await expirePreapprovals(platform.db, platform.clock.now());
      if (moved > 0) platform.logger.info({ expired: moved }, 'pre-approvals expired');
    } while (moved > 0);
    // Patient financing: applications past expiresAt unsigned, and signed loans whose mandate went live meanwhile.
    const expired = await expireFinancingApplications(platform.db, platform.clock.now());
    if (expired > 0) platform.logger.info({ expired }, 'financing applications expired');
    const disbursed = await disburseReadyFinancing(platform.db, platform, platform.clock.now());
    if (disbursed > 0) platform.logger.info({ disbursed }, 'financing loans disbursed');
  });
}

/** Marks overdue instalments (late fee once) and defaults loans past the threshold. */
export function startArrearsSweep(platform: Platform): () => void {
  return startPeriodic(platform, 'arrears sweep', platform.config.ARREARS_SWEEP_INTERVAL_MS, async () => {
    const result = await sweepArrears(platform.db, platform, platform.clock.now());
    if (result.overdue || result.defaulted) platform.logger.info(result, 'arrears swept');
  });
}

/**
 * Daily settlement: settles every organisation and mode with unswept repayments up to the start
 * of the current UTC day (patient financing's on the service's own statement, org the financing lender). Idempotent (a covered period is never swept again).
 */
export function startSettlementWorker(platform: Platform): () => void {
  return startPeriodic(platform, 'settlement', platform.config.SETTLEMENT_INTERVAL_MS, async () => {
    const now = platform.clock.now();
    const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const due = await settlementsDue(platform.db, until);
    for (const { organisationId, mode } of due) {
      // One organisation's failure is recorded (the console's failed-settlements queue) and the others still settle.
      try {
        const { statement, created } = await runSettlement(platform.db, { organisationId, mode, until, now });
        if (created) platform.logger.info({ organisationId, mode, statementId: statement.id, totalSweptKobo: statement.totalSweptKobo }, 'settled');
      } catch (error) {
        platform.logger.error({ err: error, organisationId, mode }, 'settlement failed; recorded for the operations console');
        await recordSettlementFailure(platform.db, { organisationId, mode, until, now, reason: (error as Error).message || 'unknown error' }).catch((recordError: unknown) =>
          platform.logger.error({ err: recordError, organisationId, mode }, 'could not record the failed settlement'),
        );
      }
    }
  });
}

/** Sends mandate charges, reads their results and collects due instalments. */
export function startCollector(platform: Platform): () => void {
  return startPeriodic(
    platform,
    'collector',
    platform.config.COLLECTION_INTERVAL_MS,
    async () => {
      const result = await runCollections(platform, platform.clock.now());
      if (result.scheduled || result.charged || result.completed || result.failed) platform.logger.info(result, 'collections');
    },
    false,
  );
}
