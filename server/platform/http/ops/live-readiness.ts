import type express from 'express';
import { z } from 'zod';
import { organisationsForLive, refuseLive } from '../../domain/ops/live-readiness';
import { decodeCursor, PageQuery, pageOf } from '../dashboard/keyset';
import type { OpsKit } from './kit';

/** Organisations that may go live, with their checklist; "refuse" with a reason (admin). "Enable" is `organisations/:id/enable-live`. */
export function opsLiveReadinessRoutes(router: express.Router, kit: OpsKit): void {
  const { platform } = kit;

  router.get('/live-readiness', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await organisationsForLive(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Organisations not yet live with a verified owner, and their checklist.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/organisations/:id/refuse-live', async (req, res) => {
    const { actor } = await kit.caller(req, 'live_enablement');
    const id = kit.parse(z.uuid(), req.params.id, 'path');
    const body = kit.parse(z.object({ reason: z.string().trim().min(3).max(500) }).strict(), req.body);
    kit.ok(res, 200, 'Live mode refused for now; the partner sees the reason on its dashboard home (and it is in the staff audit log).', await refuseLive(platform, actor, { organisationId: id, reason: body.reason }));
  });
}
