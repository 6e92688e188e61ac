import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant } from '../support/lifecycle';

/** PostgreSQL only: many processes' worth of concurrent disbursements against one pool. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000' } });
});
afterAll(() => app.stop());

describe('capital pool under concurrency', () => {
  it('100 concurrent disbursements against a pool that funds 10 disburse exactly 10 and never overdraw it', async () => {
    // ₦1,000 loans; the pool holds exactly ten of them.
    const tenant = await lendingTenant(app, { poolKobo: 10 * 100_000, product: { minAmountKobo: 100_000 } });
    const api = client(app, tenant.test);
    const loans = [];
    for (let i = 0; i < 100; i++) loans.push((await acceptedLoan(app, tenant, { amount: '1000' })).loan);
    const results = await Promise.all(loans.map((loan) => api.post(`/v1/loans/${loan.id}/disburse`)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(90);
    expect(refused.every((r) => r.body.error === 'insufficient_pool_funds')).toBe(true);
    const pool = (await api.get('/v1/pools/balance')).body.data.pools[0];
    expect(pool.balanceKobo).toBe(0);
    const active = (await api.get('/v1/loans?status=active&limit=100')).body.data;
    expect(active).toHaveLength(10);
    const postings = await app.platform.db
      .selectFrom('ledgerPostings')
      .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.accountId')
      .select(['ledgerPostings.amountKobo'])
      .where('ledgerAccounts.organisationId', '=', tenant.organisationId)
      .where('ledgerAccounts.kind', '=', 'capital_pool')
      .execute();
    expect(postings.reduce((s, p) => s + p.amountKobo, 0)).toBe(0);
  }, 120_000);

  it('concurrent issue-offer calls for one pre-approval create one loan', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const { pushBody } = await import('../support/harness');
    const pushed = await api.post('/v1/preapprovals', pushBody());
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {})));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect((await api.get('/v1/loans')).body.data).toHaveLength(1);
  });
});

describe('repayments under concurrency', () => {
  it('parallel repayments on one loan never over-allocate: applied amounts sum to at most what was owed', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
    const disbursed = (await api.post(`/v1/loans/${loan.id}/disburse`)).body.data;
    const owed = disbursed.outstandingKobo;
    const part = Math.ceil(owed / 6);
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: part })));
    const created = results.filter((r) => r.status === 201);
    const applied = created.reduce((s, r) => s + r.body.data.amountKobo, 0);
    expect(applied).toBe(owed);
    expect(results.every((r) => [201, 409].includes(r.status))).toBe(true);
    const after = (await api.get(`/v1/loans/${loan.id}`)).body.data;
    expect(after).toMatchObject({ status: 'completed', outstandingKobo: 0, amountPaidKobo: owed });
    const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(schedule.reduce((s: number, r: { amountPaidKobo: number }) => s + r.amountPaidKobo, 0)).toBe(owed);
  }, 60_000);
});
