import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondInstance, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { latestOtp, mintSession, uniquePhone } from '../support/checkout';

/** PostgreSQL only: the OTP limits hold across two processes on one database. */
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

const post = (origin: string, path: string, token: string, body: unknown = {}) =>
  fetch(`${origin}${path}`, { method: 'POST', headers: { authorization: `CheckoutSession ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as { error?: string } }),
  );

describe('OTP limits across processes', () => {
  it('12 sessions of one phone asking at once, on two processes, get exactly 5 codes out', async () => {
    const tenant = await lendingTenant(app);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const tokens = [];
    for (let i = 0; i < 12; i++) tokens.push((await mintSession(app, tenant.test, loan.id)).token);
    const results = await Promise.all(tokens.map((token, i) => post(i % 2 ? second.url : app.url, '/v1/checkout/otp/send', token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429 && r.body.error === 'otp_send_limit')).toHaveLength(7);
    const rows = await app.platform.db.selectFrom('sandboxSms').select('id').where('phone', '=', phone).execute();
    expect(rows).toHaveLength(5);
  }, 60_000);

  it('12 wrong guesses at once, on two processes, count exactly 5 attempts; the rest are locked out', async () => {
    const tenant = await lendingTenant(app);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const { token } = await mintSession(app, tenant.test, loan.id);
    expect((await post(app.url, '/v1/checkout/otp/send', token)).status).toBe(200);
    const code = await latestOtp(app, phone);
    const wrong = code === '000000' ? '000001' : '000000';
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 ? second.url : app.url, '/v1/checkout/otp/verify', token, { code: wrong })));
    expect(results.filter((r) => r.body.error === 'otp_incorrect')).toHaveLength(5);
    expect(results.filter((r) => r.body.error === 'otp_locked')).toHaveLength(7);
    expect((await post(app.url, '/v1/checkout/otp/verify', token, { code })).body.error).toBe('otp_locked');
  }, 60_000);
});
