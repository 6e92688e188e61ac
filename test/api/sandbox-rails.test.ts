import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import type { RailName } from '../../server/integrations/rails/payment-rail';
import { PaymentRailError } from '../../server/integrations/rails/payment-rail-error';
import { SandboxRailAdapter } from '../../server/integrations/rails/sandbox-rail-adapter';
import { client, startSecondInstance, startTestApp, type TestApp } from '../support/harness';

const CONFIRMATION_LAG_MS = 3_000;
const CHARGE_LAG_MS = 1_000;
const CALLBACK = 'https://shop.example/mandates/return?loan=ln_1';

let app: TestApp;
let clock: FakeClock;
let railA: SandboxRailAdapter;
let railB: SandboxRailAdapter;

beforeAll(async () => {
  clock = new FakeClock('2026-03-01T09:00:00.000Z');
  app = await startTestApp({ clock, env: { RAIL_CONFIRMATION_LAG_MS: String(CONFIRMATION_LAG_MS), RAIL_CHARGE_LAG_MS: String(CHARGE_LAG_MS) } });
  railA = new SandboxRailAdapter('rail_a', app.platform.baseUrl);
  railB = new SandboxRailAdapter('rail_b', app.platform.baseUrl);
});
afterAll(() => app.stop());

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(6).toString('hex')}`;

function authorisationRequest(overrides: Partial<Parameters<SandboxRailAdapter['initialiseAuthorisation']>[0]> = {}) {
  return { reference: unique('MDT'), email: 'ada@example.com', accountNumber: '0123456789', bankCode: '058', amountKobo: 12_345_678, callbackUrl: CALLBACK, ...overrides };
}

/** Answers the authorisation page like a browser form submit; redirects are not followed. */
function decide(authorizationUrl: string, decision: string) {
  return fetch(authorizationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }).toString(),
    redirect: 'manual',
  });
}

/** An `active` authorisation's code on the given rail. */
async function activeCode(rail: SandboxRailAdapter = railA): Promise<string> {
  const { authorizationUrl, providerReference } = await rail.initialiseAuthorisation(authorisationRequest());
  expect((await decide(authorizationUrl, 'approve')).status).toBe(303);
  clock.advance(CONFIRMATION_LAG_MS);
  const { status, authorizationCode } = await rail.readAuthorisation(providerReference);
  expect(status).toBe('active');
  return authorizationCode!;
}

async function rejection(promise: Promise<unknown>): Promise<PaymentRailError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentRailError);
  return error as PaymentRailError;
}

describe('authorisation: page → approve → confirmation lag → active', () => {
  it('when the borrower approves, then the callback gets reference and status, and the code appears only after the lag', async () => {
    const { authorizationUrl, providerReference } = await railA.initialiseAuthorisation(authorisationRequest({ amountKobo: 12_345_678 }));
    expect(authorizationUrl).toBe(`${app.platform.baseUrl}/sandbox/rails/rail_a/authorise/${providerReference}`);
    expect(await railA.readAuthorisation(providerReference)).toEqual({ status: 'pending', authorizationCode: null });

    const page = await fetch(authorizationUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
    expect(html).toMatch(/<button[^>]*value="refuse"[^>]*>Refuse<\/button>/);
    expect(html).toContain('₦123,456.78');
    expect(html).toContain('******6789');
    expect(html).not.toContain('0123456789');
    expect(html).toContain('ada@example.com');
    expect(html).toContain('name="viewport"');
    expect(html).not.toMatch(/<script/i);
    const csp = page.headers.get('content-security-policy')!;
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("form-action 'self' https://shop.example");
    expect(csp).toContain("default-src 'none'");

    const approved = await decide(authorizationUrl, 'approve');
    expect(approved.status).toBe(303);
    const location = new URL(approved.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/mandates/return');
    expect(Object.fromEntries(location.searchParams)).toEqual({ loan: 'ln_1', reference: providerReference, status: 'approved' });

    expect(await railA.readAuthorisation(providerReference)).toEqual({ status: 'approved', authorizationCode: null });
    clock.advance(CONFIRMATION_LAG_MS - 1);
    expect((await railA.readAuthorisation(providerReference)).status).toBe('approved');
    clock.advance(1);
    const active = await railA.readAuthorisation(providerReference);
    expect(active).toEqual({ status: 'active', authorizationCode: expect.stringMatching(/^AUTH_[a-z0-9]{10}$/) });
    expect(await railA.readAuthorisation(providerReference)).toEqual(active);

    const after = await (await fetch(authorizationUrl)).text();
    expect(after).not.toContain(active.authorizationCode);
    expect(after).not.toContain('value="approve"');
    // Reopened once decided: the way back to the partner's page, with the same opaque outcome the redirect carried.
    const back = after.match(/<a class="back" href="([^"]+)">Back to the checkout<\/a>/)?.[1]?.replaceAll('&amp;', '&');
    expect(back).toBeDefined();
    expect(Object.fromEntries(new URL(back!).searchParams)).toEqual({ loan: 'ln_1', reference: providerReference, status: 'approved' });
  });

  it('when the borrower refuses, then the redirect says refused and the authorisation stays refused', async () => {
    const { authorizationUrl, providerReference } = await railA.initialiseAuthorisation(authorisationRequest());
    const refused = await decide(authorizationUrl, 'refuse');
    expect(refused.status).toBe(303);
    const location = new URL(refused.headers.get('location')!);
    expect(location.searchParams.get('status')).toBe('refused');
    expect(location.searchParams.get('reference')).toBe(providerReference);
    // Exactly the partner's own parameter and the outcome: nothing of the borrower (the reference is random hex, which may spell "ada").
    expect(Object.fromEntries(location.searchParams)).toEqual({ loan: 'ln_1', reference: providerReference, status: 'refused' });
    clock.advance(CONFIRMATION_LAG_MS * 2);
    expect(await railA.readAuthorisation(providerReference)).toEqual({ status: 'refused', authorizationCode: null });
  });

  it('when there is no callback URL, then the borrower sees a "you can close this page" confirmation', async () => {
    const { authorizationUrl } = await railA.initialiseAuthorisation(authorisationRequest({ callbackUrl: null, accountNumber: null }));
    const page = await fetch(authorizationUrl);
    expect(await page.text()).toContain('Chosen at your bank');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self';");
    const res = await decide(authorizationUrl, 'approve');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('You can close this page');
  });

  it('when the same answer is sent twice, then it redirects again; when the other answer follows, then 409', async () => {
    const { authorizationUrl } = await railA.initialiseAuthorisation(authorisationRequest());
    expect((await decide(authorizationUrl, 'approve')).status).toBe(303);
    const again = await decide(authorizationUrl, 'approve');
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get('location')!).searchParams.get('status')).toBe('approved');
    const other = await decide(authorizationUrl, 'refuse');
    expect(other.status).toBe(409);
    expect(other.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await other.text()).toContain('already approved');
  });

  it('when the decision is missing or unknown, or the link is unknown, then a 4xx page', async () => {
    const { authorizationUrl } = await railA.initialiseAuthorisation(authorisationRequest());
    expect((await decide(authorizationUrl, 'maybe')).status).toBe(400);
    const empty = await fetch(authorizationUrl, { method: 'POST', redirect: 'manual' });
    expect(empty.status).toBe(400);
    const unknown = await fetch(`${app.url}/sandbox/rails/rail_a/authorise/mdt_nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await railA.readAuthorisation(new URL(authorizationUrl).pathname.split('/').pop()!)).status).toBe('pending');
  });

  it('when a reference is sent again, then the same authorisation; with other details, then 409 reference_conflict', async () => {
    const request = authorisationRequest();
    const first = await railA.initialiseAuthorisation(request);
    expect(await railA.initialiseAuthorisation(request)).toEqual(first);
    const conflict = await rejection(railA.initialiseAuthorisation({ ...request, amountKobo: request.amountKobo + 1 }));
    expect(conflict).toMatchObject({ code: 'reference_conflict', httpStatus: 409, retryable: false, rail: 'rail_a' });
    // Rails are separate providers: the same reference on rail_b is another authorisation.
    expect((await railB.initialiseAuthorisation(request)).providerReference).not.toBe(first.providerReference);
  });

  it('when an authorisation is cancelled, then it reads cancelled and its code can no longer be charged', async () => {
    const { authorizationUrl, providerReference } = await railA.initialiseAuthorisation(authorisationRequest());
    await decide(authorizationUrl, 'approve');
    clock.advance(CONFIRMATION_LAG_MS);
    const { authorizationCode } = await railA.readAuthorisation(providerReference);
    await railA.cancel(providerReference);
    await railA.cancel(providerReference);
    expect(await railA.readAuthorisation(providerReference)).toEqual({ status: 'cancelled', authorizationCode: null });
    const refused = await rejection(railA.charge({ authorizationCode: authorizationCode!, amountKobo: 10_000, reference: unique('CHG') }));
    expect(refused).toMatchObject({ code: 'authorisation_not_active', httpStatus: 409 });
    expect((await decide(authorizationUrl, 'approve')).status).toBe(409);
  });

  it('when the state is read by another process on the same database, then it is the same (state lives in the database)', async () => {
    const { providerReference } = await railA.initialiseAuthorisation(authorisationRequest());
    const second = await startSecondInstance(app, {});
    try {
      expect(await new SandboxRailAdapter('rail_a', second.url).readAuthorisation(providerReference)).toEqual({ status: 'pending', authorizationCode: null });
    } finally {
      await second.stop();
    }
  });
});

describe('charges: processing, then the magic amounts decide', () => {
  async function chargeAfterLag(amountKobo: number, rail: SandboxRailAdapter = railA) {
    const { chargeReference, status } = await rail.charge({ authorizationCode: await activeCode(rail), amountKobo, reference: unique('CHG') });
    expect(status).toBe('processing');
    expect(await rail.readCharge(chargeReference)).toEqual({ status: 'processing', failureReason: null });
    clock.advance(CHARGE_LAG_MS);
    return rail.readCharge(chargeReference);
  }

  it('when the lag has passed, then an ordinary amount succeeded', async () => {
    expect(await chargeAfterLag(500_000)).toEqual({ status: 'succeeded', failureReason: null });
    expect(await chargeAfterLag(500_050, railB)).toEqual({ status: 'succeeded', failureReason: null });
  });

  it('when the amount ends in 51 kobo, then failed insufficient_funds', async () => {
    expect(await chargeAfterLag(500_051)).toEqual({ status: 'failed', failureReason: 'insufficient_funds' });
  });

  it('when the amount ends in 52 kobo, then failed do_not_honour', async () => {
    expect(await chargeAfterLag(52, railB)).toEqual({ status: 'failed', failureReason: 'do_not_honour' });
  });

  it('when the result is read again later, then it does not change', async () => {
    const code = await activeCode();
    const { chargeReference } = await railA.charge({ authorizationCode: code, amountKobo: 1_051, reference: unique('CHG') });
    clock.advance(CHARGE_LAG_MS);
    const first = await railA.readCharge(chargeReference);
    clock.advance(60_000);
    expect(await railA.readCharge(chargeReference)).toEqual(first);
    const raw = await client(app).get(`/sandbox/rails/rail_a/charges/${chargeReference}`);
    expect(raw.body).toMatchObject({ chargeReference, status: 'failed', failureReason: 'insufficient_funds', amountKobo: 1_051, completedAt: expect.any(String) });
  });

  it('when the same reference is charged twice, then the same chargeReference; with another amount, then 409', async () => {
    const request = { authorizationCode: await activeCode(), amountKobo: 250_000, reference: unique('CHG') };
    const first = await railA.charge(request);
    expect(await railA.charge(request)).toEqual(first);
    const [a, b] = await Promise.all([railA.charge({ ...request, reference: 'RACE-' + request.reference }), railA.charge({ ...request, reference: 'RACE-' + request.reference })]);
    expect(a.chargeReference).toBe(b.chargeReference);
    expect(await rejection(railA.charge({ ...request, amountKobo: 250_001 }))).toMatchObject({ code: 'reference_conflict', httpStatus: 409 });
  });

  it('when the code is unknown, then 422 authorization_code_invalid; before confirmation, then 409', async () => {
    expect(await rejection(railA.charge({ authorizationCode: 'AUTH_doesnotexist', amountKobo: 10_000, reference: unique('CHG') }))).toMatchObject({
      code: 'authorization_code_invalid',
      httpStatus: 422,
      retryable: false,
    });
    // A rail_a code means nothing to rail_b.
    expect(await rejection(railB.charge({ authorizationCode: await activeCode(railA), amountKobo: 10_000, reference: unique('CHG') }))).toMatchObject({
      code: 'authorization_code_invalid',
    });
  });

  it('when an approved authorisation is charged before the lag, then 409 authorisation_not_active', async () => {
    const { authorizationUrl, providerReference } = await railA.initialiseAuthorisation(authorisationRequest());
    await decide(authorizationUrl, 'approve');
    const code = (await app.platform.db.selectFrom('sandboxRailAuthorisations').select('authorizationCode').where('providerReference', '=', providerReference).executeTakeFirstOrThrow()).authorizationCode!;
    const refused = await client(app).post('/sandbox/rails/rail_a/charges', { authorizationCode: code, amountKobo: 10_000, reference: unique('CHG') });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'authorisation_not_active', message: expect.stringContaining('approved') });
  });
});

describe('provider API: bad input and unknown things answer 4xx JSON', () => {
  const api = () => client(app);
  const valid = () => ({ reference: unique('MDT'), email: 'ada@example.com', amountKobo: 10_000 });

  function expectClientError(res: { status: number; body: any }, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error, message: expect.any(String) });
  }

  it('when the rail is unknown, then 404 on every route', async () => {
    expectClientError(await api().post('/sandbox/rails/rail_c/authorisations', valid()), 404, 'not_found');
    expectClientError(await api().get('/sandbox/rails/rail_c/authorisations/mdt_x'), 404, 'not_found');
    expectClientError(await api().get('/sandbox/rails/rail_c/charges/chg_x'), 404, 'not_found');
    expectClientError(await api().post('/sandbox/rails/rail_c/charges', {}), 404, 'not_found');
    expectClientError(await api().get('/sandbox/rails/rail_a/nothing-here'), 404, 'not_found');
    const page = await fetch(`${app.url}/sandbox/rails/rail_c/authorise/mdt_x`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('when a reference is unknown, then 404 (and rails do not see each other\'s records)', async () => {
    const { providerReference } = await railA.initialiseAuthorisation(authorisationRequest());
    expectClientError(await api().get(`/sandbox/rails/rail_b/authorisations/${providerReference}`), 404, 'not_found');
    expectClientError(await api().post(`/sandbox/rails/rail_b/authorisations/${providerReference}/cancel`), 404, 'not_found');
    expectClientError(await api().get('/sandbox/rails/rail_a/charges/chg_unknown'), 404, 'not_found');
    expectClientError(await api().get(`/sandbox/rails/rail_a/authorisations/${'x'.repeat(200)}`), 404, 'not_found');
    expect(await rejection(railB.readAuthorisation(providerReference))).toMatchObject({ code: 'not_found', httpStatus: 404 });
  });

  const badAuthorisations: Array<[string, unknown]> = [
    ['no body', undefined],
    ['an array', [valid()]],
    ['no reference', { ...valid(), reference: undefined }],
    ['an empty reference', { ...valid(), reference: '' }],
    ['a reference with spaces', { ...valid(), reference: 'a b' }],
    ['a bad email', { ...valid(), email: 'not-an-email' }],
    ['a fractional amount', { ...valid(), amountKobo: 100.5 }],
    ['a zero amount', { ...valid(), amountKobo: 0 }],
    ['a negative amount', { ...valid(), amountKobo: -100 }],
    ['an unsafe amount', { ...valid(), amountKobo: 2 ** 60 }],
    ['an amount as a string', { ...valid(), amountKobo: '100' }],
    ['a short account number', { ...valid(), accountNumber: '12345' }],
    ['a javascript: callback', { ...valid(), callbackUrl: 'javascript:alert(1)' }],
    ['a relative callback', { ...valid(), callbackUrl: '/return' }],
  ];
  for (const [name, body] of badAuthorisations) {
    it(`when an authorisation has ${name}, then 400 invalid_request`, async () => {
      expectClientError(await api().post('/sandbox/rails/rail_a/authorisations', body), 400, 'invalid_request');
    });
  }

  const badCharges: Array<[string, unknown]> = [
    ['no body', undefined],
    ['no code', { amountKobo: 100, reference: 'R1' }],
    ['no reference', { authorizationCode: 'AUTH_x', amountKobo: 100 }],
    ['a fractional amount', { authorizationCode: 'AUTH_x', amountKobo: 1.5, reference: 'R1' }],
    ['a negative amount', { authorizationCode: 'AUTH_x', amountKobo: -1, reference: 'R1' }],
  ];
  for (const [name, body] of badCharges) {
    it(`when a charge has ${name}, then 400 invalid_request`, async () => {
      expectClientError(await api().post('/sandbox/rails/rail_b/charges', body), 400, 'invalid_request');
    });
  }

  it('when the body is not JSON, then 400 invalid_json; another media type, then 415; too large, then 413', async () => {
    const rails: RailName[] = ['rail_a', 'rail_b'];
    for (const rail of rails) {
      for (const path of [`/sandbox/rails/${rail}/authorisations`, `/sandbox/rails/${rail}/charges`]) {
        expectClientError(await api().call('POST', path, { raw: '{"reference": ', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
        expectClientError(await api().call('POST', path, { raw: 'null', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
        expectClientError(await api().call('POST', path, { raw: 'reference=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
        expectClientError(await api().call('POST', path, { raw: JSON.stringify({ pad: 'x'.repeat(20_000) }), headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
      }
    }
  });

  it('when the adapter cannot reach the provider, then a retryable rail_unreachable error', async () => {
    const nowhere = new SandboxRailAdapter('rail_a', 'http://127.0.0.1:9');
    expect(await rejection(nowhere.readCharge('chg_x'))).toMatchObject({ code: 'rail_unreachable', retryable: true, httpStatus: null });
    // A refused connection sent nothing: a charge that never left is not of unknown outcome.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = new SandboxRailAdapter('rail_a', `http://127.0.0.1:${port}`);
    const charge = { authorizationCode: 'AUTH_x', amountKobo: 100, reference: 'REP-x', email: 'a@example.com' };
    expect(await rejection(refused.charge(charge))).toMatchObject({ code: 'rail_unreachable', retryable: true, outcomeUnknown: false });
  });

  it('when the provider drops the connection after the charge was sent, then its outcome is unknown (it may have been taken), not refused', async () => {
    const received: string[] = [];
    // The provider's process dies after reading the request: once before answering, once halfway through the answer.
    const provider = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.url!);
        if (received.length === 1) return req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
        res.write('{"chargeReference":');
        setTimeout(() => req.socket.destroy(), 20);
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    try {
      const rail = new SandboxRailAdapter('rail_a', `http://127.0.0.1:${(provider.address() as AddressInfo).port}`);
      const charge = { authorizationCode: 'AUTH_x', amountKobo: 100, reference: 'REP-x', email: 'a@example.com' };
      expect(await rejection(rail.charge(charge))).toMatchObject({ retryable: true, outcomeUnknown: true });
      expect(await rejection(rail.charge(charge))).toMatchObject({ retryable: true, outcomeUnknown: true });
      expect(received).toHaveLength(2);
    } finally {
      provider.closeAllConnections();
      await new Promise((resolve) => provider.close(resolve));
    }
  });
});
