import { z } from 'zod';
import { toLoan } from '../../domain/loans/loan';
import { clearReview, rejectReview } from '../../domain/reviews/decide-review';
import { listReviews, reviewRow, REVIEW_CLOSED_REASONS, REVIEW_REASONS, REVIEW_STATUSES, toReview } from '../../domain/reviews/review';
import { decodeCursor, pageOf } from '../dashboard/keyset';
import { loanContext } from '../loan-context';
import { defineRoute } from '../route';
import { IdParams, limitParam, Timestamp, Uuid } from '../schemas';
import { LoanSchema } from '../loan-schemas';

export const ReviewSchema = z
  .object({
    id: Uuid,
    loanId: Uuid,
    status: z.enum(REVIEW_STATUSES),
    openedReason: z.string().meta({ description: `Why the loan waits for a person: ${REVIEW_REASONS.map((r) => `\`${r}\``).join(', ')} (more may be added; treat an unknown one as "needs a person").` }),
    evidence: z.looseObject({}).meta({
      additionalProperties: true,
      description:
        'What the automatic check saw: for an AML screen `amlScreenStatus` (`pending`: not screened; `hit`), `amlScreenDetail` (the provider\'s words and matched lists), `amlScreenedAt`, the `attestationId` and its `attestedChecks`; ' +
        'for `kyc_undecided` the `kycSubmissionId`, the provider\'s `documents` verdicts, the number of `submissions` and whether a NIN was given (`ninGiven`; never the BVN or NIN); ' +
        'for `name_mismatch` the `accountName`, `bankName`, `nameOnRecord`, the comparison (`nameMatch`, `scorePercent`) and when the borrower confirmed the account as theirs (`confirmedAt`).',
    }),
    closedReason: z.enum(REVIEW_CLOSED_REASONS).nullable().meta({ description: '`cleared`, `rejected` (a person decided), `cancelled` (the loan was cancelled or rejected another way first).' }),
    closedBy: z.string().nullable().meta({ description: 'Who decided: the API key (masked), a dashboard member (`user:<id>`), or `operator CLI`.' }),
    note: z.string().nullable().meta({ description: 'The decision\'s reason, as given.' }),
    openedAt: Timestamp,
    closedAt: Timestamp.nullable(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Review', description: 'A loan waiting for a person (opened when an automatic check cannot pass it), and the decision once made.' });

const Decision = z.object({ reason: z.string().trim().min(3).max(500).meta({ description: 'Why: kept with the review, sent with `review.closed`.' }) }).strict();
const DecidedSchema = z.object({ review: ReviewSchema, loan: LoanSchema });

/** `POST /v1/reviews/{id}/clear` and `/reject`: the partner decides its own review, with a reason. */
function decisionRoute(options: { decision: 'clear' | 'reject'; operationId: string; summary: string; description: string; message: string }) {
  const decide = options.decision === 'clear' ? clearReview : rejectReview;
  return defineRoute({
    method: 'post',
    path: `/v1/reviews/{id}/${options.decision}`,
    operationId: options.operationId,
    tag: 'Reviews',
    summary: options.summary,
    description: options.description,
    access: 'tenant',
    params: IdParams,
    body: Decision,
    response: { status: 200, description: 'The review and the loan after the decision.', data: DecidedSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'review_closed', 'invalid_loan_state'],
    async handle(ctx) {
      const loan = loanContext(ctx);
      const decided = await decide(loan, { reviewId: ctx.params.id, decidedBy: 'partner', reason: ctx.body.reason, by: loan.actor });
      return { message: options.message, data: { review: decided.review, loan: toLoan(decided.loan, ctx.platform.secrets) } };
    },
  });
}

export const reviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/reviews',
    operationId: 'listReviews',
    tag: 'Reviews',
    summary: 'List reviews',
    description:
      'The organisation\'s loans waiting for a person, and the decisions made, newest first. Keyset-paged: pass `nextCursor` back as `cursor`. ' +
      'Reviews of loans the service lends (patient financing) are decided by the service and not listed here.',
    access: 'tenant',
    query: z
      .object({
        limit: limitParam(50),
        cursor: z.string().max(400).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
        status: z.enum(REVIEW_STATUSES).optional(),
        loanId: Uuid.optional().meta({ description: 'One loan\'s reviews (a loan shows its reviews this way).' }),
        reason: z.string().max(60).optional().meta({ description: 'Only reviews opened for this reason.' }),
        openedFrom: Timestamp.optional().meta({ description: 'Opened at or after.' }),
        openedTo: Timestamp.optional().meta({ description: 'Opened before.' }),
      })
      .strict(),
    response: { status: 200, description: 'A page of reviews.', data: z.object({ reviews: z.array(ReviewSchema), nextCursor: z.string().nullable() }) },
    async handle({ db, auth, query }) {
      const rows = await listReviews(db, auth, 'partner', { ...query, limit: query.limit + 1, after: decodeCursor(query.cursor) });
      const page = pageOf(rows, query.limit, (review) => ({ at: review.openedAt, id: review.id }));
      return { message: 'Reviews retrieved', data: { reviews: page.data, nextCursor: page.nextCursor } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/reviews/{id}',
    operationId: 'getReview',
    tag: 'Reviews',
    summary: 'Get a review',
    description: 'One review with its evidence and, once closed, the decision.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The review.', data: ReviewSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Review retrieved', data: toReview(await reviewRow(db, auth, params.id, 'partner')) };
    },
  }),
  decisionRoute({
    decision: 'clear',
    operationId: 'clearReview',
    summary: 'Clear a review',
    description:
      'A person looked at the evidence and lets the loan go on, exactly as an automatic pass would have: the offer is issued (`awaiting_acceptance`, ' +
      '`loan.approved` and `loan.offer.issued`, the borrower waiting in the checkout is texted the link) where an approval or a pushed decision waited, or ' +
      'the loan is `attested` where a separate attestation waited. Emits `review.closed`. Clearing a cleared review answers it unchanged; a review decided ' +
      'the other way (or closed with its loan) is 409 `review_closed`.',
    message: 'Review cleared',
  }),
  decisionRoute({
    decision: 'reject',
    operationId: 'rejectReview',
    summary: 'Reject a review',
    description:
      'A person decided the loan must not go on: the loan is `rejected` with the reason. Emits `review.closed`. Rejecting a rejected review answers it ' +
      'unchanged; a review decided the other way (or closed with its loan) is 409 `review_closed`.',
    message: 'Review rejected; the loan is rejected',
  }),
];
