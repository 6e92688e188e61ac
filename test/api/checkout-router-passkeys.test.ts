import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { SoftAuthenticator } from '../support/passkeys';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const UA = 'Mozilla/5.0 (Linux; Android 14) PasskeyTest/1.0';

/** A browser with a cookie jar against one origin (the checkout server's JSON endpoints). */
function browser(origin: string) {
  let cookie = '';
  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${origin}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'user-agent': UA, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  }
  return { get: (p: string) => call('GET', p), post: (p: string, body: unknown = {}) => call('POST', p, body) };
}

/** Opens a fresh loan's link on a checkout mounted at `base` and verifies the phone. */
async function verifiedBrowser(origin: string, base: string) {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  const b = browser(origin);
  await b.get(`${base}/c/${loan.applicationUrl.split('/').pop()}`);
  await b.post(`${base}/api/otp/send`);
  expect((await b.post(`${base}/api/otp/verify`, { code: await latestOtp(app, phone) })).status).toBe(200);
  return { b, loan };
}

describe('the checkout server as the passkey relying party', () => {
  it('when the borrower registers a passkey and signs with it through the checkout server, then the consent carries the evidence and the server-observed user agent', async () => {
    // npm start's checkout: the relying party is PUBLIC_BASE_URL's origin (http://localhost:<port> here).
    const rpOrigin = app.platform.baseUrl;
    const authenticator = new SoftAuthenticator(rpOrigin, 'localhost');
    const { b, loan } = await verifiedBrowser(app.url, '/checkout');
    expect((await b.get('/checkout/api/passkeys')).body.data).toEqual({ available: true, registered: 0 });

    const options = await b.post('/checkout/api/passkeys/registration-options');
    expect(options.status).toBe(200);
    expect(options.body.data).toMatchObject({
      rp: { id: 'localhost', name: 'Loan checkout' },
      user: { displayName: 'Ada Obi' },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required' },
    });
    const registered = await b.post('/checkout/api/passkeys', { response: authenticator.register({ challenge: options.body.data.challenge, userHandle: options.body.data.user.id }) });
    expect(registered.status).toBe(201);
    expect((await b.get('/checkout/api/passkeys')).body.data).toEqual({ available: true, registered: 1 });

    const signing = await b.post('/checkout/api/offer/passkey-options');
    expect(signing.status).toBe(200);
    expect(signing.body.data).toMatchObject({ options: { rpId: 'localhost', userVerification: 'required', allowCredentials: [{ id: registered.body.data.credentialId }] }, nonce: expect.any(String), documentReference: loan.documentReference });
    const response = authenticator.sign({ challenge: signing.body.data.options.challenge });

    // The agreement stays required on the passkey path.
    const unticked = await b.post('/checkout/api/offer/accept', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, passkey: { nonce: signing.body.data.nonce, response } });
    expect(unticked.status).toBe(400);
    expect(unticked.body.error).toBe('agreement_required');

    const accepted = await b.post('/checkout/api/offer/accept', {
      signatureFullName: 'Ada Obi',
      documentReference: loan.documentReference,
      agreed: true,
      // Whatever the browser says about the relying party is ignored: the server's own settings are sent.
      passkey: { nonce: signing.body.data.nonce, response, rpId: 'evil.example', origin: 'https://evil.example' },
    });
    expect(accepted.status).toBe(200);
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(consent.userAgent).toBe(UA);
    const evidence = await app.platform.db.selectFrom('loanConsentPasskeys').selectAll().where('consentId', '=', consent.id).executeTakeFirstOrThrow();
    expect(evidence).toMatchObject({ rpId: 'localhost', origin: rpOrigin, nonce: signing.body.data.nonce, signature: response.response.signature });
  });

  it('when the assertion was made on another origin, then the checkout server refuses it (422) before the platform sees it, and the nonce stays unused', async () => {
    const authenticator = new SoftAuthenticator(app.platform.baseUrl, 'localhost');
    const { b, loan } = await verifiedBrowser(app.url, '/checkout');
    const options = await b.post('/checkout/api/passkeys/registration-options');
    await b.post('/checkout/api/passkeys', { response: authenticator.register({ challenge: options.body.data.challenge }) });
    const signing = await b.post('/checkout/api/offer/passkey-options');
    const res = await b.post('/checkout/api/offer/accept', {
      signatureFullName: 'Ada Obi',
      documentReference: loan.documentReference,
      agreed: true,
      passkey: { nonce: signing.body.data.nonce, response: authenticator.sign({ challenge: signing.body.data.options.challenge, origin: 'https://phish.example' }) },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: 'passkey_verification_failed' });
    const nonce = await app.platform.db.selectFrom('passkeyChallenges').select('consumedAt').where('nonce', '=', signing.body.data.nonce).executeTakeFirstOrThrow();
    expect(nonce.consumedAt).toBeNull();
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow()).status).toBe('awaiting_acceptance');
  });

  describe('where passkeys cannot work', () => {
    let server: http.Server;
    let origin: string;
    beforeAll(async () => {
      const partner = express();
      partner.use('/off', createCheckoutRouter({ apiBaseUrl: app.url, passkeys: false }));
      // Served from an IP address: WebAuthn needs a host name, so no relying party.
      partner.use('/ip', createCheckoutRouter({ apiBaseUrl: app.url }));
      server = http.createServer(partner);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it.each(['/off', '/ip'])('when the checkout at %s has no relying party, then it says passkeys are unavailable and the typed name still signs', async (base) => {
      const { b, loan } = await verifiedBrowser(origin, base);
      expect((await b.get(`${base}/api/passkeys`)).body.data).toEqual({ available: false, registered: 0 });
      const options = await b.post(`${base}/api/passkeys/registration-options`);
      expect(options.status).toBe(409);
      expect(options.body.error).toBe('passkeys_unavailable');
      expect((await b.post(`${base}/api/offer/passkey-options`)).body.error).toBe('passkeys_unavailable');
      const signed = await b.post(`${base}/api/offer/accept`, { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, agreed: true });
      expect(signed.status).toBe(200);
      expect(signed.body.data.status).toBe('terms_accepted');
    });
  });
});
