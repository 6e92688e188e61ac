import type { LoansTable } from '../../db/schema';
import { fromJson } from '../../db/database';
import { enqueueEvent } from '../events/enqueue-event';
import type { LoanContext, LoanWriteContext } from './loan-context';
import type { EventName } from '../events/catalogue';
import { signOfferLetterLink } from './offer-letter-link';
import { tellLoanFollowers } from '../events/followers';
import { BoundedMap } from '../../../shared/bounded-map';

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

/**
 * Assessment ids never change once a pre-approval exists, so they are remembered per process
 * (bounded, oldest out first): the lifecycle's requests each emit loan events and would otherwise
 * read the same id again every time. Ids of rows that never committed are never asked for again.
 */
const assessmentIds = new BoundedMap<string, string>(10_000);

export function rememberAssessmentId(preapprovalId: string, assessmentId: string): void {
  if (assessmentIds.has(preapprovalId)) return;
  assessmentIds.set(preapprovalId, assessmentId);
}

export async function assessmentIdOf(ctx: LoanContext, loan: LoansTable): Promise<string | null> {
  if (!loan.preapprovalId) return null;
  const known = assessmentIds.get(loan.preapprovalId);
  if (known !== undefined) return known;
  const row = await ctx.db.selectFrom('preapprovals').select('assessmentId').where('id', '=', loan.preapprovalId).executeTakeFirst();
  if (!row) return null;
  rememberAssessmentId(loan.preapprovalId, row.assessmentId);
  return row.assessmentId;
}

/** A lending event (the catalogue's). Followers hear other names directly (`loan.repayment.due`: see sweep-arrears.ts). */
export type LoanEventName = EventName;

/**
 * Writes a loan event to the outbox in the caller's transaction. A followed loan (patient financing: see
 * `events/followers.ts`) is told to its follower instead, which writes its own events.
 */
export async function emitLoanEvent(ctx: LoanWriteContext, event: LoanEventName, loan: LoansTable, extra: Record<string, unknown> = {}): Promise<void> {
  if (await tellLoanFollowers(ctx, event, loan, extra)) return;
  const data = { ...loanEventBase(loan, await assessmentIdOf(ctx, loan)), ...extra };
  await enqueueEvent(ctx.db, { ...ctx.scope, event, data, now: ctx.now });
}

/** `loan.approved` then `loan.offer.issued`, both with a fresh signed offer-letter link. */
export async function emitOfferIssued(ctx: LoanWriteContext, loan: LoansTable): Promise<void> {
  const link = signOfferLetterLink(ctx.platform.secrets, {
    baseUrl: ctx.platform.baseUrl,
    loanId: loan.id,
    documentReference: loan.documentReference!,
    now: ctx.now,
    ttlSeconds: ctx.platform.settings.OFFER_LETTER_LINK_TTL_SECONDS,
  });
  const extra = { offerLetterUrl: link.url, offerLetterExpiresAt: link.expiresAt, documentReference: link.documentReference };
  await emitLoanEvent(ctx, 'loan.approved', loan, extra);
  await emitLoanEvent(ctx, 'loan.offer.issued', loan, extra);
}
