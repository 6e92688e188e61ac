import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const collect = () => runCollections(app.platform, clock.now());

/** A disbursed loan with a confirmed rail_a mandate. */
async function mandatedLoan() {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const mandate = (await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
  expect((await api().post(`/v1/test/mandates/${mandate.id}/simulate-activation`)).body.data.status).toBe('active');
  const active = (await api().post(`/v1/loans/${loan.id}/disburse`)).body.data;
  const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
  return { loan: active, mandate, schedule };
}

describe('mandate repayments and automatic collection', () => {
  it('a mandate repayment is pending until the rail reports, then completes and is allocated', async () => {
    const { loan, schedule } = await mandatedLoan();
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: schedule[0].totalKobo });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ method: 'mandate', status: 'pending', amountKobo: schedule[0].totalKobo, principalPortionKobo: 0 });
    expect(await collect()).toMatchObject({ charged: 1, completed: 0 });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo).toBe(0);
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    expect(await collect()).toMatchObject({ completed: 1 });
    const [repayment] = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(repayment).toMatchObject({ status: 'completed', amountKobo: schedule[0].totalKobo, principalPortionKobo: schedule[0].principalKobo, completedAt: expect.any(String) });
    expect((await api().get(`/v1/loans/${loan.id}/schedule`)).body.data[0].status).toBe('paid');
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.repayment.completed' && e.data.loanId === loan.id);
    expect(events).toHaveLength(1);
  });

  it('a charge for an amount ending in 51 kobo fails with insufficient_funds and changes nothing on the loan', async () => {
    const { loan } = await mandatedLoan();
    const res = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 1_051 });
    await collect();
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    expect(await collect()).toMatchObject({ failed: 1 });
    const [repayment] = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(repayment).toMatchObject({ id: res.body.data.id, status: 'failed' });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo).toBe(0);
  });

  it('collects a due instalment automatically on its due date, once', async () => {
    const { loan, schedule } = await mandatedLoan();
    clock.set(new Date(new Date(schedule[0].dueDate).getTime() + 1000));
    const first = await collect();
    expect(first.scheduled).toBeGreaterThanOrEqual(1);
    const pending = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ method: 'mandate', status: 'pending', amountKobo: schedule[0].totalKobo });
    await collect();
    expect((await api().get(`/v1/loans/${loan.id}/repayments`)).body.data).toHaveLength(1);
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await collect();
    expect((await api().get(`/v1/loans/${loan.id}/schedule`)).body.data[0].status).toBe('paid');
    expect((await api().get(`/v1/loans/${loan.id}/repayments`)).body.data[0].status).toBe('completed');
  });

  it('refuses method mandate without an active mandate and on a partner-operated rail (422)', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    await api().post(`/v1/loans/${loan.id}/disburse`);
    const none = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 100 });
    expect(none.status).toBe(422);
    await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', provider: 'rail_c' });
    const railC = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 100 });
    expect(railC.status).toBe(422);
    expect(railC.body.message).toMatch(/rail_c/);
  });
});
