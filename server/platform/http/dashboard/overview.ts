import { dashboardOverview } from '../../domain/dashboard/overview';
import type { DashboardArea } from './kit';

/** Ports a live loan cannot go without besides its rail: the borrower's code, identity and bank checks. */
const LIVE_ESSENTIALS = ['sms', 'identity', 'bankLookup'] as const;

/** The home page's overview: live status, what is set up (the getting-started checklist), a few figures for the mode. Reads only, every role. */
export const overviewRoutes: DashboardArea = (router, kit) => {
  router.get('/overview', async (req, res) => {
    const { session, mode } = await kit.caller(req, null);
    const { platform } = kit;
    const liveProvidersMissing = [...(platform.rails.liveRails().length ? [] : ['rail']), ...LIVE_ESSENTIALS.filter((port) => platform[port].liveProvider === null)];
    const overview = await dashboardOverview(kit.platform.db, { organisationId: session.organisationId, mode }, { userId: session.userId, now: kit.platform.clock.now(), liveProvidersMissing });
    kit.ok(res, 200, 'Overview.', overview);
  });
};
