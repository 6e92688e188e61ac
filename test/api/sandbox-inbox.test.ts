import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { dashboardClient, GOOD_PASSWORD, tokenFromInbox, uniqueEmail } from '../support/dashboard';
import { isFromThisMachine } from '../../server/platform/http/sandbox-inbox-page';

/** The sandbox inbox page: where a developer finds the e-mailed link or the texted code. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const page = (path = '/sandbox/mail', headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });

describe('sandbox inbox page', () => {
  it('when someone signs up, then the verification e-mail is on the page with its link, and the page allows no script and no caching', async () => {
    const email = uniqueEmail();
    expect((await dashboardClient(app).post('/sign-up', { email, password: GOOD_PASSWORD, organisationName: 'Ikeja Clinic' })).status).toBe(202);
    const token = await tokenFromInbox(app, email, 'verify-email');

    const res = await page();
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src/);
    expect(html).toContain('<h1>Sandbox inbox</h1>');
    expect(html).toContain(email.toLowerCase());
    expect(html).toMatch(new RegExp(`<a href="[^"]*/dashboard/verify-email\\?token=${encodeURIComponent(token).replace(/[-]/g, '\\-')}`));
    expect(html).not.toContain('<script');
  });

  it('when a checkout texts a code, then the text is on the page under its phone', async () => {
    const tenant = await lendingTenant(app);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    expect((await sessionClient(app, tokenOf(loan.applicationUrl)).post('/v1/checkout/otp/send')).status).toBe(200);

    const html = await (await page('/sandbox/inbox')).text();

    expect(html).toContain(phone);
    expect(html).toMatch(/\d{6}/);
  });

  it('escapes what a message holds', async () => {
    const email = uniqueEmail('x<b>y');
    await dashboardClient(app).post('/sign-up', { email, password: GOOD_PASSWORD, organisationName: 'Clinic <script>alert(1)</script>' });

    const html = await (await page()).text();

    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<b>');
  });

  it.each([
    ['X-Forwarded-For', '203.0.113.7'],
    ['Forwarded', 'for=203.0.113.7'],
    ['X-Real-IP', '203.0.113.7'],
  ])('when the request came through a proxy (%s), then 403 sandbox_inbox_loopback_only and no message', async (name, value) => {
    const res = await page('/sandbox/mail', { [name]: value, accept: 'application/json' });
    const body = await res.json();

    expect(res.status).toBe(403);
    expect(body.error).toBe('sandbox_inbox_loopback_only');
    expect(JSON.stringify(body)).not.toContain('token=');
  });

  it('answers only a peer on loopback: 127.0.0.0/8, ::1 and their IPv4-mapped form, never another address', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as never;
    for (const local of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isFromThisMachine(req(local)), local).toBe(true);
    for (const remote of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1', '', '127.0.0.1.evil']) expect(isFromThisMachine(req(remote)), remote).toBe(false);
    expect(isFromThisMachine(req('127.0.0.1', { via: '1.1 proxy' }))).toBe(false);
  });
});
