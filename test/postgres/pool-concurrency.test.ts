import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, lendingTenant, offeredLoan } from '../support/lifecycle';

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

  it('concurrent disbursements of one loan: one disburses; the others are refused (409 invalid_loan_state, checked with the commit) before they reach the insurer', async () => {
    // Paid to the tenant's wallet: once two loans have been disbursed to it, the process knows the wallet's account, so
    // no statement of the disbursement waits for an answer before the insurer would be asked — only the checkpoint.
    const tenant = await lendingTenant(app, { product: { settlementDestination: 'tenant_wallet' } });
    const api = client(app, tenant.test);
    for (let i = 0; i < 2; i++) {
      const earlier = (await acceptedLoan(app, tenant, { amount: '1000' })).loan;
      expect((await api.post(`/v1/loans/${earlier.id}/disburse`)).status).toBe(200);
    }
    const { loan } = await acceptedLoan(app, tenant, { amount: '1000' });
    const insurer = app.platform.insurer.for('test');
    const issuePolicy = insurer.issuePolicy;
    let asked = 0;
    insurer.issuePolicy = (...args) => {
      asked += 1;
      return issuePolicy.apply(insurer, args);
    };
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => api.post(`/v1/loans/${loan.id}/disburse`)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused.map((r) => [r.status, r.body.error])).toEqual(refused.map(() => [409, 'invalid_loan_state']));
      // A loser read the loan before the winner committed, moved it behind, and learnt at the checkpoint before the insurer that it lost.
      expect(asked).toBe(1);
    } finally {
      insurer.issuePolicy = issuePolicy;
    }
    const disbursements = await app.platform.db.selectFrom('ledgerTransactions').select('id').where('reference', '=', `DSB-${loan.id}`).execute();
    expect(disbursements).toHaveLength(1);
    const policies = await app.platform.db.selectFrom('loanInsurancePolicies').select('id').where('loanId', '=', loan.id).execute();
    expect(policies).toHaveLength(1);
  });

  it('concurrent acceptances of one offer record one consent and one event; each answer is the accepted loan or 409 invalid_loan_state', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const { loan } = await offeredLoan(app, tenant);
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) })));
    expect(results.some((r) => r.status === 200)).toBe(true);
    for (const r of results) {
      if (r.status === 200) expect(r.body.data.status).toBe('terms_accepted');
      else expect([r.status, r.body.error]).toEqual([409, 'invalid_loan_state']);
    }
    const consents = await app.platform.db.selectFrom('loanConsents').select('id').where('loanId', '=', loan.id).where('kind', '=', 'accept').execute();
    expect(consents).toHaveLength(1);
    const accepted = await app.platform.db
      .selectFrom('events')
      .select('id')
      .where('organisationId', '=', tenant.organisationId)
      .where('name', '=', 'loan.offer.accepted')
      .execute();
    expect(accepted).toHaveLength(1);
  });

  it('concurrent pushes of one assessment record it once: one 202, the others 200 with the same record, one borrower', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const { pushBody } = await import('../support/harness');
    const body = pushBody();
    // Each with its own BVN never seen before: a losing push's borrower must not stay behind.
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.post('/v1/preapprovals', { ...body, decision: { ...body.decision, metadata: { ...body.decision.metadata, bvn: `3330000000${i}` } } }),
      ),
    );
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(7);
    expect(new Set(results.map((r) => r.body.data.preapprovalId)).size).toBe(1);
    const borrowers = await app.platform.db.selectFrom('borrowers').select('id').where('organisationId', '=', tenant.organisationId).execute();
    expect(borrowers.map((b) => b.id)).toEqual([results[0]!.body.data.borrowerId]);
  });

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
