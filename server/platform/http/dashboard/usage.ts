import { z } from 'zod';
import type { DashboardArea } from './kit';

const UsageQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(30) });

/**
 * Usage: the organisation's authenticated API calls per UTC day in the request's mode (what `UsageMeter` records:
 * every request, and those answered 4xx/5xx as errors), oldest first, every day of the window present (0 when quiet).
 */
export const usageRoutes: DashboardArea = (router, kit) => {
  router.get('/usage', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'usage.read');
    const query = kit.parse(UsageQuery, req.query, 'query');
    const days = await kit.platform.usage.rollups(session.organisationId, mode, query.days);
    kit.ok(res, 200, 'Daily usage.', { mode, days });
  });
};
