import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolBalances } from '../../server/platform/domain/pools/pool';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { ledgerIsSound, moneyRowCounts, topUpWallet, walletBalance } from '../support/wallets';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  // Loans of this tenant are disbursed into the borrower's cash wallet.
  tenant = await lendingTenant(app, { product: { settlementDestination: 'borrower_wallet', insuranceMode: 'off', insurancePremiumBps: 0 } });
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const pool = async () => (await poolBalances(app.platform.db, tenant.organisationId, 'test')).find((p) => p.code === 'MAIN')!.balanceKobo;

async function walletLoan(amount = '100000') {
  const { loan } = await acceptedLoan(app, tenant, { amount });
  const res = await api().post(`/v1/loans/${loan.id}/disburse`);
  expect(res.status).toBe(200);
  const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
  return { loan: res.body.data, schedule };
}

describe('borrower wallets', () => {
  it('a borrower_wallet disbursement opens the borrower\'s wallet and credits it with the principal', async () => {
    const { loan } = await walletLoan();
    expect(loan.settlementDestination).toBe('borrower_wallet');
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(loan.principalKobo);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('a sandbox top-up adds to the wallet with a balanced ledger transaction', async () => {
    const { loan } = await walletLoan();
    const topped = await topUpWallet(app, loan.borrowerId, 5_000);
    expect(topped).toMatchObject({ borrowerId: loan.borrowerId, balanceKobo: loan.principalKobo + 5_000, ledgerTransactionRef: expect.stringMatching(/^WCR-/) });
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true, balanceMismatches: [], negativeGuardedAccounts: [] });
  });
});

describe('cash_wallet repayments', () => {
  it('debit the borrower\'s wallet by the applied amount and allocate exactly like external', async () => {
    const { loan, schedule } = await walletLoan();
    const first = schedule[0];
    const before = await walletBalance(app, tenant.organisationId, loan.borrowerId);
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: first.totalKobo });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      method: 'cash_wallet',
      status: 'completed',
      amountKobo: first.totalKobo,
      unallocatedKobo: 0,
      feePortionKobo: first.feeKobo,
      interestPortionKobo: first.interestKobo,
      principalPortionKobo: first.principalKobo,
      ledgerTransactionRef: res.body.data.reference,
    });
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(before! - first.totalKobo);
    const after = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(after.map((r: { status: string }) => r.status)).toEqual(['paid', 'pending', 'pending']);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.outstandingKobo).toBe(loan.outstandingKobo - first.totalKobo);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('a cash_wallet payment above the outstanding debits only what is applied and returns the rest as unallocated', async () => {
    const { loan } = await walletLoan();
    await topUpWallet(app, loan.borrowerId, loan.outstandingKobo); // principal + top-up covers everything
    const before = (await walletBalance(app, tenant.organisationId, loan.borrowerId))!;
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: loan.outstandingKobo + 777 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amountKobo: loan.outstandingKobo, unallocatedKobo: 777 });
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(before - loan.outstandingKobo);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'completed', outstandingKobo: 0 });
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names).toContain('loan.completed');
  });

  it('when the wallet holds too little, then 409 insufficient_wallet_balance and nothing changes', async () => {
    const { loan, schedule } = await walletLoan();
    // Spend most of the wallet so it cannot cover the first instalment.
    const held = (await walletBalance(app, tenant.organisationId, loan.borrowerId))!;
    const payout = await api().post('/v1/payouts', {
      borrowerId: loan.borrowerId,
      amountKobo: held - 10,
      bankName: 'First Bank',
      bankCode: '011',
      accountNumber: '0000014579',
    });
    expect(payout.status).toBe(201);
    const before = await moneyRowCounts(app);
    const loanBefore = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: schedule[0].totalKobo });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: 'insufficient_wallet_balance' });
    expect(await moneyRowCounts(app)).toEqual(before);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toEqual(loanBefore);
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(10);
  });

  it('when the borrower has no wallet, then 422 no_borrower_wallet and nothing changes', async () => {
    const other = await lendingTenant(app); // disburses to the borrower's bank account
    const { loan } = await acceptedLoan(app, other);
    await client(app, other.test).post(`/v1/loans/${loan.id}/disburse`);
    const before = await moneyRowCounts(app);
    const res = await client(app, other.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: 1_000 });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('no_borrower_wallet');
    expect(await moneyRowCounts(app)).toEqual(before);
  });
});

describe('wallet (undrawn credit swept back to the pool)', () => {
  it('returns principal only, from the latest instalment backwards, and refills the pool', async () => {
    const { loan, schedule } = await walletLoan();
    const last = schedule[schedule.length - 1];
    const poolBefore = await pool();
    const walletBefore = (await walletBalance(app, tenant.organisationId, loan.borrowerId))!;
    const amount = last.principalKobo + 500;
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'wallet', amountKobo: amount });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ method: 'wallet', amountKobo: amount, feePortionKobo: 0, interestPortionKobo: 0, principalPortionKobo: amount, unallocatedKobo: 0 });
    expect(await pool()).toBe(poolBefore + amount);
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(walletBefore - amount);
    const after = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(after[0]).toMatchObject({ status: 'pending', amountPaidKobo: 0 });
    expect(after[after.length - 2]).toMatchObject({ status: 'partial', amountPaidKobo: 500 });
    expect(after[after.length - 1]).toMatchObject({ status: 'partial', amountPaidKobo: last.principalKobo });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({
      principalBalanceKobo: loan.principalKobo - amount,
      outstandingKobo: loan.outstandingKobo - amount,
    });
    const event = (await eventsOf(app, tenant.organisationId)).find((e) => e.name === 'loan.repayment.completed' && e.data.loanId === loan.id);
    expect(event?.data).toMatchObject({ method: 'wallet', principalPortionKobo: amount });
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('returns anything above the unpaid principal as unallocated', async () => {
    const { loan } = await walletLoan();
    await topUpWallet(app, loan.borrowerId, 10_000);
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'wallet', amountKobo: loan.principalKobo + 10_000 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amountKobo: loan.principalKobo, unallocatedKobo: 10_000, principalPortionKobo: loan.principalKobo });
    const after = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(after).toMatchObject({ principalBalanceKobo: 0, outstandingKobo: loan.outstandingKobo - loan.principalKobo, status: 'active' });
    expect(await walletBalance(app, tenant.organisationId, loan.borrowerId)).toBe(10_000);
  });

  it('is not a collection: a settlement sweeps the cash_wallet repayment\'s fee and interest and leaves the wallet movement out', async () => {
    const partner = await lendingTenant(app, { product: { settlementDestination: 'borrower_wallet', insuranceMode: 'off', insurancePremiumBps: 0 } });
    const partnerApi = client(app, partner.test);
    const { loan } = await acceptedLoan(app, partner, { amount: '50000' });
    await partnerApi.post(`/v1/loans/${loan.id}/disburse`);
    const schedule = (await partnerApi.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    const swept = await partnerApi.post(`/v1/loans/${loan.id}/repayments`, { method: 'wallet', amountKobo: 1_000 });
    const paid = await partnerApi.post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: schedule[0].totalKobo });
    expect([swept.status, paid.status]).toEqual([201, 201]);
    const { statement } = await runSettlement(app.platform.db, { organisationId: partner.organisationId, mode: 'test', until: new Date(), now: new Date() });
    expect(statement).toMatchObject({ status: 'completed', feeSweptKobo: schedule[0].feeKobo, interestSweptKobo: schedule[0].interestKobo });
    expect(statement.lines).toEqual([{ loanId: loan.id, feeKobo: schedule[0].feeKobo, interestKobo: schedule[0].interestKobo, repayments: 1 }]);
    const stamped = await app.platform.db.selectFrom('loanRepayments').select(['method', 'settlementId']).where('loanId', '=', loan.id).execute();
    expect(stamped.find((r) => r.method === 'wallet')!.settlementId).toBeNull();
    expect(stamped.find((r) => r.method === 'cash_wallet')!.settlementId).toBe(statement.id);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('when the wallet holds less than the amount, then 409 and nothing changes', async () => {
    const { loan } = await walletLoan();
    const held = (await walletBalance(app, tenant.organisationId, loan.borrowerId))!;
    await api().post('/v1/payouts', { borrowerId: loan.borrowerId, amountKobo: held, bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579' });
    const before = await moneyRowCounts(app);
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'wallet', amountKobo: 1_000 });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('insufficient_wallet_balance');
    expect(await moneyRowCounts(app)).toEqual(before);
  });

  it('other tenants cannot move a borrower\'s wallet (404)', async () => {
    const { loan } = await walletLoan();
    const stranger = await lendingTenant(app);
    await client(app, stranger.test).post('/v1/preapprovals', pushBody());
    const res = await client(app, stranger.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: 100 });
    expect(res.status).toBe(404);
  });
});
