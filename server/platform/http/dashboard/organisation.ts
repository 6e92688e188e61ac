import { readOrganisationSettings, saveOrganisationSettings, OrganisationSettingsChange } from '../../domain/dashboard/organisation-settings';
import type { DashboardArea } from './kit';

/**
 * The organisation's settings (`/settings` page): every member reads them; owners and admins change the partner's own
 * (default pre-approval product, automatic offers, notice e-mail), audited. The operator's (interest cap, pre-approval
 * switches, live mode) are read-only here. Settings belong to the organisation, not to a mode.
 */
export const organisationRoutes: DashboardArea = (router, kit) => {
  router.get('/organisation/settings', async (req, res) => {
    const { session } = await kit.caller(req, 'organisation.read');
    kit.ok(res, 200, 'Organisation settings.', await readOrganisationSettings(kit.platform.db, session.organisationId));
  });

  router.patch('/organisation/settings', async (req, res) => {
    const { session, origin } = await kit.caller(req, 'organisation.manage');
    const change = kit.parse(OrganisationSettingsChange, req.body);
    const settings = await saveOrganisationSettings(kit.platform.db, session.organisationId, change, { userId: session.userId, origin, now: kit.platform.clock.now() });
    // API keys carry the organisation's settings in their cache: this process answers with the new ones at once
    // (others within the credential epoch's interval).
    kit.platform.authenticator.invalidate();
    kit.ok(res, 200, 'Organisation settings saved.', settings);
  });
};
