import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { productInput } from '../support/factories';
import { getOrganisation } from '../../server/platform/domain/organisations/organisation';

/** The organisation's own settings in the dashboard: enough for the README's quick start without the operator CLI. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

type Owner = DashboardClient & { organisationId: string };

const audit = async (organisationId: string) =>
  app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target']).where('organisationId', '=', organisationId).where('action', '=', 'organisation_settings_updated').execute();

const setRole = (member: { organisationId: string }, role: 'analyst' | 'developer' | 'admin') =>
  app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', member.organisationId).execute();

/** A key pair made in the dashboard (as a signed-up owner would), used as the README's client would. */
async function partnerApiFromDashboard(owner: Owner) {
  const made = await owner.post('/keys', {});
  expect(made.status).toBe(201);
  return client(app, { publicKey: made.json.data.publicKey, secretKey: made.json.data.secretKey });
}

describe('dashboard organisation settings', () => {
  it('when a freshly signed-up organisation sets its default pre-approval product in the dashboard, then the quick start issue-offer with {} works (it answered 422 before)', async () => {
    const owner = await signedInOwner(app);
    const api = await partnerApiFromDashboard(owner);
    const product = await owner.post('/products', productInput({ code: 'PUSHED', approvalMode: 'partner_pushed' }));
    expect(product.status).toBe(201);

    const first = await api.post('/v1/preapprovals', pushBody());
    expect(first.status).toBe(202);
    const refused = await api.post(`/v1/preapprovals/${first.body.data.preapprovalId}/issue-offer`, {});
    expect(refused.status).toBe(422);

    const before = await owner.get('/organisation/settings');
    expect(before.status).toBe(200);
    expect(before.json.data).toMatchObject({ defaultPreapprovalProduct: null, autoIssueOffers: false, operator: { maxInterestRateBps: null } });

    const saved = await owner.send('PATCH', '/organisation/settings', { defaultPreapprovalProductId: product.json.data.id });
    expect(saved.status).toBe(200);
    expect(saved.json.data.defaultPreapprovalProduct).toEqual({ id: product.json.data.id, code: 'PUSHED', name: product.json.data.name });
    expect(await audit(owner.organisationId)).toEqual([{ action: 'organisation_settings_updated', target: 'organisation-settings defaultPreapprovalProductId' }]);
    // The home page's getting-started list sends a newcomer to this setting and ticks it now.
    expect((await owner.get('/overview')).json.data.checklist.find((c: { id: string }) => c.id === 'default_product_set')).toEqual({ id: 'default_product_set', done: true, path: '/settings' });

    const issued = await api.post(`/v1/preapprovals/${first.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({ loanProductId: product.json.data.id, principalKobo: 15_000_050 });
  });

  it('when automatic offers are switched on, then a push answers with its offer issued; without a default product the switch is refused', async () => {
    const owner = await signedInOwner(app);
    const refused = await owner.send('PATCH', '/organisation/settings', { autoIssueOffers: true });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: 'invalid_request', data: { field: 'autoIssueOffers' } });
    expect(refused.json.message).toMatch(/^autoIssueOffers: choose a default pre-approval product first/);

    const product = await owner.post('/products', productInput({ approvalMode: 'partner_pushed' }));
    const saved = await owner.send('PATCH', '/organisation/settings', { defaultPreapprovalProductId: product.json.data.id, autoIssueOffers: true });
    expect(saved.status).toBe(200);
    expect(saved.json.data.autoIssueOffers).toBe(true);
    const api = await partnerApiFromDashboard(owner);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    expect(pushed.status).toBe(202);
    expect(pushed.body.data.status).toBe('offer_issued');

    // Clearing the product while offers issue automatically would leave every push waiting: refused, nothing changes.
    const clear = await owner.send('PATCH', '/organisation/settings', { defaultPreapprovalProductId: null });
    expect(clear.status).toBe(400);
    expect((await owner.get('/organisation/settings')).json.data.defaultPreapprovalProduct?.id).toBe(product.json.data.id);
  });

  it('the quiet hours of borrower reminders: read with their defaults, set by an owner, audited, and used by the reminder run', async () => {
    const owner = await signedInOwner(app);
    expect((await owner.get('/organisation/settings')).json.data.quietHours).toEqual({ start: '21:00', end: '08:00', timeZone: 'Africa/Lagos' });
    const saved = await owner.send('PATCH', '/organisation/settings', { quietHoursStart: '20:30', quietHoursEnd: '07:15', quietHoursTimeZone: 'Africa/Accra' });
    expect(saved.status).toBe(200);
    expect(saved.json.data.quietHours).toEqual({ start: '20:30', end: '07:15', timeZone: 'Africa/Accra' });
    expect(await audit(owner.organisationId)).toEqual([{ action: 'organisation_settings_updated', target: 'organisation-settings quietHoursStart,quietHoursEnd,quietHoursTimeZone' }]);
    // What the reminder run reads for the organisation.
    const organisation = await getOrganisation(app.platform.db, owner.organisationId);
    expect({ start: organisation.quietHoursStart, end: organisation.quietHoursEnd, timeZone: organisation.quietHoursTimeZone }).toEqual({ start: '20:30', end: '07:15', timeZone: 'Africa/Accra' });
    // Saving the same again changes nothing and writes no second audit row.
    expect((await owner.send('PATCH', '/organisation/settings', { quietHoursStart: '20:30' })).status).toBe(200);
    expect(await audit(owner.organisationId)).toHaveLength(1);
  });

  it('when the value is not usable, then 400 names the field, nothing changes and no audit row is written', async () => {
    const owner = await signedInOwner(app);
    const other = await signedInOwner(app);
    const tenantMode = await owner.post('/products', productInput({ approvalMode: 'tenant' }));
    const inactive = await owner.post('/products', productInput({ approvalMode: 'partner_pushed', isActive: false }));
    const elsewhere = await other.post('/products', productInput({ approvalMode: 'partner_pushed' }));
    const cases: [unknown, string][] = [
      [{ defaultPreapprovalProductId: tenantMode.json.data.id }, 'defaultPreapprovalProductId'],
      [{ defaultPreapprovalProductId: inactive.json.data.id }, 'defaultPreapprovalProductId'],
      [{ defaultPreapprovalProductId: elsewhere.json.data.id }, 'defaultPreapprovalProductId'],
      [{ defaultPreapprovalProductId: 'not-a-uuid' }, 'defaultPreapprovalProductId'],
      [{ autoIssueOffers: 'yes' }, 'autoIssueOffers'],
      [{ notificationEmail: 'ops at clinic' }, 'notificationEmail'],
      [{ quietHoursStart: '25:00' }, 'quietHoursStart'],
      [{ quietHoursEnd: '8:00' }, 'quietHoursEnd'],
      [{ quietHoursTimeZone: 'Mars/Olympus_Mons' }, 'quietHoursTimeZone'],
      [{ maxInterestRateBps: 9000 }, ''],
      [{ liveEnabled: true }, ''],
    ];
    for (const [body, field] of cases) {
      const answer = await owner.send('PATCH', '/organisation/settings', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
      if (field) expect(answer.json.data, JSON.stringify(body)).toEqual({ field });
    }
    const organisation = await app.platform.db.selectFrom('organisations').selectAll().where('id', '=', owner.organisationId).executeTakeFirstOrThrow();
    expect(organisation).toMatchObject({ defaultPreapprovalProductId: null, maxInterestRateBps: null, quietHoursStart: '21:00', quietHoursEnd: '08:00', quietHoursTimeZone: 'Africa/Lagos' });
    expect(Boolean(organisation.liveEnabled)).toBe(false);
    expect(await audit(owner.organisationId)).toEqual([]);
  });

  it('when a developer or an analyst changes a setting, then 403 dashboard_permission_denied; they still read them; an admin may change them', async () => {
    const owner = await signedInOwner(app);
    const product = await owner.post('/products', productInput({ approvalMode: 'partner_pushed' }));
    for (const role of ['developer', 'analyst'] as const) {
      await setRole(owner, role);
      expect((await owner.get('/organisation/settings')).status).toBe(200);
      const refused = await owner.send('PATCH', '/organisation/settings', { defaultPreapprovalProductId: product.json.data.id });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'organisation.manage', role } });
    }
    await setRole(owner, 'admin');
    expect((await owner.send('PATCH', '/organisation/settings', { notificationEmail: 'ops@clinic.example' })).json.data.notificationEmail).toBe('ops@clinic.example');
    expect(await audit(owner.organisationId)).toEqual([{ action: 'organisation_settings_updated', target: 'organisation-settings notificationEmail' }]);
  });
});
