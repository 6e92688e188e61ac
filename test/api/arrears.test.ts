import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

const DAY = 86_400_000;
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock, env: { DEFAULT_AFTER_DAYS_OVERDUE: '60' } });
  tenant = await lendingTenant(app, { product: { lateFeeBps: 500 } });
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const sweep = () => sweepArrears(app.platform.db, app.platform, clock.now());

async function activeLoan() {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const disbursed = (await api().post(`/v1/loans/${loan.id}/disburse`)).body.data;
  return disbursed;
}

describe('overdue, late fees and default', () => {
  it('marks an unpaid instalment overdue past its due date, charges the late fee once, and the loan is active in arrears', async () => {
    const loan = await activeLoan();
    const [first] = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    await sweep();
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.inArrears).toBe(false);

    clock.set(new Date(new Date(first.dueDate).getTime() + 1000));
    await sweep();
    await sweep();
    const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    const expectedFee = Math.round((first.totalKobo * 500) / 10_000);
    expect(schedule[0]).toMatchObject({ status: 'overdue', lateFeeKobo: expectedFee });
    expect(schedule[1]).toMatchObject({ status: 'pending', lateFeeKobo: 0 });
    const inArrears = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(inArrears).toMatchObject({ status: 'active', inArrears: true, arrearsSince: first.dueDate, outstandingKobo: loan.outstandingKobo + expectedFee });

    const pay = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: first.totalKobo + expectedFee });
    expect(pay.body.data).toMatchObject({ feePortionKobo: first.feeKobo + expectedFee, principalPortionKobo: first.principalKobo });
    const cured = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(cured).toMatchObject({ inArrears: false, arrearsSince: null, status: 'active' });
    expect((await api().get(`/v1/loans/${loan.id}/schedule`)).body.data[0].status).toBe('paid');
  });

  it('defaults a loan overdue beyond the threshold and emits loan.defaulted once', async () => {
    const loan = await activeLoan();
    const [first] = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    clock.set(new Date(new Date(first.dueDate).getTime() + 1000));
    await sweep();
    clock.set(new Date(new Date(first.dueDate).getTime() + 59 * DAY));
    await sweep();
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('active');
    clock.set(new Date(new Date(first.dueDate).getTime() + 61 * DAY));
    await sweep();
    await sweep();
    const defaulted = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(defaulted.status).toBe('defaulted');
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.defaulted' && e.data.loanId === loan.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ status: 'defaulted', daysPastDue: 61 });
    expect((await api().post(`/v1/loans/${loan.id}/cancel`, {})).status).toBe(400);
  });

  it('a product with recoveryEnabled defaults on its own recovery policy; other products keep the tenant threshold', async () => {
    const strict = await lendingTenant(app, { product: { lateFeeBps: 500, recoveryEnabled: true, recoveryDefaultAfterDaysOverdue: 10 } });
    const lenient = await lendingTenant(app, { product: { lateFeeBps: 500, recoveryEnabled: false, recoveryDefaultAfterDaysOverdue: 5 } });
    const start = clock.now();
    const disbursed = async (t: typeof tenant) => {
      const { loan } = await acceptedLoan(app, t, { amount: '100000' });
      return (await client(app, t.test).post(`/v1/loans/${loan.id}/disburse`)).body.data;
    };
    const strictLoan = await disbursed(strict);
    const lenientLoan = await disbursed(lenient);
    const [first] = (await client(app, strict.test).get(`/v1/loans/${strictLoan.id}/schedule`)).body.data;
    const dueAt = new Date(first.dueDate).getTime();
    const status = async (t: typeof tenant, id: string) => (await client(app, t.test).get(`/v1/loans/${id}`)).body.data.status;
    try {
      clock.set(new Date(dueAt + 1000));
      await sweep();
      clock.set(new Date(dueAt + 9 * DAY));
      await sweep();
      expect(await status(strict, strictLoan.id)).toBe('active');
      clock.set(new Date(dueAt + 11 * DAY));
      await sweep();
      expect(await status(strict, strictLoan.id)).toBe('defaulted');
      // recoveryEnabled false: its policy days are ignored, the tenant default (60 here) applies.
      expect(await status(lenient, lenientLoan.id)).toBe('active');
      clock.set(new Date(dueAt + 61 * DAY));
      await sweep();
      expect(await status(lenient, lenientLoan.id)).toBe('defaulted');
      const events = (await eventsOf(app, strict.organisationId)).filter((e) => e.name === 'loan.defaulted');
      expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ loanId: strictLoan.id, daysPastDue: 11 })]);
    } finally {
      clock.set(start);
    }
  });

  it('a product cannot enable recovery without saying when a loan defaults', async () => {
    const { createProduct } = await import('../../server/platform/domain/products/product');
    const { productInput } = await import('../support/factories');
    await expect(
      createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ recoveryEnabled: true }), now: clock.now() }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('recoveryDefaultAfterDaysOverdue') });
  });
});
