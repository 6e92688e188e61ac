import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { SandboxRailAdapter } from '../../server/integrations/rails/sandbox-rail-adapter';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { CHARGE_OUTCOME_UNKNOWN, runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { uniquePhone } from '../support/checkout';
import { borrowerClient, lentLoan, mintBorrowerSession } from '../support/borrower-loans';

/** The rail answers a second after a charge (its default lag): the request answers 202 and the collector finishes the job. */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app, { product: { earlySettlement: { interest: 'to_date', feeBps: 50 } } });
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const key = () => ({ 'idempotency-key': `later-${Math.random().toString(36).slice(2)}` });
const collectLater = async () => {
  clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
  return runCollections(app.platform, clock.now());
};

async function borrowerFor() {
  const { loan } = await lentLoan(app, tenant, uniquePhone());
  return { loan, borrower: borrowerClient(app, (await mintBorrowerSession(app, tenant.test, loan.id)).token) };
}

describe('payments the bank answers later', () => {
  it('pay now answers 202 pending; the collector applies it once the rail has taken it', async () => {
    const { loan, borrower } = await borrowerFor();
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 15_000 }, key());
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'pending', outstandingKobo: loan.outstandingKobo });
    // While it is in flight another payment is refused, not charged twice.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 15_000 }, key())).body.error).toBe('payment_in_progress');
    expect(await collectLater()).toMatchObject({ completed: 1 });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ amountPaidKobo: 15_000, outstandingKobo: loan.outstandingKobo - 15_000 });
  });

  it('a settlement charge completed by the collector still takes the waiver off: the loan completes and the ledger balances', async () => {
    const { loan, borrower } = await borrowerFor();
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    const paying = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key());
    expect(paying.status).toBe(202);
    expect(paying.body.data.quote.status).toBe('paying');
    expect(await collectLater()).toMatchObject({ completed: 1 });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'completed', outstandingKobo: 0, amountPaidKobo: quote.totalKobo, hasActiveMandate: false });
    expect((await borrower.get(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}`)).body.data.status).toBe('paid');
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['loan.settlement_quote.paid', 'loan.completed']));
    expect((await checkLedger(app.platform.db)).ok).toBe(true);
  });

  it('a charge whose outcome is unknown stays pending for the collector to look up, never read as refused', async () => {
    const { loan, borrower } = await borrowerFor();
    const unknown = vi.spyOn(SandboxRailAdapter.prototype, 'charge').mockRejectedValueOnce(Object.assign(new Error('timeout'), { outcomeUnknown: true }));
    try {
      const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 12_000 }, key());
      expect(res.status).toBe(202);
    } finally {
      unknown.mockRestore();
    }
    const [pending] = await app.platform.db.selectFrom('loanRepayments').selectAll().where('loanId', '=', loan.id).execute();
    expect(pending).toMatchObject({ status: 'pending', failureReason: CHARGE_OUTCOME_UNKNOWN, amountKobo: 12_000 });
    // The rail never took it: the collector sends it again with the same reference, once, and it completes.
    await runCollections(app.platform, clock.now());
    await collectLater();
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo).toBe(12_000);
  });
});
