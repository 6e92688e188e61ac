import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { liveLendingTenant } from '../support/live-providers';
import { mintSession, tokenOf, uniquePhone } from '../support/checkout';

/**
 * The checkout server's test-mode flag for the OTP hint: `sandboxInbox` in the state it forwards is
 * the platform's sandbox inbox only when the session is in test mode, the browser is on the
 * platform's machine with no proxy in between, and the platform serves the inbox (a HEAD answered
 * 200) — never a link that would answer 403 or 404. A live session's state has no such field.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await liveLendingTenant(app, clock.now());
});
afterAll(() => app.stop());

/** The hosted checkout's state as the browser reads it (embedded-style: the token in the header). */
const hostedState = (a: TestApp, token: string, headers: Record<string, string> = {}) =>
  fetch(`${a.url}/checkout/api/state`, { headers: { authorization: `CheckoutSession ${token}`, ...headers } }).then(async (res) => ({ status: res.status, body: await res.json() }));

describe('sandboxInbox in the hosted checkout\'s state', () => {
  it('when a test-mode session is read from this machine, then it links the platform\'s inbox, which answers that browser', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const read = await hostedState(app, tokenOf(loan.applicationUrl));
    expect(read.status).toBe(200);
    expect(read.body.data.mode).toBe('test');
    expect(read.body.data.sandboxInbox).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/mail#texts$/);
    const inbox = await fetch(read.body.data.sandboxInbox.replace(/#.*$/, ''));
    expect(inbox.status).toBe(200);
  });

  it('when the browser comes through a proxy (a forwarding header), then null: the inbox would refuse it', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const read = await hostedState(app, tokenOf(loan.applicationUrl), { 'x-forwarded-for': '102.89.34.7' });
    expect(read.status).toBe(200);
    expect(read.body.data.sandboxInbox).toBeNull();
  });

  it('when the session is live, then the state has no sandboxInbox at all', async () => {
    const live = client(app, tenant.live);
    const pushed = await live.post('/v1/preapprovals', pushBody({ phone: uniquePhone() }));
    const issued = await live.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.body.data?.id, JSON.stringify(issued.body)).toBeTruthy();
    const session = await mintSession(app, tenant.live, issued.body.data.id);
    const read = await hostedState(app, tokenOf(session.url));
    expect(read.status).toBe(200);
    expect(read.body.data.mode).toBe('live');
    expect(read.body.data).not.toHaveProperty('sandboxInbox');
  });
});

describe('without the sandbox routes', () => {
  let bare: TestApp;
  let bareTenant: LendingTenant;
  beforeAll(async () => {
    bare = await startTestApp({ clock, env: { SANDBOX_ROUTES_ENABLED: 'false' } });
    bareTenant = await lendingTenant(bare);
  });
  afterAll(() => bare.stop());

  it('when the platform does not serve the inbox, then a test-mode state says null (no link to a 404)', async () => {
    const { loan } = await offeredLoan(bare, bareTenant, { phone: uniquePhone() });
    const read = await hostedState(bare, tokenOf(loan.applicationUrl));
    expect(read.status).toBe(200);
    expect(read.body.data.mode).toBe('test');
    expect(read.body.data.sandboxInbox).toBeNull();
    expect((await fetch(`${bare.url}/sandbox/mail`, { method: 'HEAD' })).status).toBe(404);
  });
});
