import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { expirePreapprovals } from '../../server/platform/domain/preapprovals/expire-preapprovals';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  await configureOrganisation(app.platform.db, tenant.organisationId, { preapprovalTtlSeconds: 3600 }, clock.now());
  app.platform.authenticator.invalidate();
});
afterAll(() => app.stop());

describe('pre-approval expiry sweep', () => {
  it('lapses unconsumed pre-approvals past expiresAt once, emits preapproval.expired, and leaves offered ones alone', async () => {
    const api = client(app, tenant.test);
    const idle = await api.post('/v1/preapprovals', pushBody());
    expect(new Date(idle.body.data.expiresAt).getTime() - clock.now().getTime()).toBe(3600_000);
    const { preapprovalId: offered } = await offeredLoan(app, tenant);

    clock.advance(3599_000);
    expect(await expirePreapprovals(app.platform.db, clock.now())).toBe(0);
    clock.advance(2_000);
    expect(await expirePreapprovals(app.platform.db, clock.now())).toBe(1);
    expect(await expirePreapprovals(app.platform.db, clock.now())).toBe(0);

    expect((await api.get(`/v1/preapprovals/${idle.body.data.preapprovalId}`)).body.data.status).toBe('expired');
    expect((await api.get(`/v1/preapprovals/${offered}`)).body.data.status).toBe('offer_issued');
    const expired = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'preapproval.expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.data).toMatchObject({ preapprovalId: idle.body.data.preapprovalId, status: 'expired' });

    const late = await api.post(`/v1/preapprovals/${idle.body.data.preapprovalId}/issue-offer`, {});
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('invalid_preapproval_state');
    expect((await api.get('/v1/preapprovals/funnel')).body.data.expired).toBe(1);
  });

  it('an offer-letter link stops working once it expires (403, nothing served)', async () => {
    const { loan } = await offeredLoan(app, tenant);
    const link = (await client(app, tenant.test).get(`/v1/loans/${loan.id}/offer-letter`)).body.data;
    expect((await fetch(link.url)).status).toBe(200);
    clock.advance(app.platform.config.OFFER_LETTER_LINK_TTL_SECONDS * 1000 + 1000);
    const expired = await fetch(link.url);
    expect(expired.status).toBe(403);
    expect(expired.headers.get('content-type')).not.toMatch(/pdf/);
  });

  it('refuses issue-offer past expiresAt even before the sweep has run', async () => {
    const api = client(app, tenant.test);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    clock.advance(3601_000);
    const res = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(res.status).toBe(409);
  });
});
