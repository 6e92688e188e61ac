import type { Platform } from '../platform/platform';
import { makeNextInstalmentDue, type MadeDue } from '../platform/domain/borrower-loans/make-due';
import { rehearsalRunning } from '../rehearsal-marker';

/**
 * `admin loan make-due --id LOAN_ID`: a test-mode loan's next unpaid instalment falls due now (see make-due.ts); a live
 * loan's too, but only while a rehearsal's server runs on this database (docs/rehearsal.md), never otherwise.
 */
export function loanMakeDue(platform: Pick<Platform, 'db' | 'clock' | 'config'>, loanId: string): Promise<MadeDue> {
  return makeNextInstalmentDue(platform.db, loanId, platform.clock.now(), { rehearsal: rehearsalRunning(platform.config) });
}
