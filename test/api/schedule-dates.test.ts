import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, type LendingTenant } from '../support/lifecycle';

const DAY = 86_400_000;
const clock = new FakeClock('2026-03-02T09:30:00.000Z');
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

interface Row {
  id: string;
  installmentNumber: number;
  dueDate: string;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  totalKobo: number;
  status: string;
}

/** Offers a loan on the test clock, then accepts and disburses it `daysLater`; returns both schedules. */
async function offerThenDisburse(frequency: string, daysLater: number, beforeDisbursing?: (loanId: string) => Promise<void>) {
  const api = client(app, tenant.test);
  const body = pushBody({ amount: '90000' });
  body.decision.decision.conditions.repayment_frequency = frequency;
  const pushed = await api.post('/v1/preapprovals', body);
  const loan = (await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {})).body.data;
  const offeredAt = clock.now().getTime();
  const offered: Row[] = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
  clock.advance(daysLater * DAY);
  expect((await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) })).status).toBe(200);
  await beforeDisbursing?.(loan.id);
  const disbursed = await api.post(`/v1/loans/${loan.id}/disburse`);
  expect(disbursed.status).toBe(200);
  const active: Row[] = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
  return { offeredAt, disbursedAt: new Date(disbursed.body.data.disbursedAt).getTime(), offered, active, loan: disbursed.body.data };
}

describe('schedule due dates', () => {
  it('count from approval on the offer and from disbursement once disbursed, with the same instalments', async () => {
    const { offeredAt, disbursedAt, offered, active, loan } = await offerThenDisburse('monthly', 5);
    expect(disbursedAt - offeredAt).toBe(5 * DAY);
    expect(offered.map((r) => new Date(r.dueDate).getTime() - offeredAt)).toEqual([30 * DAY, 60 * DAY, 90 * DAY]);
    expect(active.map((r) => new Date(r.dueDate).getTime() - disbursedAt)).toEqual([30 * DAY, 60 * DAY, 90 * DAY]);
    const amounts = (rows: Row[]) => rows.map(({ installmentNumber, principalKobo, interestKobo, feeKobo, totalKobo, status }) => ({ installmentNumber, principalKobo, interestKobo, feeKobo, totalKobo, status }));
    expect(amounts(active)).toEqual(amounts(offered));
    // Moved in place: the instalments keep their ids.
    expect(active.map((r) => r.id)).toEqual(offered.map((r) => r.id));
    expect(active.reduce((sum, r) => sum + r.totalKobo, 0)).toBe(loan.outstandingKobo);
  });

  it('moves every one of 90 daily instalments (more than one batch)', async () => {
    const { disbursedAt, offered, active } = await offerThenDisburse('daily', 2);
    expect(offered).toHaveLength(90);
    expect(active).toHaveLength(90);
    expect(active.map((r) => r.id)).toEqual(offered.map((r) => r.id));
    expect(active.map((r) => new Date(r.dueDate).getTime() - disbursedAt)).toEqual(Array.from({ length: 90 }, (_, i) => (i + 1) * DAY));
  });

  it('rewrites the schedule from the snapshot should a row be missing at disbursement', async () => {
    const { disbursedAt, offered, active, loan } = await offerThenDisburse('monthly', 3, async (loanId) => {
      await app.platform.db.deleteFrom('loanScheduleItems').where('loanId', '=', loanId).where('installmentNumber', '=', 2).execute();
    });
    expect(active.map((r) => r.installmentNumber)).toEqual([1, 2, 3]);
    expect(active.map((r) => new Date(r.dueDate).getTime() - disbursedAt)).toEqual([30 * DAY, 60 * DAY, 90 * DAY]);
    expect(active.map((r) => r.totalKobo)).toEqual(offered.map((r) => r.totalKobo));
    expect(active.reduce((sum, r) => sum + r.totalKobo, 0)).toBe(loan.outstandingKobo);
  });
});
