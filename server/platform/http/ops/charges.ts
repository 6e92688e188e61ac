import type express from 'express';
import { z } from 'zod';
import { chargesNeedingPerson, confirmCollectedAtRail, lookUpCharge, releaseCharge } from '../../domain/ops/charges';
import { requestLiveMoneyAction } from '../../domain/ops/four-eyes';
import { decodeCursor, PageQuery, pageOf } from '../dashboard/keyset';
import type { OpsKit } from './kit';

const Uuid = z.uuid();
const Reason = z.string().trim().min(3).max(500);

/**
 * Mandate charges that need a person (`domain/ops/charges.ts`): the queue, "look up at the rail" (a read), "apply"
 * (live money: a four-eyes proposal in live mode, 202; at once in test mode) and "release" (one person: no money moves).
 */
export function opsChargeRoutes(router: express.Router, kit: OpsKit): void {
  const { platform } = kit;

  router.get('/charges', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await chargesNeedingPerson(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Mandate charges collected but not applied, or whose outcome is unknown.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/charges/:id/look-up', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'What the rail says of this charge (nothing was sent).', await lookUpCharge(platform, actor, id));
  });

  router.post('/charges/:id/apply', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    kit.parse(z.object({}).strict(), req.body);
    // A charge whose outcome is unknown is read at the rail first, outside any transaction (409 unless it succeeded).
    await confirmCollectedAtRail(platform, id);
    const outcome = await requestLiveMoneyAction(platform, actor, { kind: 'mandate_charge_apply', chargeId: id });
    if (outcome.outcome === 'done') kit.ok(res, 200, 'Charge applied to the loan.', { outcome: 'done', result: outcome.result });
    else kit.ok(res, 202, 'Proposed: live money needs a second staff member to approve it.', { outcome: 'proposed', proposal: outcome.proposal });
  });

  router.post('/charges/:id/release', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(Uuid, req.params.id, 'path');
    const body = kit.parse(z.object({ reason: Reason }).strict(), req.body);
    kit.ok(res, 200, 'Charge released: marked failed, it will not be sent again.', await releaseCharge(platform, actor, { id, reason: body.reason }));
  });
}
