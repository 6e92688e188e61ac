import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { client, keyHeaders, startTestApp, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';

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
});
