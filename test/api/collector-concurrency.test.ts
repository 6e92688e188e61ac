import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import type { PaymentRail } from '../../server/platform/domain/ports';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * Two collectors (as in two worker processes) running at once over the same due loans: each loan gets one
 * mandate repayment and each repayment is sent once. The rail here behaves like a live one: a reused
 * reference is refused (a second send would otherwise read as a failed charge after a real debit).
 */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);

async function mandatedLoan() {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const mandate = (await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
  expect((await api().post(`/v1/test/mandates/${mandate.id}/simulate-activation`)).body.data.status).toBe('active');
  expect((await api().post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
  return loan.id as string;
}

/** The sandbox rail, slowed down (so two sends overlap) and refusing a reference sent before. */
function strictRail(inner: PaymentRail, sent: string[]): PaymentRail {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== 'charge') return Reflect.get(target, property, receiver);
      return async (request: Parameters<PaymentRail['charge']>[0]) => {
        const reused = sent.includes(request.reference);
        sent.push(request.reference);
        await new Promise((r) => setTimeout(r, 50));
        if (reused) throw new Error(`duplicate transaction reference ${request.reference}`);
        return target.charge(request);
      };
    },
  });
}

describe('two collectors at once', () => {
  it('schedule one charge per due loan and send each once', async () => {
    const loanIds: string[] = [];
    for (let i = 0; i < 8; i += 1) loanIds.push(await mandatedLoan());
    await app.platform.db.updateTable('loanScheduleItems').set({ dueDate: new Date(Date.now() - 60_000).toISOString() }).where('loanId', 'in', loanIds).where('installmentNumber', '=', 1).execute();
    const sent: string[] = [];
    const rails = app.platform.rails;
    const collector = {
      ...app.platform,
      rails: { ...rails, railFor: (mode: Parameters<typeof rails.railFor>[0], name: Parameters<typeof rails.railFor>[1]) => { const r = rails.railFor(mode, name); return r && strictRail(r, sent); } },
    };
    const now = new Date();
    const [a, b] = await Promise.all([runCollections(collector, now), runCollections(collector, now)]);
    expect(a.scheduled + b.scheduled).toBe(loanIds.length);
    expect(a.charged + b.charged).toBe(loanIds.length);
    expect(a.failed + b.failed).toBe(0);
    const repayments = await app.platform.db.selectFrom('loanRepayments').select(['loanId', 'reference', 'status', 'chargeReference']).where('loanId', 'in', loanIds).execute();
    expect(repayments).toHaveLength(loanIds.length);
    expect(new Set(repayments.map((r) => r.loanId)).size).toBe(loanIds.length);
    expect(repayments.every((r) => r.status === 'pending' && r.chargeReference !== null)).toBe(true);
    expect(sent.sort()).toEqual(repayments.map((r) => r.reference).sort());
  });
});
