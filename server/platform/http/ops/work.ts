import type express from 'express';
import { z } from 'zod';
import { approveProposal, listProposals, refuseProposal, requestLiveMoneyAction, type LiveMoneyOutcome } from '../../domain/ops/four-eyes';
import { disabledEndpoints, fundingNoticesToConfirm, openReviews, payoutsToSettle, queueCounts } from '../../domain/ops/queues';
import { decideReviewByStaff, reenableEndpointByStaff, rejectPayoutByStaff } from '../../domain/ops/queue-decisions';
import { listStaffAudit } from '../../domain/ops/staff-audit';
import { searchOps } from '../../domain/ops/search';
import { opsLoanPage } from '../../domain/ops/loan-page';
import { toLoan } from '../../domain/loans/loan';
import { decodeCursor, PageQuery, pageOf } from '../dashboard/keyset';
import type { OpsKit } from './kit';
import { webhookAddressPolicy } from '../../../shared/address-policy';

const Uuid = z.uuid();
const Reason = z.string().trim().min(3).max(500);
const StatusQuery = PageQuery.extend({ status: z.enum(['open', 'approved', 'refused']).default('open') });

/**
 * The console's work: the queues (keyset pages, counts on the home), the actions on them, the four-eyes proposals
 * and the staff audit log. Money that moves on a person's word goes through `requestLiveMoneyAction`: done at once
 * in test mode (200), a proposal in live mode (202) that another staff member approves.
 */
export function opsWorkRoutes(router: express.Router, kit: OpsKit): void {
  const { platform } = kit;

  const answerOutcome = (res: express.Response, outcome: LiveMoneyOutcome, done: string) =>
    outcome.outcome === 'done'
      ? kit.ok(res, 200, done, { outcome: 'done', result: outcome.result })
      : kit.ok(res, 202, 'Proposed: live money needs a second staff member to approve it.', { outcome: 'proposed', proposal: outcome.proposal });

  router.get('/overview', async (req, res) => {
    const { session } = await kit.caller(req, 'read');
    kit.ok(res, 200, 'The queues.', { counts: await queueCounts(platform.db), you: { email: session.email, role: session.role } });
  });

  router.get('/payouts', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await payoutsToSettle(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Payouts to settle or reject.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/payouts/:id/settle', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reference: z.string().trim().min(3).max(160) }).strict(), req.body);
    answerOutcome(res, await requestLiveMoneyAction(platform, actor, { kind: 'payout_settle', payoutId: id, reference: body.reference }), 'Payout settled.');
  });

  router.post('/payouts/:id/reject', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reason: Reason }).strict(), req.body);
    const { payout, changed } = await rejectPayoutByStaff(platform, actor, { payoutId: id, reason: body.reason });
    kit.ok(res, 200, 'Payout rejected: the reservation went back.', { ...payout, changed });
  });

  router.get('/funding-notices', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await fundingNoticesToConfirm(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Pool-funding notices waiting for their transfer.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/funding-notices/:reference/confirm', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const reference = kit.parse(z.string().trim().min(3).max(40), req.params.reference, 'path');
    kit.parse(z.object({}).strict(), req.body);
    answerOutcome(res, await requestLiveMoneyAction(platform, actor, { kind: 'pool_funding_confirm', reference }), 'Transfer confirmed: the pool is credited.');
  });

  router.post('/loans/:id/write-off', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reason: Reason }).strict(), req.body);
    answerOutcome(res, await requestLiveMoneyAction(platform, actor, { kind: 'loan_write_off', loanId: id, reason: body.reason }), 'Loan written off.');
  });

  router.post('/organisations/:id/enable-live', async (req, res) => {
    const { actor } = await kit.caller(req, 'live_enablement');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reason: Reason }).strict(), req.body);
    answerOutcome(res, await requestLiveMoneyAction(platform, actor, { kind: 'live_enable', organisationId: id, reason: body.reason }), 'Live mode enabled.');
  });

  router.get('/reviews', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await openReviews(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Open reviews across organisations.', pageOf(rows, query.limit, (row) => ({ at: row.openedAt, id: row.id })));
  });

  router.post('/reviews/:id/decide', async (req, res) => {
    const { actor } = await kit.caller(req, 'reviews');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ decision: z.enum(['clear', 'reject']), reason: Reason }).strict(), req.body);
    const decided = await decideReviewByStaff(platform, actor, { reviewId: id, ...body });
    kit.ok(res, 200, body.decision === 'clear' ? 'Review cleared.' : 'Review rejected.', { review: decided.review, loan: toLoan(decided.loan, platform.secrets) });
  });

  router.get('/webhook-endpoints', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await disabledEndpoints(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Webhook endpoints switched off after failing.', pageOf(rows, query.limit, (row) => ({ at: row.updatedAt, id: row.id })));
  });

  router.post('/webhook-endpoints/:id/enable', async (req, res) => {
    const { actor } = await kit.caller(req, 'webhooks');
    const id = kit.parse(Uuid, req.params.id, 'path');
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Endpoint re-enabled: deliveries start again.', await reenableEndpointByStaff(platform, actor, { endpointId: id, allowLoopback: webhookAddressPolicy(platform.config).allowLoopback }));
  });

  router.get('/proposals', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(StatusQuery, req.query, 'query');
    const rows = await listProposals(platform, { status: query.status, limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Proposals.', pageOf(rows, query.limit, (row) => ({ at: row.proposedAt, id: row.id })));
  });

  router.post('/proposals/:id/approve', async (req, res) => {
    const { actor } = await kit.caller(req, 'read');
    const id = kit.parse(Uuid, req.params.id, 'path');
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Approved: it took effect.', await approveProposal(platform, actor, id));
  });

  router.post('/proposals/:id/refuse', async (req, res) => {
    const { actor } = await kit.caller(req, 'read');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reason: Reason }).strict(), req.body);
    kit.ok(res, 200, 'Refused: nothing changed.', await refuseProposal(platform, actor, id, body.reason));
  });

  router.get('/search', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(z.object({ q: z.string().trim().min(2).max(120) }), req.query, 'query');
    kit.ok(res, 200, 'Search results.', await searchOps(platform.db, query.q));
  });

  router.get('/loans/:id', async (req, res) => {
    await kit.caller(req, 'read');
    const id = kit.parse(Uuid, req.params.id, 'path');
    kit.ok(res, 200, 'The loan, read-only.', await opsLoanPage(platform, id));
  });

  router.get('/audit', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await listStaffAudit(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'The staff audit log.', pageOf(rows, query.limit, (row) => ({ at: row.at, id: row.id })));
  });
}
