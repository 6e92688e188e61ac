import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { bookAppointment } from '../support/appointments';

/**
 * TLS usually ends at a proxy in front of the service: the request reaches it over plain http, so
 * `req.secure` is false. The cookies holding a checkout token or a meeting key must still be `Secure`
 * whenever the public origin is https (and only then: a developer's http://localhost keeps working).
 */
const TOKEN = `cs_test_${'A'.repeat(40)}`;

async function cookieAt(origin: string, path: string): Promise<string> {
  const res = await fetch(`${origin}${path}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('set-cookie')!;
}

describe('a checkout router mounted by a partner, reached over plain http', () => {
  const servers: http.Server[] = [];
  async function mount(publicUrl: string | undefined): Promise<string> {
    const partner = express();
    // The platform is never called on the landing route; the address is a placeholder.
    partner.use('/checkout', createCheckoutRouter({ apiBaseUrl: 'http://127.0.0.1:9', ...(publicUrl ? { publicUrl } : {}) }));
    const server = http.createServer(partner);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }
  afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  it('when its publicUrl is https, then the session cookie is Secure', async () => {
    const origin = await mount('https://shop.example/checkout');
    expect(await cookieAt(origin, `/checkout/c/${TOKEN}`)).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('when its publicUrl is http, or unset on a plain-http request, then the cookie is not Secure', async () => {
    for (const publicUrl of ['http://localhost:3000/checkout', undefined]) {
      const origin = await mount(publicUrl);
      const cookie = await cookieAt(origin, `/checkout/c/${TOKEN}`);
      expect(cookie).toMatch(/; HttpOnly; SameSite=Lax$/);
      expect(cookie).not.toMatch(/Secure/);
    }
  });
});

describe.each([
  ['https://lending.example', true],
  ['http://lending.test', false],
])('npm start with PUBLIC_BASE_URL=%s, reached over plain http', (publicBaseUrl, secure) => {
  let app: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_BASE_URL: publicBaseUrl } });
    tenant = await createTenant(app);
  });
  afterAll(() => app?.stop());

  it(`the hosted checkout's cookie is ${secure ? '' : 'not '}Secure`, async () => {
    const cookie = await cookieAt(app.url, `/checkout/c/${TOKEN}`);
    expect(cookie).toMatch(/^lc_checkout=cs_test_A+; Path=\/checkout\/; HttpOnly;/);
    expect(/; Secure;/.test(cookie)).toBe(secure);
  });

  it(`the meeting page's cookie is ${secure ? '' : 'not '}Secure`, async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000 });
    const link = booked.participants[0]!.participantMeetingLink;
    expect(link.startsWith(`${publicBaseUrl}/meet/j/`)).toBe(true);
    const cookie = await cookieAt(app.url, new URL(link).pathname);
    expect(cookie).toMatch(/^tm_meeting=mk_\w+; Path=\/meet; HttpOnly;/);
    expect(/; Secure;/.test(cookie)).toBe(secure);
  });
});
