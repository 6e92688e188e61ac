import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { borrowerClient, lentLoan, mintBorrowerSession } from '../support/borrower-loans';

/**
 * The checkout server's loan page (`/checkout/my-loan`): the page's headers, sign-in with the borrower sessions kept in
 * an HttpOnly cookie (never in an answer the page reads), `/my-loan/api/*` forwarded to `/v1/borrower/*` with the
 * session the handle names, the partner-minted link, sign-out. Against the real platform over HTTP, on both databases.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let other: LendingTenant;
beforeAll(async () => {
  // The sandbox rail decides a charge at once: a payment is taken within the request.
  app = await startTestApp({ clock, env: { RAIL_CHARGE_LAG_MS: '0' } });
  tenant = await lendingTenant(app);
  other = await lendingTenant(app);
});
afterAll(() => app.stop());

const TOKEN_ANYWHERE = /bs_(test|live)_[0-9A-Za-z]{40}/;
const BASE = '/checkout/my-loan';

/** A browser on the app's origin: keeps the loan page's cookie as the server sets it. */
function browser() {
  let cookie = '';
  const setCookies: string[] = [];
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      setCookies.push(setCookie);
      const pair = setCookie.split(';')[0]!;
      cookie = pair.endsWith('=') ? '' : pair;
    }
    const text = await res.text();
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
    setCookies,
  };
}

async function signIn(phone: string) {
  const b = browser();
  const sent = await b.post(`${BASE}/api/sign-in/send`, { phone, mode: 'test' });
  expect(sent.status).toBe(200);
  // The text goes out after the answer (the answer never tells whether the phone has loans).
  await expect.poll(() => latestOtp(app, phone).catch(() => ''), { timeout: 10_000 }).toMatch(/^\d{6}$/);
  const verified = await b.post(`${BASE}/api/sign-in/verify`, { phone, mode: 'test', code: await latestOtp(app, phone) });
  expect(verified.status).toBe(200);
  return { b, verified };
}

const key = () => ({ 'idempotency-key': `pay-${Math.random().toString(36).slice(2)}` });

describe('the loan page at /checkout/my-loan', () => {
  it('is served with the hosted checkout\'s headers and policy, no-store, and the mode a link asks for', async () => {
    const b = browser();
    const page = await b.get(`${BASE}?mode=test`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.text).toMatch(/<lc-my-loan api="\/checkout\/my-loan\/api" locales="\/checkout\/api" home="\/checkout\/my-loan\/" mode="test" state="signed-out">/);
    expect((await b.get(BASE)).text).toContain('mode="live"');
  });

  it('addresses a browser can land on are the branded page, never JSON: a cut-short session link is 404 "unknown", an unknown path 404 "not-found"', async () => {
    const b = browser();
    const bad = await b.get(`${BASE}/s/bs_test_tooShort`);
    expect(bad.status).toBe(404);
    expect(bad.headers.get('content-type')).toMatch(/text\/html/);
    expect(bad.text).toContain('state="unknown"');
    expect(b.cookie()).toBe('');
    const missing = await b.get(`${BASE}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('state="not-found"');
  });

  it('sign-in: the verified code puts the session in an HttpOnly, SameSite=Lax cookie on /checkout/my-loan; the page gets a handle, never the token', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const { b, verified } = await signIn(phone);
    expect(verified.text).not.toMatch(TOKEN_ANYWHERE);
    expect(verified.body.data.sessions).toHaveLength(1);
    expect(verified.body.data.sessions[0]).toMatchObject({ handle: expect.stringMatching(/^[0-9a-f]{16}$/), lender: { name: expect.any(String) } });
    const setCookie = b.setCookies.at(-1)!;
    expect(setCookie).toMatch(/^lc_my_loan=bs_test_[0-9A-Za-z]{40};/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\/checkout\/my-loan(;|$)/);
    expect(setCookie).not.toMatch(/; Secure/i);

    // The page now opens signed in, and its first read lists the lender's loans.
    expect((await b.get(`${BASE}/`)).text).toContain('state="ready"');
    const sessions = await b.get(`${BASE}/api/sessions`);
    expect(sessions.status).toBe(200);
    expect(sessions.text).not.toMatch(TOKEN_ANYWHERE);
    expect(sessions.body.data.sessions).toEqual([
      expect.objectContaining({ handle: verified.body.data.sessions[0].handle, mode: 'test', lender: expect.objectContaining({ name: expect.any(String) }), loans: [expect.objectContaining({ id: loan.id })] }),
    ]);
  });

  it('/my-loan/api/* forwards GET and POST to /v1/borrower/* with the cookie\'s session: the loan, and a payment once per Idempotency-Key', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const { b } = await signIn(phone);
    const read = await b.get(`${BASE}/api/loans/${loan.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: loan.id, outstandingKobo: loan.outstandingKobo, nextDebit: expect.objectContaining({ amountKobo: expect.any(Number) }) });

    // The platform's own answers come back as they are: no key is a 400, the amount's range a 422 with its data.
    expect((await b.post(`${BASE}/api/loans/${loan.id}/payments`, { amountKobo: 500_000 })).body.error).toBe('invalid_request');
    const tooSmall = await b.post(`${BASE}/api/loans/${loan.id}/payments`, { amountKobo: 100 }, key());
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body).toMatchObject({ error: 'payment_amount_out_of_range', data: { minKobo: 10_000 } });

    const attempt = key();
    const paid = await b.post(`${BASE}/api/loans/${loan.id}/payments`, { amountKobo: 500_000 }, attempt);
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ status: 'completed', amountKobo: 500_000, outstandingKobo: loan.outstandingKobo - 500_000 });
    // The same attempt again (a retry after a lost answer): the first answer, nothing charged twice.
    const again = await b.post(`${BASE}/api/loans/${loan.id}/payments`, { amountKobo: 500_000 }, attempt);
    expect(again.body.data.repaymentId).toBe(paid.body.data.repaymentId);
    expect((await b.get(`${BASE}/api/loans/${loan.id}`)).body.data.outstandingKobo).toBe(loan.outstandingKobo - 500_000);

    // A query string goes on as it is; a path that is not plain segments is not forwarded.
    expect((await b.get(`${BASE}/api/loans?limit=5`)).status).toBe(200);
    expect((await b.get(`${BASE}/api/loans/%2e%2e/%2e%2e/loans`)).status).toBe(404);
  });

  it('without a session, from another origin, or naming no session of several: refused before the platform, with the documented codes', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const { loan: elsewhere } = await lentLoan(app, other, phone);
    const anonymous = browser();
    const none = await anonymous.get(`${BASE}/api/loans/${loan.id}`);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: 'borrower_session_missing', docUrl: expect.stringContaining('/docs/errors#borrower_session_missing') });
    expect((await anonymous.get(`${BASE}/api/sessions`)).body.error).toBe('borrower_session_missing');

    // Two lenders: two sessions in one cookie, kept apart; a call names its lender's session by handle.
    const { b, verified } = await signIn(phone);
    const handles = verified.body.data.sessions.map((s: { handle: string }) => s.handle);
    expect(handles).toHaveLength(2);
    const listed = (await b.get(`${BASE}/api/sessions`)).body.data.sessions as Array<{ handle: string; loans: Array<{ id: string }> }>;
    const handleOf = (loanId: string) => listed.find((s) => s.loans.some((l) => l.id === loanId))!.handle;
    expect((await b.get(`${BASE}/api/loans/${loan.id}`)).body.error).toBe('invalid_request');
    expect((await b.get(`${BASE}/api/loans/${loan.id}`, { 'x-borrower-session': handleOf(loan.id) })).status).toBe(200);
    expect((await b.get(`${BASE}/api/loans/${elsewhere.id}`, { 'x-borrower-session': handleOf(loan.id) })).status).toBe(404);
    expect((await b.get(`${BASE}/api/loans/${elsewhere.id}`, { 'x-borrower-session': handleOf(elsewhere.id) })).status).toBe(200);
    expect((await b.get(`${BASE}/api/loans/${loan.id}`, { 'x-borrower-session': 'ffffffffffffffff' })).body.error).toBe('borrower_session_missing');

    const foreign = await b.get(`${BASE}/api/sessions`, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('origin_not_allowed');
    expect((await b.post(`${BASE}/api/sign-out`, undefined, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('a partner-minted session: /my-loan/s/<token> moves it into the cookie and out of the address bar', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const minted = await mintBorrowerSession(app, tenant.test, loan.id);
    const b = browser();
    const landed = await b.get(`${BASE}/s/${minted.token}`);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe(`${BASE}/`);
    expect(landed.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(b.cookie()).toBe(`lc_my_loan=${minted.token}`);
    const page = await b.get(`${BASE}/`);
    expect(page.text).toContain('state="ready"');
    expect(page.text).not.toMatch(TOKEN_ANYWHERE);
    expect((await b.get(`${BASE}/api/loans/${loan.id}`)).body.data.id).toBe(loan.id);
  });

  it('sign-out revokes every session of the browser at the platform and clears the cookie; an ended session leaves the cookie', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const { b } = await signIn(phone);
    const token = b.cookie().split('=')[1]!;
    const out = await b.post(`${BASE}/api/sign-out`);
    expect(out.status).toBe(200);
    expect(out.body.data.signedOut).toBe(1);
    expect(b.setCookies.at(-1)).toMatch(/^lc_my_loan=;.*Expires=Thu, 01 Jan 1970/);
    expect(b.cookie()).toBe('');
    expect((await borrowerClient(app, token).get('/v1/borrower/loans')).body.error).toBe('borrower_session_ended');

    // The lender revokes a minted session: the page's next read says "signed out" and forgets it.
    const minted = await mintBorrowerSession(app, tenant.test, loan.id);
    const c = browser();
    await c.get(`${BASE}/s/${minted.token}`);
    expect((await client(app, tenant.test).post(`/v1/borrower-sessions/${minted.id}/revoke`)).status).toBe(200);
    const read = await c.get(`${BASE}/api/sessions`);
    expect(read.status).toBe(401);
    expect(read.body.error).toBe('borrower_session_ended');
    expect(c.cookie()).toBe('');
  });
});
