import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectPayout, settlePayout } from '../../server/platform/domain/payouts/settle-payout';
import { findAccount } from '../../server/platform/domain/ledger/ledger';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { ledgerIsSound, moneyRowCounts, topUpWallet, walletBalance } from '../support/wallets';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const bank = { bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579', accountName: 'Ada Obi' };

/** A borrower of the tenant with `kobo` in a cash wallet. */
async function borrowerWithWallet(kobo: number): Promise<string> {
  const pushed = await api().post('/v1/preapprovals', pushBody());
  await topUpWallet(app, pushed.body.data.borrowerId, kobo);
  return pushed.body.data.borrowerId;
}

async function reservation(borrowerId: string) {
  const account = await findAccount(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', kind: 'payout_reservation', code: borrowerId });
  return account ? 0 - account.balanceKobo : 0;
}

describe('POST /v1/payouts', () => {
  it('creates a requested payout and reserves its amount from the wallet in the same transaction', async () => {
    const borrowerId = await borrowerWithWallet(50_000);
    const res = await api().post('/v1/payouts', { borrowerId, amountKobo: 20_000, ...bank });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      organisationId: tenant.organisationId,
      borrowerId,
      loanId: null,
      currency: 'NGN',
      amountKobo: 20_000,
      ...bank,
      status: 'requested',
      rejectionReason: null,
      settledAt: null,
      settledByUserId: null,
      settlementReference: null,
      ledgerTransactionRef: `PYT-${res.body.data.id}-reserve`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(30_000);
    expect(await reservation(borrowerId)).toBe(20_000);
    const tx = await app.platform.db.selectFrom('ledgerTransactions').select('kind').where('reference', '=', res.body.data.ledgerTransactionRef).executeTakeFirst();
    expect(tx?.kind).toBe('payout_reservation');
    expect((await api().get(`/v1/payouts/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('when the amount exceeds the available balance (reservations included), then 409 insufficient_wallet_balance and nothing changes', async () => {
    const borrowerId = await borrowerWithWallet(10_000);
    expect((await api().post('/v1/payouts', { borrowerId, amountKobo: 6_000, ...bank })).status).toBe(201);
    const before = await moneyRowCounts(app);
    const res = await api().post('/v1/payouts', { borrowerId, amountKobo: 4_001, ...bank });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: 'insufficient_wallet_balance', message: expect.stringContaining('4000') });
    expect(await moneyRowCounts(app)).toEqual(before);
    expect((await api().post('/v1/payouts', { borrowerId, amountKobo: 4_000, ...bank })).status).toBe(201);
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(0);
  });

  it.each([
    ['a wrong NUBAN check digit', { accountNumber: '0000014578' }, 422, 'account_number_invalid'],
    ['a valid NUBAN of another bank', { bankCode: '058' }, 422, 'account_number_invalid'],
    ['a 9-digit account number', { accountNumber: '000001457' }, 400, 'invalid_request'],
    ['letters in the account number', { accountNumber: '00000145a9' }, 400, 'invalid_request'],
    ['a 4-digit bank code', { bankCode: '0110' }, 400, 'invalid_request'],
    ['no bank name', { bankName: '' }, 400, 'invalid_request'],
  ])('when the bank details have %s, then %i %s and nothing changes', async (_name, change, status, error) => {
    const borrowerId = await borrowerWithWallet(5_000);
    const before = await moneyRowCounts(app);
    const res = await api().post('/v1/payouts', { borrowerId, amountKobo: 1_000, ...bank, ...change });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(await moneyRowCounts(app)).toEqual(before);
  });

  it('accepts a 5-6-digit NIP institution code without the 3-digit check', async () => {
    const borrowerId = await borrowerWithWallet(5_000);
    const res = await api().post('/v1/payouts', { borrowerId, amountKobo: 1_000, ...bank, bankCode: '50211', accountNumber: '2000000001' });
    expect(res.status).toBe(201);
  });

  it('when the borrower has no wallet, then 422 no_borrower_wallet; an unknown or foreign borrower is 404', async () => {
    const pushed = await api().post('/v1/preapprovals', pushBody());
    const none = await api().post('/v1/payouts', { borrowerId: pushed.body.data.borrowerId, amountKobo: 1_000, ...bank });
    expect(none.status).toBe(422);
    expect(none.body.error).toBe('no_borrower_wallet');
    const unknown = await api().post('/v1/payouts', { borrowerId: '00000000-0000-4000-8000-000000000000', amountKobo: 1_000, ...bank });
    expect(unknown.status).toBe(404);
    const stranger = await lendingTenant(app);
    const theirs = await client(app, stranger.test).post('/v1/payouts', { borrowerId: await borrowerWithWallet(5_000), amountKobo: 1_000, ...bank });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('NOT_FOUND');
    const live = await client(app, tenant.live).post('/v1/payouts', { borrowerId: await borrowerWithWallet(5_000), amountKobo: 1_000, ...bank });
    expect(live.status).toBe(404);
  });

  it('draws on the payable of a loan disbursed to the borrower\'s bank account', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    await api().post(`/v1/loans/${loan.id}/disburse`);
    const res = await api().post('/v1/payouts', { borrowerId: loan.borrowerId, loanId: loan.id, amountKobo: loan.principalKobo, ...bank });
    expect(res.status).toBe(201);
    expect(res.body.data.loanId).toBe(loan.id);
    const again = await api().post('/v1/payouts', { borrowerId: loan.borrowerId, loanId: loan.id, amountKobo: 1, ...bank });
    expect(again.status).toBe(409);
    const other = await api().post('/v1/preapprovals', pushBody());
    const mismatch = await api().post('/v1/payouts', { borrowerId: other.body.data.borrowerId, loanId: loan.id, amountKobo: 1, ...bank });
    expect(mismatch.status).toBe(422);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('an Idempotency-Key replay returns the same payout and reserves once', async () => {
    const borrowerId = await borrowerWithWallet(10_000);
    const headers = { 'Idempotency-Key': `payout-${borrowerId}` };
    const first = await api().post('/v1/payouts', { borrowerId, amountKobo: 3_000, ...bank }, headers);
    const replay = await api().post('/v1/payouts', { borrowerId, amountKobo: 3_000, ...bank }, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(7_000);
  });
});

describe('GET /v1/payouts', () => {
  it('lists the tenant\'s payouts newest first, filters by status and honours limit', async () => {
    const own = await lendingTenant(app);
    const ownApi = client(app, own.test);
    const pushed = await ownApi.post('/v1/preapprovals', pushBody());
    const borrowerId = pushed.body.data.borrowerId;
    await topUpWallet(app, borrowerId, 10_000);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) ids.push((await ownApi.post('/v1/payouts', { borrowerId, amountKobo: i * 100, ...bank })).body.data.id);
    await rejectPayout(app.platform.db, { id: ids[0]!, reason: 'account closed', now: new Date() });
    const all = (await ownApi.get('/v1/payouts')).body.data;
    expect(all.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    expect((await ownApi.get('/v1/payouts?status=rejected')).body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect((await ownApi.get('/v1/payouts?status=requested&limit=1')).body.data.map((p: { id: string }) => p.id)).toEqual([ids[2]]);
    expect((await ownApi.get('/v1/payouts?status=paid')).status).toBe(400);
    expect((await client(app, own.live).get('/v1/payouts')).body.data).toEqual([]);
  });
});

describe('settling and rejecting payouts (operator)', () => {
  it('settle consumes the reservation, is idempotent for the same reference, and refuses another', async () => {
    const borrowerId = await borrowerWithWallet(10_000);
    const payout = (await api().post('/v1/payouts', { borrowerId, amountKobo: 4_000, ...bank })).body.data;
    const now = new Date();
    const settled = await settlePayout(app.platform.db, { id: payout.id, reference: 'NIP-123', now });
    expect(settled.changed).toBe(true);
    expect(settled.payout).toMatchObject({ status: 'completed', settlementReference: 'NIP-123', settledAt: now.toISOString(), ledgerTransactionRef: `PYT-${payout.id}-settle` });
    expect(await reservation(borrowerId)).toBe(0);
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(6_000);
    const again = await settlePayout(app.platform.db, { id: payout.id, reference: 'NIP-123', now });
    expect(again).toEqual({ payout: settled.payout, changed: false });
    await expect(settlePayout(app.platform.db, { id: payout.id, reference: 'NIP-999', now })).rejects.toMatchObject({ code: 'invalid_payout_state' });
    await expect(rejectPayout(app.platform.db, { id: payout.id, reason: 'late', now })).rejects.toMatchObject({ code: 'invalid_payout_state' });
    expect((await api().get(`/v1/payouts/${payout.id}`)).body.data).toEqual(settled.payout);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });

  it('reject releases the reservation back to the wallet, is idempotent, and a rejected payout cannot be settled', async () => {
    const borrowerId = await borrowerWithWallet(10_000);
    const payout = (await api().post('/v1/payouts', { borrowerId, amountKobo: 4_000, ...bank })).body.data;
    const now = new Date();
    const rejected = await rejectPayout(app.platform.db, { id: payout.id, reason: 'name mismatch', now });
    expect(rejected.payout).toMatchObject({ status: 'rejected', rejectionReason: 'name mismatch', ledgerTransactionRef: `PYT-${payout.id}-release` });
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(10_000);
    expect(await reservation(borrowerId)).toBe(0);
    expect((await rejectPayout(app.platform.db, { id: payout.id, reason: 'other', now })).changed).toBe(false);
    await expect(settlePayout(app.platform.db, { id: payout.id, reference: 'NIP-1', now })).rejects.toMatchObject({ code: 'invalid_payout_state' });
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(10_000);
    expect(await ledgerIsSound(app)).toMatchObject({ ok: true });
  });
});
