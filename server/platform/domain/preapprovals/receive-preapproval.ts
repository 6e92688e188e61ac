import { AppError } from '../errors';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import type { Services } from '../services';
import { issuePreapprovalOffer } from './issue-preapproval-offer';
import { pushPreapproval, type PushPreapprovalOptions, type PushResult } from './push-preapproval';

export type ReceivePreapprovalOptions = Omit<PushPreapprovalOptions, 'mode' | 'secrets' | 'now'>;

export interface ReceivePreapprovalResult extends PushResult {
  /** true when the organisation auto-issues offers and this push's offer was issued (then `ack.status` is `offer_issued`). */
  offerIssued: boolean;
}

/**
 * A partner pushes a credit decision: it is recorded (or, pushed before, the stored record is returned), and an
 * organisation with `autoIssueOffers` gets the offer issued at once for a first push that was received (not declined).
 * Issuing checks everything before it writes, so a refusal (a 4xx: rate above the tenant cap, outside the product's
 * limits, no usable product…) leaves the push recorded as `received` and is only logged; the partner can issue the
 * offer later. Anything else (a 5xx) fails the push.
 */
export async function receivePreapproval(
  ctx: LoanWriteContext & { platform: LoanContext['platform'] & Pick<Services, 'logger'> },
  options: ReceivePreapprovalOptions,
): Promise<ReceivePreapprovalResult> {
  const result = await pushPreapproval(ctx.db, { ...options, mode: ctx.scope.mode, secrets: ctx.platform.secrets, now: ctx.now });
  if (!result.created || !options.organisation.autoIssueOffers || result.ack.status !== 'received') return { ...result, offerIssued: false };
  try {
    await issuePreapprovalOffer(ctx, { organisation: options.organisation, preapprovalId: result.ack.preapprovalId });
    return { ...result, ack: { ...result.ack, status: 'offer_issued' }, offerIssued: true };
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    ctx.platform.logger.info({ preapprovalId: result.ack.preapprovalId, error: error.code }, 'auto-issue refused; pre-approval stays received');
    return { ...result, offerIssued: false };
  }
}
