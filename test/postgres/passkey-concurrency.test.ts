import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondInstance, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant } from '../support/lifecycle';
import { verifiedSession } from '../support/checkout';
import { SoftAuthenticator } from '../support/passkeys';

/** PostgreSQL only: a signing nonce is used once, also when the same signature races on two processes. */
let app: TestApp;
let second: { url: string; stop(): Promise<void> };
const env = { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000' };
beforeAll(async () => {
  app = await startTestApp({ env });
  second = await startSecondInstance(app, env);
});
afterAll(async () => {
  await second.stop();
  await app.stop();
});

const RP = { rpId: 'checkout.lender.example', origin: 'https://checkout.lender.example' };

const post = (origin: string, path: string, token: string, body: unknown = {}) =>
  fetch(`${origin}${path}`, { method: 'POST', headers: { authorization: `CheckoutSession ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as { error?: string; data?: any } }),
  );

describe('passkey nonces across processes', () => {
  it('10 copies of one passkey signature at once, on two processes: one consent, one evidence, one event, the nonce used once', async () => {
    const tenant = await lendingTenant(app);
    const { loan, token } = await verifiedSession(app, tenant);
    const authenticator = new SoftAuthenticator(RP.origin, RP.rpId);
    const issued = await post(app.url, '/v1/checkout/passkeys/registration-challenge', token, { rpId: RP.rpId });
    expect((await post(app.url, '/v1/checkout/passkeys', token, { ...RP, response: authenticator.register({ challenge: issued.body.data.challenge }) })).status).toBe(201);
    const signing = await post(second.url, '/v1/checkout/passkeys/sign-challenge', token, { rpId: RP.rpId });
    expect(signing.status).toBe(201);
    const body = {
      signatureFullName: 'Ada Obi',
      documentReference: loan.documentReference,
      ipAddress: '102.89.34.7',
      userAgent: 'Mozilla/5.0',
      passkey: { nonce: signing.body.data.nonce, ...RP, response: authenticator.sign({ challenge: signing.body.data.challenge }) },
    };

    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i % 2 ? second.url : app.url, '/v1/checkout/accept', token, body)));

    expect(results.some((r) => r.status === 200)).toBe(true);
    for (const r of results) expect(r.status === 200 || (r.status === 409 && ['passkey_challenge_used', 'invalid_loan_state'].includes(r.body.error!))).toBe(true);
    const db = app.platform.db;
    expect(await db.selectFrom('loanConsents').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(1);
    expect(await db.selectFrom('loanConsentPasskeys').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(1);
    expect((await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.offer.accepted')).toHaveLength(1);
    const nonce = await db.selectFrom('passkeyChallenges').select('consumedAt').where('nonce', '=', signing.body.data.nonce).executeTakeFirstOrThrow();
    expect(nonce.consumedAt).not.toBeNull();
  }, 60_000);
});
