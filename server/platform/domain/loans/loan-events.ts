import type { LoansTable } from '../../db/schema';
import { fromJson } from '../../db/database';
import { enqueueEvent } from '../events/enqueue-event';
import type { LoanContext } from './loan-context';
import { signOfferLetterLink } from './offer-letter-link';

/**
 * Event payloads for loans, built from explicit fields. Every loan event carries the loan id,
 * its status, the pre-approval's assessment id when it came from a push, and the partner's own
 * `clientReference` and `metadata` (echoed as given).
 */
export function loanEventBase(loan: LoansTable, assessmentId: string | null): Record<string, unknown> {
  return {
    loanId: loan.id,
    borrowerId: loan.borrowerId,
    assessmentId,
    status: loan.status,
    principalKobo: loan.principalKobo,
    clientReference: loan.clientReference,
    metadata: fromJson(loan.metadata),
  };
}

/** Assessment ids never change: looked up once per request (one request emits several events). */
const assessmentIds = new WeakMap<LoanContext, Map<string, string | null>>();

export async function assessmentIdOf(ctx: LoanContext, loan: LoansTable): Promise<string | null> {
  if (!loan.preapprovalId) return null;
  let known = assessmentIds.get(ctx);
  if (!known) assessmentIds.set(ctx, (known = new Map()));
  if (!known.has(loan.preapprovalId)) {
    const row = await ctx.db.selectFrom('preapprovals').select('assessmentId').where('id', '=', loan.preapprovalId).executeTakeFirst();
    known.set(loan.preapprovalId, row?.assessmentId ?? null);
  }
  return known.get(loan.preapprovalId)!;
}

export async function emitLoanEvent(ctx: LoanContext, event: string, loan: LoansTable, extra: Record<string, unknown> = {}): Promise<void> {
  const data = { ...loanEventBase(loan, await assessmentIdOf(ctx, loan)), ...extra };
  await enqueueEvent(ctx.db, { ...ctx.scope, event, data, now: ctx.now });
}

/** `loan.approved` then `loan.offer.issued`, both with a fresh signed offer-letter link. */
export async function emitOfferIssued(ctx: LoanContext, loan: LoansTable): Promise<void> {
  const link = signOfferLetterLink(ctx.platform.secrets, {
    baseUrl: ctx.platform.baseUrl,
    loanId: loan.id,
    documentReference: loan.documentReference!,
    now: ctx.now,
    ttlSeconds: ctx.platform.config.OFFER_LETTER_LINK_TTL_SECONDS,
  });
  const extra = { offerLetterUrl: link.url, offerLetterExpiresAt: link.expiresAt, documentReference: link.documentReference };
  await emitLoanEvent(ctx, 'loan.approved', loan, extra);
  await emitLoanEvent(ctx, 'loan.offer.issued', loan, extra);
}
