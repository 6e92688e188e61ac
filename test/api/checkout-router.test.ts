import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, tokenOf, uniquePhone } from '../support/checkout';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
/** Every response body and header the browser side saw, to check no secret key ever reached it. */
const seen: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const BROWSER_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) TestBrowser/1.0';

/** A browser against one origin: keeps the cookie it is given, sends a fixed user agent. */
function browser(origin: string) {
  let cookie = '';
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${origin}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    const text = await res.text();
    seen.push(text, JSON.stringify([...res.headers]));
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: json };
  }
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body: unknown = {}, headers?: Record<string, string>) => call('POST', path, body, headers),
    cookie: () => cookie,
  };
}

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;

async function openApplication() {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  const b = browser(app.url);
  const landing = await b.get(new URL(loan.applicationUrl).pathname);
  return { phone, loan, b, landing };
}

describe('the hosted page', () => {
  it('when the applicationUrl is opened, then the token moves into an httpOnly SameSite=Lax cookie scoped to /checkout and the address bar is cleaned', async () => {
    const { loan, landing, b } = await openApplication();
    expect(landing.status).toBe(303);
    expect(landing.headers.get('location')).toBe('/checkout/');
    const setCookie = landing.headers.get('set-cookie')!;
    expect(setCookie).toMatch(new RegExp(`^lc_checkout=${tokenOf(loan.applicationUrl)}; Path=/checkout/; HttpOnly; SameSite=Lax$`));
    expect(landing.headers.get('cache-control')).toBe('no-store');
    expect(landing.headers.get('referrer-policy')).toBe('no-referrer');

    const page = await b.get('/checkout/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<lc-checkout api="/checkout/api" state="ready">');
    // The bundle's content-hashed URL once the widget is built (its manifest is there), else the stable one.
    expect(page.text).toMatch(/<script type="module" src="\/checkout\/(widget|assets\/checkout\.[0-9a-f]{10})\.js"><\/script>/);
    expect(page.text).not.toContain(tokenOf(loan.applicationUrl));
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('when the session has expired, then the page and the state endpoint show the expired state and no data', async () => {
    const { b } = await openApplication();
    clock.advance(31 * 60_000);
    const page = await b.get('/checkout/');
    expect(page.status).toBe(401);
    expect(page.text).toContain('state="expired"');
    expect(page.text).toContain('This link has expired');
    const state = await b.get('/checkout/api/state');
    expect(state.status).toBe(401);
    expect(state.body).toMatchObject({ success: false, error: 'checkout_session_expired' });
    expect(state.body.data).toBeUndefined();
  });

  it('when the session has expired, then the expired page can text a new link through the checkout server (the cookie is the credential), and a well-formed unknown token is "not recognised"', async () => {
    const { b, phone } = await openApplication();
    clock.advance(31 * 60_000);
    const info = await b.get('/checkout/api/session/renewal');
    expect(info.status).toBe(200);
    expect(info.body.data.lender.name).toMatch(/^Tenant /);
    const renewed = await b.post('/checkout/api/session/renew', {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.sentTo).toBe(`•••• ${phone.slice(-4)}`);
    const again = await b.post('/checkout/api/session/renew', {});
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('600');

    const stranger = browser(app.url);
    await stranger.get(`/checkout/c/cs_test_${'Z'.repeat(40)}`);
    const page = await stranger.get('/checkout/');
    expect(page.status).toBe(401);
    expect(page.text).toContain('state="unknown"');
    expect(page.text).not.toContain('expired');
  });

  it('when the token is malformed or the cookie is missing, then no session state and clean errors', async () => {
    const b = browser(app.url);
    const bad = await b.get('/checkout/c/not-a-token');
    expect(bad.status).toBe(404);
    // Not a link we know: "not recognised", never "expired".
    expect(bad.text).toContain('state="unknown"');
    expect(bad.text).toContain('We do not recognise this link');
    expect(bad.headers.get('set-cookie')).toBeNull();
    expect((await b.get('/checkout/')).text).toContain('state="missing"');
    const state = await b.get('/checkout/api/state');
    expect(state.status).toBe(401);
    expect(state.body).toEqual({ status: 401, success: false, error: 'checkout_session_missing', message: expect.any(String), docUrl: `${app.url}/docs/errors#checkout_session_missing` });
    expect((await b.post('/checkout/api/otp/send')).body.error).toBe('checkout_session_missing');
  });

  it('serves the built widget as JavaScript, and a 404 (still JavaScript) where it is not built', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-'));
    const built = path.join(dir, 'checkout.js');
    fs.writeFileSync(built, 'export const built = true;\n');
    const host = express();
    host.use('/with', createCheckoutRouter({ apiBaseUrl: app.url, widgetFile: built }));
    host.use('/without', createCheckoutRouter({ apiBaseUrl: app.url, widgetFile: path.join(dir, 'missing.js') }));
    const server = http.createServer(host);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const served = await fetch(`${origin}/with/widget.js`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/javascript/);
      expect(await served.text()).toBe('export const built = true;\n');
      const missing = await fetch(`${origin}/without/widget.js`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the JSON endpoints', () => {
  it('run a whole delegated-tier checkout with the cookie alone, and the consent holds the IP and user agent the checkout server saw', async () => {
    const { phone, loan, b } = await openApplication();
    const start = await b.get('/checkout/api/state');
    expect(start.status).toBe(200);
    expect(start.body.data).toMatchObject({ status: 'in_progress', nextStep: 'otp', loan: null });

    expect((await b.post('/checkout/api/otp/send')).status).toBe(200);
    const verified = await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone), phone: '+2348000000000' });
    expect(verified.status).toBe(200);
    const state = (await b.get('/checkout/api/state')).body.data;
    expect(state).toMatchObject({ nextStep: 'offer', offer: { documentReference: loan.documentReference } });

    const unsigned = await b.post('/checkout/api/offer/accept', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error).toBe('agreement_required');
    const accepted = await b.post('/checkout/api/offer/accept', {
      signatureFullName: 'Ada Obi',
      documentReference: state.offer.documentReference,
      agreed: true,
      // What a browser claims about itself is not evidence: these are ignored.
      ipAddress: '8.8.8.8',
      userAgent: 'Forged/1.0',
      signedAt: '2000-01-01T00:00:00Z',
    }, { 'x-forwarded-for': '203.0.113.50' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('terms_accepted');
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    // npm start's checkout trusts no proxy by default: the socket address is the borrower's.
    expect(consent).toMatchObject({ userAgent: BROWSER_UA, ipAddress: '127.0.0.1', signedAt: clock.now().toISOString(), documentReference: loan.documentReference });

    const banks = await b.get('/checkout/api/banks');
    expect(banks.body.data).toContainEqual(expect.objectContaining({ code: '044', name: 'Access Bank' }));
    const account = { bankCode: '044', accountNumber: nuban('044', '123456789') };
    const resolved = await b.post('/checkout/api/bank-account/resolve', account);
    expect(resolved.body.data.accountName).toEqual(expect.any(String));
    expect((await b.post('/checkout/api/bank-account', account)).status).toBe(200);

    const mandate = await b.post('/checkout/api/mandate', { callbackUrl: 'https://evil.example/' });
    expect(mandate.status).toBe(201);
    const row = await app.platform.db.selectFrom('loanMandates').selectAll().where('id', '=', mandate.body.data.id).executeTakeFirstOrThrow();
    // The page the rail returns to is bound to this loan (the platform adds its id).
    expect(row.callbackUrl).toBe(`${app.url}/checkout/?return=mandate&loan=${loan.id}`);
    const back = await fetch(mandate.body.data.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(back.headers.get('location')).toMatch(new RegExp(`^${app.url}/checkout/\\?return=mandate&loan=${loan.id}&`));
    expect((await b.get(new URL(back.headers.get('location')!).pathname + new URL(back.headers.get('location')!).search)).text).toContain('state="ready"');
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await b.post('/checkout/api/mandate/activate')).body.data.status).toBe('active');
    expect((await b.get('/checkout/api/state')).body.data).toMatchObject({ status: 'complete', nextStep: null });
    expect((await b.post('/checkout/api/session/refresh')).status).toBe(200);
  });

  it('declines with a reason', async () => {
    const { phone, loan, b } = await openApplication();
    await b.post('/checkout/api/otp/send');
    await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone) });
    const res = await b.post('/checkout/api/offer/decline', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, reason: 'Found a cheaper loan' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('terms_declined');
    expect((await b.get('/checkout/api/state')).body.data.status).toBe('declined');
  });

  it('shows the current offer when the borrower signed a stale one, and never echoes a BVN', async () => {
    const { phone, loan, b } = await openApplication();
    await b.post('/checkout/api/otp/send');
    await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone) });
    const stale = await b.post('/checkout/api/offer/accept', { signatureFullName: 'Ada Obi', documentReference: `OFR-${loan.id}-0`, agreed: true });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'stale_document_reference', data: { currentOffer: { documentReference: loan.documentReference } } });
    const kyc = await b.post('/checkout/api/kyc', { bvn: '22233344455' });
    expect(kyc.status).toBe(400);
    expect(kyc.body.error).toBe('wrong_kyc_tier');
    expect(kyc.text).not.toContain('22233344455');
  });

  it('relay the guarantor step', async () => {
    const lender = await lendingTenant(app, { product: { guarantorsRequired: 1 } });
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const b = browser(app.url);
    await b.get(new URL(loan.applicationUrl).pathname);
    await b.post('/checkout/api/otp/send');
    await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone) });
    const guarantorPhone = uniquePhone();
    const added = await b.post('/checkout/api/guarantors', { fullName: 'Chidi Obi', phone: guarantorPhone, relationship: 'brother' });
    expect(added.status).toBe(201);
    expect((await b.post('/checkout/api/guarantors/resend', { guarantorId: added.body.data.guarantor.id })).body.error).toBe('otp_resend_too_soon');
    const verified = await b.post('/checkout/api/guarantors/verify', { guarantorId: added.body.data.guarantor.id, code: await latestOtp(app, guarantorPhone) });
    expect(verified.body.data.verified).toBe(true);
    expect((await b.get('/checkout/api/state')).body.data.nextStep).toBe('offer');
  });

  it('passes platform errors through with their codes and Retry-After', async () => {
    const { b } = await openApplication();
    await b.post('/checkout/api/otp/send');
    const again = await b.post('/checkout/api/otp/send');
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('otp_resend_too_soon');
    expect(again.headers.get('retry-after')).toBe('30');
    expect((await b.post('/checkout/api/bank-account', { bankCode: '044', accountNumber: nuban('044', '123456789') })).body.error).toBe('checkout_otp_required');
    expect((await b.post('/checkout/api/bank-account', { bankCode: '044', accountNumber: '1' })).body.error).toBe('invalid_request');
  });

  it('refuses non-JSON posts (no cross-site form posts with the cookie) and unknown endpoints', async () => {
    const { b } = await openApplication();
    const form = await b.post('/checkout/api/otp/send', undefined, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect((await b.get('/checkout/api/nothing')).status).toBe(404);
  });
});

describe('a partner mounting the checkout server', () => {
  let server: http.Server;
  let origin: string;
  let router: ReturnType<typeof createCheckoutRouter>;

  beforeAll(async () => {
    const partner = express();
    router = createCheckoutRouter({ apiBaseUrl: app.url, publicKey: tenant.test.publicKey, secretKey: tenant.test.secretKey, trustProxy: 'loopback' });
    partner.use('/shop/checkout', router);
    server = http.createServer(partner);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('mints a session server side, scopes the cookie to its own path, and records the forwarded client IP from a trusted proxy', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const minted = await router.createSession(loan.id);
    const b = browser(origin);
    const landing = await b.get(`/shop/checkout/c/${minted.token}`, { 'x-forwarded-proto': 'https' });
    expect(landing.headers.get('location')).toBe('/shop/checkout/');
    expect(landing.headers.get('set-cookie')).toMatch(/Path=\/shop\/checkout\/; HttpOnly; Secure; SameSite=Lax$/);
    await b.post('/shop/checkout/api/otp/send');
    await b.post('/shop/checkout/api/otp/verify', { code: await latestOtp(app, phone) });
    const accepted = await b.post(
      '/shop/checkout/api/offer/accept',
      { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, agreed: true },
      { 'x-forwarded-for': '198.51.100.7, 127.0.0.1' },
    );
    expect(accepted.status).toBe(200);
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(consent.ipAddress).toBe('198.51.100.7');
  });
});

describe('coming back to the page', () => {
  it('back from the bank for one loan with another loan\'s checkout cookie (a shared phone), the page shows "back from your bank", never the cookie\'s loan', async () => {
    const { phone, loan, b } = await openApplication();
    await b.post('/checkout/api/otp/send');
    expect((await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    const { loan: decided } = await offeredLoan(app, tenant, { phone: uniquePhone() });

    const elsewhere = await b.get(`/checkout/?return=mandate&loan=${decided.id}&reference=MDT-x&status=approved`);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).toContain('state="returned"');
    // No loan named (a mandate set up elsewhere, or a cut address): it cannot be bound, so nothing of the cookie's loan either.
    expect((await b.get('/checkout/?return=mandate')).text).toContain('state="returned"');
    // The cookie's own loan: its checkout resumes there.
    expect((await b.get(`/checkout/?return=mandate&loan=${loan.id}`)).text).toContain('state="ready"');
    // Not a return: the cookie decides, as ever.
    expect((await b.get('/checkout/')).text).toContain('state="ready"');
  });

  it('extends the session, so a borrower who returns from the rail at minute 25 has 30 more minutes', async () => {
    const { b, loan } = await openApplication();
    clock.advance(25 * 60_000);
    expect((await b.get(`/checkout/?return=mandate&loan=${loan.id}`)).status).toBe(200);
    clock.advance(25 * 60_000);
    const state = await b.get('/checkout/api/state');
    expect(state.status).toBe(200);
    expect(state.body.data.session.loanId).toBe(loan.id);
  });
});

describe('secrets', () => {
  it('no response the browser side received contains a secret key', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) expect(text).not.toMatch(/sk_(test|live)_/);
  });

  it('the platform\'s own API still answers to keys (sanity)', async () => {
    expect((await client(app, tenant.test).get('/v1/products')).status).toBe(200);
  });
});
