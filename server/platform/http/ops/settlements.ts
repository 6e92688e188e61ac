import type express from 'express';
import { z } from 'zod';
import { failedSettlements, retrySettlementByStaff } from '../../domain/ops/settlements';
import { decodeCursor, PageQuery, pageOf } from '../dashboard/keyset';
import type { OpsKit } from './kit';

/** Failed settlements (`domain/ops/settlements.ts`): the queue and "retry" (the statement's own run again; finance or admin). */
export function opsSettlementRoutes(router: express.Router, kit: OpsKit): void {
  const { platform } = kit;

  router.get('/settlements', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await failedSettlements(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Settlements whose run failed.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/settlements/:id/retry', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(z.uuid(), req.params.id, 'path');
    kit.parse(z.object({}).strict(), req.body);
    const outcome = await retrySettlementByStaff(platform, actor, id);
    kit.ok(res, 200, outcome.changed ? 'Settlement run: the statement is written.' : 'Nothing to run again: the period is settled.', outcome);
  });
}
