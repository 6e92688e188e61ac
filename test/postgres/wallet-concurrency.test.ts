import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant } from '../support/lifecycle';
import { ledgerIsSound, topUpWallet, walletBalance } from '../support/wallets';

/** PostgreSQL only: concurrent debits of one borrower's wallet never overdraw it. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000' } });
});
afterAll(() => app.stop());

const bank = { bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579' };

describe('borrower wallets under concurrency', () => {
  it('40 parallel payouts against a wallet that covers 10 reserve exactly 10 and leave it at zero', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const borrowerId = (await api.post('/v1/preapprovals', pushBody())).body.data.borrowerId;
    await topUpWallet(app, borrowerId, 10 * 1_000);
    const results = await Promise.all(Array.from({ length: 40 }, () => api.post('/v1/payouts', { borrowerId, amountKobo: 1_000, ...bank })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(30);
    expect(refused.every((r) => r.status === 409 && r.body.error === 'insufficient_wallet_balance')).toBe(true);
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(0);
    expect((await api.get('/v1/payouts?limit=100')).body.data).toHaveLength(10);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true, negativeGuardedAccounts: [] });
  }, 60_000);

  it('parallel cash_wallet repayments on several loans and payouts of one borrower never overdraw the wallet', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    // Three loans of one borrower (same BVN), disbursed to the bank account: the wallet holds only the top-up.
    const bvn = '22233344455';
    const loans = [];
    for (let i = 0; i < 3; i++) {
      const { loan } = await acceptedLoan(app, tenant, { amount: '100000', bvn });
      loans.push((await api.post(`/v1/loans/${loan.id}/disburse`)).body.data);
    }
    const borrowerId = loans[0].borrowerId;
    expect(new Set(loans.map((l) => l.borrowerId)).size).toBe(1);
    const topUp = 25_000;
    await topUpWallet(app, borrowerId, topUp);
    const requests = [
      ...loans.flatMap((loan) => Array.from({ length: 6 }, () => () => api.post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: 2_000 }))),
      ...Array.from({ length: 12 }, () => () => api.post('/v1/payouts', { borrowerId, amountKobo: 1_500, ...bank })),
    ];
    const results = await Promise.all(requests.map((send) => send()));
    expect(results.every((r) => r.status === 201 || (r.status === 409 && ['insufficient_wallet_balance', 'invalid_loan_state'].includes(r.body.error)))).toBe(true);
    // Demand (54,000) is twice the wallet: refusals for balance must have happened.
    expect(results.some((r) => r.body.error === 'insufficient_wallet_balance')).toBe(true);
    const repaid = results.filter((r) => r.status === 201 && r.body.data.method === 'cash_wallet').reduce((s, r) => s + r.body.data.amountKobo, 0);
    const paidOut = results.filter((r) => r.status === 201 && r.body.data.status === 'requested').reduce((s, r) => s + r.body.data.amountKobo, 0);
    expect(repaid + paidOut).toBeLessThanOrEqual(topUp);
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(topUp - repaid - paidOut);
    let loanPaid = 0;
    for (const loan of loans) loanPaid += (await api.get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo;
    expect(loanPaid).toBe(repaid);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true, negativeGuardedAccounts: [], balanceMismatches: [] });
  }, 120_000);
});
