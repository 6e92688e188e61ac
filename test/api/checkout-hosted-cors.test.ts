import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { tokenOf, uniquePhone } from '../support/checkout';

/**
 * The platform's own hosted checkout (`/checkout`, mounted with `organisationOrigins`) answers CORS
 * for the origins each organisation lists in its checkout settings, for that organisation's sessions.
 */
let app: TestApp;
let shop: LendingTenant; // lists SHOP in its allowedOrigins
let other: LendingTenant; // lists only OTHER
const SHOP = 'https://shop.example';
const OTHER = 'https://other.example';

beforeAll(async () => {
  app = await startTestApp();
  shop = await lendingTenant(app);
  other = await lendingTenant(app);
  expect((await client(app, shop.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [SHOP] } })).status).toBe(200);
  expect((await client(app, other.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [OTHER] } })).status).toBe(200);
});
afterAll(() => app.stop());

async function sessionOf(lender: LendingTenant) {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, lender, { phone });
  return { loan, phone, token: tokenOf(loan.applicationUrl) };
}

const json = async (res: Response) => (await res.json()) as { error?: string; message: string; data?: any };

describe("the platform's hosted checkout, called from a partner page of another origin", () => {
  it("when the page's origin is in the session's organisation's allowedOrigins, then the call goes through with CORS for that origin", async () => {
    const { loan, token } = await sessionOf(shop);
    const res = await fetch(`${app.url}/checkout/api/state`, { headers: { origin: SHOP, authorization: `CheckoutSession ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
    expect((await json(res)).data.session.loanId).toBe(loan.id);
  });

  it("when the origin is another organisation's, then 403 origin_not_allowed that the page can read (naming the setting), and nothing runs", async () => {
    const { phone, token } = await sessionOf(shop);
    const res = await fetch(`${app.url}/checkout/api/otp/send`, {
      method: 'POST',
      headers: { origin: OTHER, authorization: `CheckoutSession ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBe(OTHER);
    const body = await json(res);
    expect(body.error).toBe('origin_not_allowed');
    expect(body.message).toContain('PATCH /v1/checkout-settings');
    expect(body.message).toContain(OTHER);
    // No code was sent.
    const inbox = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(inbox.body.data.messages).toEqual([]);
  });

  it('when the call carries no session token (only a cookie), then 403 origin_not_allowed: cross-origin calls never use the cookie', async () => {
    const { token } = await sessionOf(shop);
    const res = await fetch(`${app.url}/checkout/api/state`, { headers: { origin: SHOP, cookie: `lc_checkout=${token}` } });
    expect(res.status).toBe(403);
    expect((await json(res)).error).toBe('origin_not_allowed');
  });

  it('when a preflight comes from any origin, then it is answered (it carries no credentials and nothing runs); an opaque origin gets nothing', async () => {
    for (const origin of [SHOP, 'https://anyone.example']) {
      const res = await fetch(`${app.url}/checkout/api/otp/send`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-max-age')).toBe('600');
    }
    const opaque = await fetch(`${app.url}/checkout/api/state`, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'GET' } });
    expect(opaque.status).toBe(403);
    expect(opaque.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('when the token names no live session, then its 401 is readable by the page (the widget shows the ended state)', async () => {
    const res = await fetch(`${app.url}/checkout/api/state`, { headers: { origin: SHOP, authorization: `CheckoutSession cs_test_${'x'.repeat(40)}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('when the organisation adds an origin, then a refused page gets in on its retry', async () => {
    const lender = await lendingTenant(app);
    const { token } = await sessionOf(lender);
    const call = () => fetch(`${app.url}/checkout/api/state`, { headers: { origin: SHOP, authorization: `CheckoutSession ${token}` } });
    expect((await call()).status).toBe(403);
    expect((await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [SHOP] } })).status).toBe(200);
    // A refusal is looked up again after a few seconds (an allowed origin is trusted for a minute).
    await expect.poll(async () => (await call()).status, { timeout: 10_000, interval: 1_000 }).toBe(200);
  }, 20_000);

  it('the same-origin hosted page is unaffected (no Origin check, the cookie works)', async () => {
    const { token } = await sessionOf(shop);
    const res = await fetch(`${app.url}/checkout/api/state`, { headers: { origin: app.url, cookie: `lc_checkout=${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the organisation origins cache', () => {
  let server: http.Server;
  let base: string;
  const lookups: string[] = [];

  beforeAll(async () => {
    const host = express();
    const counting: typeof fetch = (input, init) => {
      const url = String(input);
      if (url.endsWith('/v1/checkout/settings')) lookups.push(url);
      return fetch(input, init);
    };
    host.use('/checkout', createCheckoutRouter({ apiBaseUrl: app.url, organisationOrigins: true, fetch: counting }));
    server = http.createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when one session makes several calls, then its organisation\'s settings are looked up once; a refused origin right after costs no lookup', async () => {
    const { token } = await sessionOf(shop);
    const headers = (origin: string) => ({ origin, authorization: `CheckoutSession ${token}` });
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/checkout/api/state`, { headers: headers(SHOP) })).status).toBe(200);
    expect(lookups).toHaveLength(1);
    const refused = await fetch(`${base}/checkout/api/state`, { headers: headers(OTHER) });
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toContain('PATCH /v1/checkout-settings');
    expect(lookups).toHaveLength(1);
  });
});
