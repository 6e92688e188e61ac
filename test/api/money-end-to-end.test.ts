import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { client, keyHeaders, startTestApp, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { settlePayout } from '../../server/platform/domain/payouts/settle-payout';
import { topUpWallet, walletBalance } from '../support/wallets';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

describe('a loan from push to settlement', () => {
  it('push → offer → accept → mandate approved on the rail page → activate → disburse → collected to completion → settled → CSV', async () => {
    const api = client(app, tenant.test);
    const { loan } = await offeredLoan(app, tenant, { amount: '50000' });
    await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) });

    const mandate = (await api.post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', callbackUrl: 'https://partner.example/back' })).body.data;
    const page = await fetch(mandate.authorizationUrl);
    expect(await page.text()).toMatch(/Approve/);
    const back = await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(back.status).toBe(303);
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1);
    expect((await api.post(`/v1/mandates/${mandate.id}/activate`)).body.data.status).toBe('active');

    const disbursed = (await api.post(`/v1/loans/${loan.id}/disburse`)).body.data;
    expect(disbursed.status).toBe('active');
    const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    for (const item of schedule) {
      clock.set(new Date(new Date(item.dueDate).getTime() + 1000));
      await runCollections(app.platform, clock.now());
      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      await runCollections(app.platform, clock.now());
    }
    const done = (await api.get(`/v1/loans/${loan.id}`)).body.data;
    expect(done).toMatchObject({ status: 'completed', outstandingKobo: 0, amountPaidKobo: disbursed.outstandingKobo });
    const repayments = (await api.get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(repayments).toHaveLength(schedule.length);
    expect(repayments.every((r: { method: string; status: string }) => r.method === 'mandate' && r.status === 'completed')).toBe(true);

    clock.advance(1000);
    const { statement } = await runSettlement(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until: clock.now(), now: clock.now() });
    const line = statement.lines!.find((l) => l.loanId === loan.id)!;
    expect(line.repayments).toBe(schedule.length);
    expect(line.feeKobo).toBe(repayments.reduce((s: number, r: { feePortionKobo: number }) => s + r.feePortionKobo, 0));
    expect(line.interestKobo).toBe(repayments.reduce((s: number, r: { interestPortionKobo: number }) => s + r.interestPortionKobo, 0));
    const csv = await (await fetch(`${app.url}/v1/settlements/${statement.id}/csv`, { headers: keyHeaders(tenant.test) })).text();
    expect(csv).toContain(loan.id);
    expect((await checkLedger(app.platform.db)).ok).toBe(true);
  });

  it('a wallet loan: disburse into the wallet → pay part out (settled) → sweep undrawn credit back → repay from the wallet to completion → settled → ledger balanced', async () => {
    const walletTenant = await lendingTenant(app, { product: { settlementDestination: 'borrower_wallet', insuranceMode: 'off', insurancePremiumBps: 0 } });
    const api = client(app, walletTenant.test);
    const { loan } = await offeredLoan(app, walletTenant, { amount: '50000' });
    await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) });
    const disbursed = (await api.post(`/v1/loans/${loan.id}/disburse`)).body.data;
    expect(await walletBalance(app, walletTenant.organisationId, loan.borrowerId)).toBe(disbursed.principalKobo);

    const payout = await api.post('/v1/payouts', { borrowerId: loan.borrowerId, amountKobo: 2_000_000, bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579' });
    expect(payout.status).toBe(201);
    await settlePayout(app.platform.db, { id: payout.body.data.id, reference: 'NIP-E2E', now: clock.now() });
    const swept = await api.post(`/v1/loans/${loan.id}/repayments`, { method: 'wallet', amountKobo: 1_000_000 });
    expect(swept.body.data).toMatchObject({ method: 'wallet', principalPortionKobo: 1_000_000 });

    const owed = (await api.get(`/v1/loans/${loan.id}`)).body.data.outstandingKobo;
    const held = (await walletBalance(app, walletTenant.organisationId, loan.borrowerId))!;
    if (owed > held) await topUpWallet(app, loan.borrowerId, owed - held);
    const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    for (const item of schedule) {
      const due = item.totalKobo + item.lateFeeKobo - item.amountPaidKobo;
      if (due > 0) expect((await api.post(`/v1/loans/${loan.id}/repayments`, { method: 'cash_wallet', amountKobo: due })).status).toBe(201);
    }
    expect((await api.get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'completed', outstandingKobo: 0 });

    clock.advance(1000);
    const { statement } = await runSettlement(app.platform.db, { organisationId: walletTenant.organisationId, mode: 'test', until: clock.now(), now: clock.now() });
    const repayments = (await api.get(`/v1/loans/${loan.id}/repayments`)).body.data.filter((r: { method: string }) => r.method === 'cash_wallet');
    expect(statement.lines).toEqual([
      {
        loanId: loan.id,
        feeKobo: repayments.reduce((s: number, r: { feePortionKobo: number }) => s + r.feePortionKobo, 0),
        interestKobo: repayments.reduce((s: number, r: { interestPortionKobo: number }) => s + r.interestPortionKobo, 0),
        repayments: repayments.length,
      },
    ]);
    expect(await checkLedger(app.platform.db)).toMatchObject({ ok: true, ledgerSumKobo: 0, balanceMismatches: [], negativeGuardedAccounts: [] });
  });
});
