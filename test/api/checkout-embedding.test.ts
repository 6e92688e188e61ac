import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { client, createTenant, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { tokenOf, uniquePhone } from '../support/checkout';

let app: TestApp;
let tenant: LendingTenant;
let partner: { server: http.Server; origin: string };
const SHOP = 'https://shop.example';

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  const host = express();
  host.use('/checkout', createCheckoutRouter({ apiBaseUrl: app.url, allowedOrigins: [SHOP], returnUrl: undefined }));
  const server = http.createServer(host);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  partner = { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
});
afterAll(async () => {
  partner.server.closeAllConnections();
  await new Promise<void>((resolve) => partner.server.close(() => resolve()));
  await app.stop();
});

/** Branding (its own fields, null until set) is tested in checkout-branding.test.ts. */
const NO_BRANDING = { displayName: null, logoUrl: null, brandColor: null, supportEmail: null, supportPhone: null, supportUrl: null, privacyUrl: null, termsUrl: null };
const patch = (key: { publicKey: string; secretKey: string }, body: unknown) => client(app, key).call('PATCH', '/v1/checkout-settings', { body });

describe('checkout settings (partner API)', () => {
  it('when nothing was set, then no origins and no return URL', async () => {
    const fresh = await createTenant(app);
    const res = await client(app, fresh.test).get('/v1/checkout-settings');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ allowedOrigins: [], returnUrl: null, ...NO_BRANDING, updatedAt: null });
  });

  it('when origins and a return URL are set, then they are kept per mode, and a later change replaces only what it names', async () => {
    const lender = await createTenant(app);
    const set = await patch(lender.test, { allowedOrigins: ['https://shop.example', 'http://localhost:5173', 'https://shop.example'], returnUrl: 'shopapp://checkout-done' });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ allowedOrigins: ['https://shop.example', 'http://localhost:5173'], returnUrl: 'shopapp://checkout-done', ...NO_BRANDING, updatedAt: expect.any(String) });

    const onlyUrl = await patch(lender.test, { returnUrl: 'https://shop.example/back?from=loan' });
    expect(onlyUrl.body.data.allowedOrigins).toEqual(['https://shop.example', 'http://localhost:5173']);
    expect(onlyUrl.body.data.returnUrl).toBe('https://shop.example/back?from=loan');
    const removed = await patch(lender.test, { returnUrl: null });
    expect(removed.body.data.returnUrl).toBeNull();

    // Live mode has its own settings; test mode's are not visible there.
    expect((await client(app, lender.live).get('/v1/checkout-settings')).body.data).toEqual({ allowedOrigins: [], returnUrl: null, ...NO_BRANDING, updatedAt: null });
    // Another organisation sees only its own.
    expect((await client(app, tenant.test).get('/v1/checkout-settings')).body.data.allowedOrigins).not.toContain('http://localhost:5173');
  });

  it.each([
    [{ allowedOrigins: ['https://shop.example/'] }, 'must be exactly an origin'],
    [{ allowedOrigins: ['https://shop.example/pay'] }, 'must be exactly an origin'],
    [{ allowedOrigins: ['https://*.shop.example'] }, 'allowedOrigins'],
    [{ allowedOrigins: ['shop.example'] }, 'allowedOrigins'],
    [{ allowedOrigins: ['http://shop.example'] }, 'must use https'],
    [{ allowedOrigins: 'https://shop.example' }, 'body.allowedOrigins'],
    [{ allowedOrigins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, 'body.allowedOrigins'],
    [{ returnUrl: 'javascript:alert(1)' }, 'scheme is not allowed'],
    [{ returnUrl: 'data:text/html,hi' }, 'scheme is not allowed'],
    [{ returnUrl: '/relative/path' }, 'not an absolute URL'],
    [{ returnUrl: 'http://shop.example/back' }, 'must use https'],
    [{ returnUrl: 'https://user:pw@shop.example/back' }, 'credentials'],
    [{ returnUrl: 42 }, 'body.returnUrl'],
    [{ allowedOrigins: [SHOP], colour: 'red' }, 'body'],
  ])('when the body is %j, then 400 invalid_request naming the problem, and nothing changes', async (body, message) => {
    const lender = await createTenant(app);
    await patch(lender.test, { allowedOrigins: ['https://before.example'], returnUrl: 'https://before.example/back' });
    const res = await patch(lender.test, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(res.body.message).toContain(message);
    const after = await client(app, lender.test).get('/v1/checkout-settings');
    expect(after.body.data).toMatchObject({ allowedOrigins: ['https://before.example'], returnUrl: 'https://before.example/back' });
  });

  it('when a live key names a loopback http origin, then 400: plain http is for test mode only', async () => {
    const lender = await createTenant(app);
    const res = await patch(lender.live, { allowedOrigins: ['http://localhost:3000'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('checkout settings (borrower session)', () => {
  it('when a session reads them, then it gets its organisation\'s origins and return URL only; API keys and sessions stay on their own routes', async () => {
    const lender = await lendingTenant(app);
    await patch(lender.test, { allowedOrigins: [SHOP], returnUrl: 'https://shop.example/back' });
    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const token = tokenOf(loan.applicationUrl);
    const auth = { authorization: `CheckoutSession ${token}` };
    const res = await client(app).get('/v1/checkout/settings', auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ allowedOrigins: [SHOP], returnUrl: 'https://shop.example/back' });
    expect((await client(app, lender.test).get('/v1/checkout/settings')).body.error).toBe('credential_not_allowed');
    expect((await client(app).get('/v1/checkout-settings', auth)).body.error).toBe('credential_not_allowed');
    expect((await client(app).call('PATCH', '/v1/checkout-settings', { body: { returnUrl: null }, headers: auth })).status).toBe(403);
  });
});

describe('the checkout server for embedding (createCheckoutRouter allowedOrigins)', () => {
  async function session() {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    return { loan, token: tokenOf(loan.applicationUrl) };
  }

  it('when an allowed origin sends a preflight, then CORS allows the session header; credentials are never allowed', async () => {
    const res = await fetch(`${partner.origin}/checkout/api/otp/send`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('when an allowed origin calls with the token as a header, then the call goes through; with only the cookie, it is refused', async () => {
    const { loan, token } = await session();
    const state = await fetch(`${partner.origin}/checkout/api/state`, { headers: { origin: SHOP, authorization: `CheckoutSession ${token}` } });
    expect(state.status).toBe(200);
    expect(state.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(((await state.json()) as { data: { session: { loanId: string } } }).data.session.loanId).toBe(loan.id);

    const withCookie = await fetch(`${partner.origin}/checkout/api/state`, { headers: { origin: SHOP, cookie: `lc_checkout=${token}` } });
    expect(withCookie.status).toBe(401);
    expect(((await withCookie.json()) as { error: string }).error).toBe('checkout_session_missing');
  });

  it('when an origin nobody allowed calls, then 403 origin_not_allowed that the page can read (naming the router option), and nothing runs; an opaque origin gets no CORS at all', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const token = tokenOf(loan.applicationUrl);
    const send = (origin: string) =>
      fetch(`${partner.origin}/checkout/api/otp/send`, {
        method: 'POST',
        headers: { origin, authorization: `CheckoutSession ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const refused = await send('https://evil.example');
    expect(refused.status).toBe(403);
    // Readable, so the widget can tell the page's developer which setting to change.
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const body = (await refused.json()) as { error: string; message: string };
    expect(body.error).toBe('origin_not_allowed');
    expect(body.message).toContain('allowedOrigins option of createCheckoutRouter');
    const opaque = await send('null');
    expect(opaque.status).toBe(403);
    expect(opaque.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await opaque.json()) as { error: string }).error).toBe('origin_not_allowed');
    // The preflight carries no credentials and runs nothing: answered, the real request decides.
    const preflight = await fetch(`${partner.origin}/checkout/api/state`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    // No code was sent to the borrower.
    const sms = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(sms.status).toBe(200);
    expect(sms.body.data.messages).toEqual([]);
  });

  it('when the Authorization header is not a session token, then 401 checkout_session_missing', async () => {
    for (const authorization of ['Bearer abc', 'CheckoutSession cs_test_short', `ApiKey ${tenant.test.publicKey}:${tenant.test.secretKey}`]) {
      const res = await fetch(`${partner.origin}/checkout/api/state`, { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('checkout_session_missing');
    }
  });

  it('when the widget reads where to deliver events, then it gets the router\'s origins and the organisation\'s', async () => {
    const lender = await lendingTenant(app);
    await patch(lender.test, { allowedOrigins: ['https://app.lender.example'], returnUrl: 'lenderapp://done' });
    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const res = await fetch(`${partner.origin}/checkout/api/settings`, { headers: { origin: SHOP, authorization: `CheckoutSession ${tokenOf(loan.applicationUrl)}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ allowedOrigins: [SHOP, 'https://app.lender.example'], returnUrl: 'lenderapp://done' });
  });

  it('serves widget.js to pages of any origin (CORS and CORP), and the rail\'s return without a cookie shows the "back from your bank" page', async () => {
    const script = await fetch(`${partner.origin}/checkout/widget.js`);
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const page = await fetch(`${partner.origin}/checkout/?return=mandate`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('state="returned"');
  });

  it('when the router is given something that is not an exact origin, then it refuses to start', () => {
    expect(() => createCheckoutRouter({ apiBaseUrl: app.url, allowedOrigins: ['https://shop.example/'] })).toThrow(/not an exact origin/);
    expect(() => createCheckoutRouter({ apiBaseUrl: app.url, allowedOrigins: ['*'] })).toThrow(/not an exact origin/);
  });
});
