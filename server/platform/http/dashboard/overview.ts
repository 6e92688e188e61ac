import { dashboardOverview } from '../../domain/dashboard/overview';
import type { DashboardArea } from './kit';

/** The home page's overview: live status, what is set up (the getting-started checklist), a few figures for the mode. Reads only, every role. */
export const overviewRoutes: DashboardArea = (router, kit) => {
  router.get('/overview', async (req, res) => {
    const { session, mode } = await kit.caller(req, null);
    const overview = await dashboardOverview(kit.platform.db, { organisationId: session.organisationId, mode }, { userId: session.userId, now: kit.platform.clock.now() });
    kit.ok(res, 200, 'Overview.', overview);
  });
};
