import { z } from 'zod';
import { decideReviewAsMember } from '../../domain/reviews/decide-review-as-member';
import { REVIEW_REASONS, REVIEW_STATUSES } from '../../domain/reviews/review';
import { listReviewQueue } from '../../domain/reviews/review-queue';
import { IdParams } from '../schemas';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const orEmpty = <T extends z.ZodType>(schema: T) => schema.optional().or(z.literal('').transform(() => undefined));
const ReviewsQuery = PageQuery.extend({
  status: orEmpty(z.enum(REVIEW_STATUSES)),
  reason: orEmpty(z.enum(REVIEW_REASONS)),
  loanId: orEmpty(z.string().uuid()),
});
/** The decision's reason, as on the API: required, at least 3 characters once trimmed. */
const DecisionBody = z.object({ reason: z.string().trim().min(3, 'give a reason of at least 3 characters').max(500) }).strict();

/**
 * Reviews: the partner's queue of loans waiting for a person (newest first, keyset-paged, by status, reason or loan),
 * each with its loan, and the two decisions through the API's own use cases, audited. Reads need `reviews.read` (every
 * role); deciding needs `reviews.decide` (owner, admin, compliance). The service's reviews (patient financing) are not
 * the partner's and never appear.
 */
export const reviewsRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/reviews', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'reviews.read');
    const query = kit.parse(ReviewsQuery, req.query, 'query');
    const rows = await listReviewQueue(
      platform.db,
      { organisationId: session.organisationId, mode },
      { status: query.status, reason: query.reason, loanId: query.loanId, limit: query.limit + 1, after: decodeCursor(query.cursor) },
    );
    kit.page(res, 'Reviews.', pageOf(rows, query.limit, (review) => ({ at: review.openedAt, id: review.id })));
  });

  for (const decision of ['clear', 'reject'] as const) {
    router.post(`/reviews/:id/${decision}`, async (req, res) => {
      const { session, mode, origin } = await kit.caller(req, 'reviews.decide');
      const { id } = kit.parse(IdParams, req.params, 'query');
      const body = kit.parse(DecisionBody, req.body);
      const decided = await decideReviewAsMember(platform.db, platform, { userId: session.userId, scope: { organisationId: session.organisationId, mode }, origin }, platform.clock.now(), {
        reviewId: id,
        decision,
        reason: body.reason,
      });
      const message = !decided.changed ? 'Nothing to change: the review was already decided this way' : decision === 'clear' ? 'Review cleared; the loan goes on' : 'Review rejected; the loan is rejected';
      kit.ok(res, 200, message, decided);
    });
  }
};
