import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createLogger } from '../../server/platform/log/create-logger';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, uniquePhone } from '../support/checkout';
import { bookAppointment } from '../support/appointments';
import { openMeetingLink } from '../support/meeting';

/**
 * Security finding "tokens, keys and references in the request log": the app's whole log output
 * (every level, through the logger the platform builds) over a full hosted checkout and a meeting
 * join holds no checkout token, meeting key, secret key, signing secret, rail reference or BVN.
 */
const clock = new FakeClock(new Date());
const lines: string[] = [];
let app: TestApp;
let tenant: LendingTenant;

beforeAll(async () => {
  app = await startTestApp({ clock, logger: createLogger('trace', { write: (line: string) => void lines.push(line) }) });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

/** A browser on the app's origin: keeps its cookie, follows nothing. */
function browser() {
  let cookie = '';
  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: json };
  }
  return { get: (path: string) => call('GET', path), post: (path: string, body: unknown = {}) => call('POST', path, body) };
}

describe('the log after a full checkout and a meeting join', () => {
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    const api = client(app, tenant.test);
    const bvn = '22233344455';
    secrets.bvn = bvn;
    secrets.nin = '12345678901';
    secrets.secretKey = tenant.test.secretKey;

    // A managed-tier loan (KYC with a BVN in the checkout), a session minted with an Idempotency-Key.
    const phone = uniquePhone();
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const minted = await api.post(`/v1/loans/${loan.id}/checkout-sessions`, undefined, { 'Idempotency-Key': `mint-${loan.id}` });
    expect(minted.status).toBe(201);
    secrets.token = minted.body.data.token;

    const b = browser();
    expect((await b.get(`/checkout/c/${secrets.token}`)).status).toBe(303);
    expect((await b.get('/checkout/')).status).toBe(200);
    expect((await b.post('/checkout/api/otp/send')).status).toBe(200);
    expect((await b.post('/checkout/api/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    const kyc = await b.post('/checkout/api/kyc', { bvn, nin: secrets.nin });
    expect(kyc.body.data).toMatchObject({ outcome: 'verified' });
    expect((await api.post(`/v1/loans/${loan.id}/approve`, {})).status).toBe(200);

    const state = (await b.get('/checkout/api/state')).body.data;
    expect(state.nextStep).toBe('offer');
    // The offer letter's signed link (signature in the query string).
    const letter = JSON.stringify(state).match(/"(https?:[^"]*\/offer-letters\/[^"]+)"/)?.[1];
    expect(letter).toMatch(/signature=/);
    expect((await fetch(letter!)).status).toBe(200);
    secrets.offerLetterSignature = new URL(letter!).searchParams.get('signature')!;
    expect((await b.post('/checkout/api/offer/accept', { signatureFullName: 'Tunde Bello', documentReference: state.offer.documentReference, agreed: true })).status).toBe(200);
    const account = { bankCode: '044', accountNumber: `123456789${nubanCheckDigit('044', '123456789')}` };
    expect((await b.post('/checkout/api/bank-account/resolve', account)).status).toBe(200);
    expect((await b.post('/checkout/api/bank-account', account)).status).toBe(200);

    // The mandate through the sandbox rail: its page, the borrower's approval, the provider API read.
    const mandate = await b.post('/checkout/api/mandate', { email: 'tunde@example.com' });
    expect(mandate.status, JSON.stringify(mandate.body)).toBe(201);
    const authorizationUrl: string = mandate.body.data.authorizationUrl;
    secrets.railReference = decodeURIComponent(authorizationUrl.slice(authorizationUrl.lastIndexOf('/') + 1));
    expect(secrets.railReference).toMatch(/^mdt_/);
    expect((await fetch(authorizationUrl)).status).toBe(200);
    const back = await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(back.status).toBe(303);
    expect((await b.get(new URL(back.headers.get('location')!).pathname + new URL(back.headers.get('location')!).search)).status).toBe(200);
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await b.post('/checkout/api/mandate/activate')).body.data.status).toBe('active');
    const read = await fetch(`${app.url}/sandbox/rails/rail_a/authorisations/${secrets.railReference}`);
    expect(read.status).toBe(200);
    secrets.authorizationCode = (await read.json()).authorizationCode;

    // A webhook endpoint (its signing secret comes back once) and a partner who puts a BVN in a URL.
    const endpoint = await api.post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/lending', mode: 'test' }, { 'Idempotency-Key': `wh-${loan.id}` });
    expect(endpoint.status).toBe(201);
    secrets.signingSecret = endpoint.body.data.signingSecret;
    expect((await api.get(`/v1/borrowers/${bvn}`)).status).toBeGreaterThanOrEqual(400);

    // A meeting join link.
    const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000 });
    const patient = booked.participants.find((p) => p.participant.role === 'patient')!;
    secrets.meetingKey = patient.participantKey;
    const joined = await openMeetingLink(app, patient.participantMeetingLink);
    expect(joined.status).toBe(303);
    const meeting = await fetch(`${app.url}/meet/api/state`, { headers: { cookie: joined.cookie! } });
    expect(meeting.status).toBe(200);
    // Let the request log's 'finish' handlers run.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('holds the requests, with the token, key and reference segments masked', () => {
    const log = lines.join('');
    expect(log).toContain('"path":"/checkout/c/cs_test_****');
    expect(log).toContain('"path":"/meet/j/mk_****');
    expect(log).toContain('"path":"/sandbox/rails/rail_a/authorise/mdt_****');
    expect(log).toContain('"path":"/sandbox/rails/rail_a/authorisations/mdt_****');
    expect(log).toContain('"path":"/v1/borrowers/***********"');
  });

  it('holds no checkout token, meeting key, secret key, signing secret, rail reference, authorisation code, BVN or NIN', () => {
    const log = lines.join('');
    expect(Object.keys(secrets)).toHaveLength(9);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toEqual(expect.any(String));
      expect(log, name).not.toContain(value);
    }
    expect(log).not.toMatch(/cs_(test|live)_[A-Za-z0-9]{5}/);
    expect(log).not.toMatch(/mk_[A-Za-z0-9]{5}/);
    expect(log).not.toMatch(/sk_(test|live)_[A-Za-z0-9]{5}/);
    expect(log).not.toMatch(/whsec_[A-Za-z0-9_-]{5}/);
    expect(log).not.toMatch(/"[^"]*(?<![A-Za-z0-9])\d{11}(?![A-Za-z0-9])[^"]*"/);
  });
});
