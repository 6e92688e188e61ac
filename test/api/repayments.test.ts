import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);

async function activeLoan() {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const res = await api().post(`/v1/loans/${loan.id}/disburse`);
  expect(res.status).toBe(200);
  const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
  return { loan: res.body.data, schedule };
}

describe('external repayments', () => {
  it('a payment equal to the first instalment clears exactly that instalment, fee then interest then principal', async () => {
    const { loan, schedule } = await activeLoan();
    const first = schedule[0];
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: first.totalKobo, externalReference: 'bank-001' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      method: 'external',
      status: 'completed',
      amountKobo: first.totalKobo,
      unallocatedKobo: 0,
      feePortionKobo: first.feeKobo,
      interestPortionKobo: first.interestKobo,
      principalPortionKobo: first.principalKobo,
      externalReference: 'bank-001',
      ledgerTransactionRef: res.body.data.reference,
    });
    const after = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(after.map((r: { status: string }) => r.status)).toEqual(['paid', 'pending', 'pending']);
    expect(after[0]).toMatchObject({ amountPaidKobo: first.totalKobo, paidAt: expect.any(String) });
    const updated = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(updated).toMatchObject({
      amountPaidKobo: first.totalKobo,
      outstandingKobo: loan.outstandingKobo - first.totalKobo,
      principalBalanceKobo: loan.principalKobo - first.principalKobo,
      status: 'active',
    });
    const event = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.repayment.completed' && e.data.loanId === loan.id);
    expect(event).toHaveLength(1);
    expect(event[0]!.data.outstandingKobo).toBe(updated.outstandingKobo);
  });

  it('a partial payment goes to the fee, then the interest, then part of the principal, leaving the instalment partial', async () => {
    const { loan, schedule } = await activeLoan();
    const first = schedule[0];
    const amount = first.feeKobo + first.interestKobo + 100;
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: amount });
    expect(res.body.data).toMatchObject({ feePortionKobo: first.feeKobo, interestPortionKobo: first.interestKobo, principalPortionKobo: 100 });
    expect((await api().get(`/v1/loans/${loan.id}/schedule`)).body.data[0].status).toBe('partial');
  });

  it('reusing an externalReference returns the original movement, not a second one', async () => {
    const { loan } = await activeLoan();
    const first = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 5_000, externalReference: 'dup-1' });
    const again = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 9_999, externalReference: 'dup-1' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const list = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(list).toHaveLength(1);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo).toBe(5_000);
  });

  it('an overpayment completes the loan, returns the excess unallocated and emits loan.completed', async () => {
    const { loan } = await activeLoan();
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: loan.outstandingKobo + 12_345 });
    expect(res.body.data).toMatchObject({ amountKobo: loan.outstandingKobo, unallocatedKobo: 12_345 });
    expect(res.body.data.feePortionKobo + res.body.data.interestPortionKobo + res.body.data.principalPortionKobo).toBe(loan.outstandingKobo);
    const done = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(done).toMatchObject({ status: 'completed', outstandingKobo: 0, principalBalanceKobo: 0 });
    const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(schedule.every((r: { status: string }) => r.status === 'paid')).toBe(true);
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names.slice(-2)).toEqual(['loan.repayment.completed', 'loan.completed']);
    const more = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 100 });
    expect(more.status).toBe(409);
  });

  it('keeps the ledger balanced: receivable down by principal, income up by interest and fees', async () => {
    const { loan } = await activeLoan();
    await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 50_000 });
    const sums = await app.platform.db
      .selectFrom('ledgerPostings')
      .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'ledgerPostings.transactionId')
      .select((eb) => eb.fn.sum<number>('ledgerPostings.amountKobo').as('total'))
      .where('ledgerTransactions.organisationId', '=', tenant.organisationId)
      .executeTakeFirstOrThrow();
    expect(Number(sums.total)).toBe(0);
  });

  it('refuses repayments on a loan that is not disbursed (409) and wallet methods the borrower cannot use (422)', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const early = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 100 });
    expect(early.status).toBe(409);
    const earlyWallet = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: 100 });
    expect(earlyWallet.status).toBe(409);
    const { loan: active } = await activeLoan();
    // Disbursed to the borrower's bank account: nothing undrawn sits in a wallet, and the borrower has none.
    const wallet = await api().post(`/v1/loans/${active.id}/repayments`, { method: 'wallet', amountKobo: 100 });
    expect(wallet.status).toBe(422);
    expect(wallet.body.error).toBe('no_undrawn_credit');
    const cash = await api().post(`/v1/loans/${active.id}/repayments`, { method: 'cash_wallet', amountKobo: 100 });
    expect(cash.status).toBe(422);
    expect(cash.body.error).toBe('no_borrower_wallet');
  });
});
