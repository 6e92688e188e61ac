import type { Services } from '../services';
import { AppError, notFound } from '../errors';
import { rejectPayout } from '../payouts/settle-payout';
import { clearReview, rejectReview } from '../reviews/decide-review';
import { inUnitOfWork } from '../unit-of-work';
import { updateEndpoint, type WebhookEndpoint } from '../webhooks/endpoint';
import { writeStaffAudit } from './staff-audit';
import { requireStaffPermission } from './staff-permissions';
import type { StaffActor } from './four-eyes';

/**
 * Queue decisions that move no money on a person's word, so one staff member decides them in either mode: rejecting
 * a payout (its reservation goes back to the borrower) and deciding an open review (through the reviews domain,
 * as the partner API and the CLI do). Each is audited in the staff log, in the same transaction.
 */
export async function rejectPayoutByStaff(services: Pick<Services, 'db' | 'clock'>, actor: StaffActor, options: { payoutId: string; reason: string }) {
  requireStaffPermission(actor, 'money');
  const now = services.clock.now();
  return inUnitOfWork(services.db, async (tx) => {
    const outcome = await rejectPayout(tx, { id: options.payoutId, reason: options.reason, now });
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'payout_rejected', target: `payout:${options.payoutId} (${options.reason.slice(0, 120)})`, origin: actor.origin, now });
    return outcome;
  });
}

export async function decideReviewByStaff(platform: Services, actor: StaffActor, options: { reviewId: string; decision: 'clear' | 'reject'; reason: string }) {
  requireStaffPermission(actor, 'reviews');
  const now = platform.clock.now();
  const texts: Array<(services: Services) => Promise<void>> = [];
  const decided = await inUnitOfWork(platform.db, async (tx) => {
    const review = await tx.selectFrom('loanReviews').select(['id', 'organisationId', 'mode', 'decidedBy', 'status', 'loanId']).where('id', '=', options.reviewId).executeTakeFirst();
    if (!review) throw notFound('review');
    if (review.status !== 'open') throw new AppError('review_closed', 'This review is closed already; re-read its loan.');
    const by = `staff:${actor.email}`;
    const ctx = { db: tx, platform, now, scope: { organisationId: review.organisationId, mode: review.mode }, actor: by, afterCommit: (work: (services: Services) => Promise<void>) => void texts.push(work) };
    const input = { reviewId: review.id, decidedBy: review.decidedBy, reason: options.reason, by };
    const result = options.decision === 'clear' ? await clearReview(ctx, input) : await rejectReview(ctx, input);
    await writeStaffAudit(tx, {
      staffId: actor.staffId,
      action: options.decision === 'clear' ? 'review_cleared' : 'review_rejected',
      target: `review:${review.id} loan:${review.loanId} ${review.mode} (${options.reason.slice(0, 120)})`,
      origin: actor.origin,
      now,
    });
    return result;
  });
  // The borrower waiting in the checkout hears about the offer once it is committed.
  for (const text of texts) await text(platform).catch((error: unknown) => platform.logger.error({ err: error }, 'review decided, but the borrower text failed'));
  return decided;
}

/**
 * Re-enables a webhook endpoint the dispatcher switched off (its failure count starts afresh), for the organisation
 * whose receiver is fixed. Only a disabled endpoint (404 otherwise); audited.
 */
export async function reenableEndpointByStaff(services: Pick<Services, 'db' | 'clock'>, actor: StaffActor, options: { endpointId: string; allowLoopback: boolean }): Promise<WebhookEndpoint> {
  requireStaffPermission(actor, 'webhooks');
  const now = services.clock.now();
  return inUnitOfWork(services.db, async (tx) => {
    const row = await tx.selectFrom('webhookEndpoints').select(['id', 'organisationId', 'mode', 'url']).where('id', '=', options.endpointId).where('status', '=', 'disabled').executeTakeFirst();
    if (!row) throw notFound('disabled webhook endpoint');
    const endpoint = await updateEndpoint(tx, { organisationId: row.organisationId, mode: row.mode }, row.id, { status: 'active' }, now, { allowLoopback: options.allowLoopback });
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'webhook_endpoint_reenabled', target: `endpoint:${row.id} ${row.mode} ${row.url.slice(0, 200)}`, origin: actor.origin, now });
    return endpoint;
  });
}
