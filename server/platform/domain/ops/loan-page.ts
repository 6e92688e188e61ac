import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import { notFound } from '../errors';
import { getLoanTimeline, type LoanTimeline, type LoanTimelineEvent } from '../loans/loan-timeline';
import { reviewsOfLoan, type Review } from '../reviews/review';
import type { Services } from '../services';

/** What the console may do from a loan's page: only what a queue would offer for it. */
export interface OpsLoanActions {
  /** The loan's open review (cleared or rejected as from the reviews queue), or null. */
  openReviewId: string | null;
  /** An active loan in arrears may be written off (a four-eyes proposal in live mode). */
  writeOff: boolean;
  /** The open four-eyes proposal about this loan (a write-off waiting for a second person), or null. */
  proposalId: string | null;
}

/**
 * A loan's page in the console: the dashboard's loan facts (`getLoanTimeline`: status and its history, amounts,
 * schedule, repayments, mandates, events, ledger postings) for a loan of any organisation and mode, with its
 * organisation, its reviews (the service's own too) and the staff-only events of its review (`api = 'staff'`).
 * Read-only: the offer letter's signed link, the borrower's checkout link and the partner's own actions are left out;
 * `actions` says which queue action applies. Unknown id: 404.
 */
export interface OpsLoanPage extends Omit<LoanTimeline, 'actions' | 'offerLetter'> {
  organisation: { id: string; name: string };
  /** The loan's mode (the partner's loan object does not carry it: its key's mode does). */
  mode: 'test' | 'live';
  reviews: Array<Review & { decidedBy: 'partner' | 'service' }>;
  actions: OpsLoanActions;
}

export async function opsLoanPage(services: Pick<Services, 'db' | 'secrets' | 'baseUrl' | 'settings' | 'clock'> & { dialect: Dialect }, loanId: string): Promise<OpsLoanPage> {
  const db: Executor = services.db;
  const row = await db
    .selectFrom('loans as l')
    .innerJoin('organisations as o', 'o.id', 'l.organisationId')
    .select(['l.id', 'l.organisationId', 'l.mode', 'l.status', 'l.inArrears', 'o.name'])
    .where('l.id', '=', loanId)
    .executeTakeFirst();
  if (!row) throw notFound('loan');
  const scope = { organisationId: row.organisationId, mode: row.mode };
  const { actions: _partnerActions, offerLetter: _link, ...timeline } = await getLoanTimeline(db, services.dialect, services, scope, loanId, services.clock.now());
  const [reviews, deciders, staffEvents, proposal] = await Promise.all([
    reviewsOfLoan(db, loanId),
    db.selectFrom('loanReviews').select(['id', 'decidedBy']).where('loanId', '=', loanId).execute(),
    db
      .selectFrom('events')
      .select(['id', 'name', 'payload', 'createdAt'])
      // The expression migration 0033 indexes (every loan event's payload carries `loanId`).
      .where(services.dialect === 'postgres' ? sql<string>`(payload ->> 'loanId')` : sql<string>`json_extract(payload, '$.loanId')`, '=', loanId)
      .where('api', '=', 'staff')
      .orderBy('createdAt')
      .orderBy('id')
      .limit(200)
      .execute(),
    db.selectFrom('opsProposals').select('id').where('subject', '=', loanId).where('status', '=', 'open').executeTakeFirst(),
  ]);
  const decidedBy = new Map(deciders.map((d) => [d.id, d.decidedBy]));
  const mine: LoanTimelineEvent[] = staffEvents.map((event) => {
    const data = fromJson<Record<string, unknown>>(event.payload) ?? {};
    return { id: event.id, name: event.name, at: event.createdAt, status: typeof data.status === 'string' ? data.status : null, data };
  });
  const events = [...timeline.events, ...mine].sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at.localeCompare(b.at)));
  const open = reviews.find((review) => review.status === 'open');
  return {
    ...timeline,
    // The borrower's checkout link is a credential for the borrower: staff read the loan, they do not open it.
    loan: { ...timeline.loan, applicationUrl: null },
    events,
    organisation: { id: row.organisationId, name: row.name },
    mode: row.mode,
    reviews: reviews.map((review) => ({ ...review, decidedBy: decidedBy.get(review.id) ?? 'partner' })),
    actions: { openReviewId: open?.id ?? null, writeOff: row.status === 'active' && Boolean(row.inArrears), proposalId: proposal?.id ?? null },
  };
}
