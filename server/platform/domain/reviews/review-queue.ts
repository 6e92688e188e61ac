import type { Executor } from '../../db/database';
import type { LoanStatus } from '../loans/loan';
import type { Scope } from '../scope';
import { listReviews, type Review, type ReviewListOptions } from './review';

/** The loan a review is about, as the queue shows it beside the evidence. */
export interface ReviewedLoan {
  id: string;
  status: LoanStatus;
  principalKobo: number;
  productName: string;
  /** First name and the last name's initial ("Adaeze O."): enough to tell loans apart; the loan's page has the rest. */
  borrowerName: string;
}

export interface QueuedReview extends Review {
  loan: ReviewedLoan;
  /** Who decided, for people: a dashboard member's e-mail, the API key (masked), `operator CLI`; null while open. */
  decidedByName: string | null;
}

/** "Adaeze Okafor" → "Adaeze O.": the queue names a borrower without spelling out who they are. */
export function maskBorrowerName(firstName: string, lastName: string): string {
  const initial = lastName.trim().charAt(0).toUpperCase();
  return [firstName.trim(), initial ? `${initial}.` : ''].filter(Boolean).join(' ');
}

/**
 * The partner's review queue for the dashboard: a keyset page of its reviews (the API's `listReviews`, same filters and
 * order) with each one's loan, read in one more query for the page's loans.
 */
export async function listReviewQueue(db: Executor, scope: Scope, options: ReviewListOptions): Promise<QueuedReview[]> {
  const reviews = await listReviews(db, scope, 'partner', options);
  if (reviews.length === 0) return [];
  const loans = await db
    .selectFrom('loans as l')
    .innerJoin('borrowers as b', 'b.id', 'l.borrowerId')
    .innerJoin('loanProducts as p', 'p.id', 'l.loanProductId')
    .select(['l.id', 'l.status', 'l.principalKobo', 'p.name as productName', 'b.firstName', 'b.lastName'])
    .where('l.organisationId', '=', scope.organisationId)
    .where('l.mode', '=', scope.mode)
    .where('l.id', 'in', [...new Set(reviews.map((review) => review.loanId))])
    .execute();
  const byId = new Map(
    loans.map((l) => [
      l.id,
      { id: l.id, status: l.status as LoanStatus, principalKobo: Number(l.principalKobo), productName: l.productName, borrowerName: maskBorrowerName(l.firstName, l.lastName) },
    ]),
  );
  const memberIds = [...new Set(reviews.flatMap((review) => (review.closedBy?.startsWith('user:') ? [review.closedBy.slice('user:'.length)] : [])))];
  const members = memberIds.length ? await db.selectFrom('dashboardUsers').select(['id', 'email']).where('id', 'in', memberIds).execute() : [];
  const emails = new Map(members.map((member) => [`user:${member.id}`, member.email]));
  return reviews.flatMap((review) => {
    const loan = byId.get(review.loanId);
    return loan ? [{ ...review, loan, decidedByName: review.closedBy ? (emails.get(review.closedBy) ?? review.closedBy) : null }] : [];
  });
}
