import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { LoanReviewsTable } from '../../db/schema';
import { AppError } from '../errors';
import type { Scope } from '../scope';

/**
 * A review: a loan waiting for a person's decision. Opened wherever an automatic check cannot pass a loan; closed by a
 * person (`cleared`, `rejected`) or because the loan ended meanwhile (`cancelled`). Who may decide is fixed when it
 * opens: the partner for its own loans, the service's staff for the loans the service lends.
 *
 * Reasons: `aml_not_screened` (live mode without an AML provider), `aml_hit` (the screen matched a list), `kyc_undecided`
 * (managed KYC the identity provider could not decide), `name_mismatch` (the borrower confirmed a bank account in
 * another name, and the product asks for a review of that).
 */
export const REVIEW_REASONS = ['aml_not_screened', 'aml_hit', 'kyc_undecided', 'name_mismatch'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];
export const REVIEW_STATUSES = ['open', 'closed'] as const;
export const REVIEW_CLOSED_REASONS = ['cleared', 'rejected', 'cancelled'] as const;

export interface Review {
  id: string;
  loanId: string;
  status: LoanReviewsTable['status'];
  openedReason: string;
  evidence: Record<string, unknown>;
  closedReason: LoanReviewsTable['closedReason'];
  closedBy: string | null;
  note: string | null;
  openedAt: string;
  closedAt: string | null;
  updatedAt: string;
}

export function toReview(row: LoanReviewsTable): Review {
  return {
    id: row.id,
    loanId: row.loanId,
    status: row.status,
    openedReason: row.openedReason,
    evidence: fromJson<Record<string, unknown>>(row.evidence) ?? {},
    closedReason: row.closedReason,
    closedBy: row.closedBy,
    note: row.note,
    openedAt: row.openedAt,
    closedAt: row.closedAt,
    updatedAt: row.updatedAt,
  };
}

/** One review of the scope that this decider may see (404 otherwise: another organisation's, mode's or decider's does not exist). */
export async function reviewRow(db: Executor, scope: Scope, id: string, decidedBy: LoanReviewsTable['decidedBy']): Promise<LoanReviewsTable> {
  const row = await db
    .selectFrom('loanReviews')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('decidedBy', '=', decidedBy)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'Review not found.');
  return row;
}

/** A loan's reviews, oldest first (a loan has a handful). */
export async function reviewsOfLoan(db: Executor, loanId: string): Promise<Review[]> {
  const rows = await db.selectFrom('loanReviews').selectAll().where('loanId', '=', loanId).orderBy('openedAt').orderBy('id').limit(50).execute();
  return rows.map(toReview);
}

export interface ReviewListOptions {
  status?: LoanReviewsTable['status'];
  loanId?: string;
  reason?: string;
  openedFrom?: string;
  openedTo?: string;
  limit: number;
  after?: { at: string; id: string };
}

/**
 * The queue, newest first, keyset-paged on `(opened_at, id)`; every filter is a column of the index that serves it, so
 * a page reads the page (and its look-ahead row), however many reviews the organisation has.
 */
export async function listReviews(db: Executor, scope: Scope, decidedBy: LoanReviewsTable['decidedBy'], options: ReviewListOptions): Promise<Review[]> {
  let query = db
    .selectFrom('loanReviews')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('decidedBy', '=', decidedBy);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.loanId) query = query.where('loanId', '=', options.loanId);
  if (options.reason) query = query.where('openedReason', '=', options.reason);
  if (options.openedFrom) query = query.where('openedAt', '>=', options.openedFrom);
  if (options.openedTo) query = query.where('openedAt', '<', options.openedTo);
  const after = options.after;
  if (after) query = query.where((eb) => eb.or([eb('openedAt', '<', after.at), eb.and([eb('openedAt', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await query.orderBy('openedAt', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map(toReview);
}
