import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { PaymentRailError } from '../../server/integrations/rails/payment-rail-error';
import { CHARGE_OUTCOME_UNKNOWN, runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import type { PaymentRail, PaymentRails } from '../../server/platform/domain/ports';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment as lendingPendingRepayment, type LendingTenant } from '../support/lifecycle';

/**
 * "A provider outage never leaves money half-moved": a charge whose outcome is unknown (the rail
 * timed out after — or before — taking it) is never read as failed. The repayment stays pending and
 * the next run looks the charge up by its reference: found, it is read back and applied; never
 * taken, it is sent again with the same reference. Either way the borrower is debited at most once.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let realRails: PaymentRails;

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  realRails = app.platform.rails;
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);

/** The sandbox rails, with `charge` failing as a timeout would: after the provider took the charge (`after`) or before (`before`). */
function railsTimingOut(when: 'after' | 'before', times = 1): { rails: PaymentRails; attempts: () => number } {
  let attempts = 0;
  const timeout = (rail: PaymentRail) =>
    new PaymentRailError(rail.name, 'rail_timeout', `${rail.name}: could not start the charge: no answer in time (the outcome is unknown).`, null, true, { outcomeUnknown: true });
  const rails: PaymentRails = {
    railFor(mode, name) {
      const rail = realRails.railFor(mode, name);
      if (!rail) return rail;
      return Object.assign(Object.create(rail) as PaymentRail, {
        async charge(request: Parameters<PaymentRail['charge']>[0]) {
          attempts += 1;
          if (attempts > times) return rail.charge(request);
          if (when === 'after') await rail.charge(request);
          throw timeout(rail);
        },
      });
    },
    approveInSandbox: (...args) => realRails.approveInSandbox(...args),
    liveRails: () => realRails.liveRails(),
  };
  return { rails, attempts: () => attempts };
}

const pendingMandateRepayment = () => lendingPendingRepayment(app, tenant);

const chargesFor = async (repaymentId: string) => {
  const { reference } = await app.platform.db.selectFrom('loanRepayments').select('reference').where('id', '=', repaymentId).executeTakeFirstOrThrow();
  return app.platform.db.selectFrom('sandboxRailCharges').selectAll().where('reference', '=', reference).execute();
};
const stored = (id: string) => app.platform.db.selectFrom('loanRepayments').select(['status', 'chargeReference', 'failureReason']).where('id', '=', id).executeTakeFirstOrThrow();

describe('a charge whose outcome is unknown', () => {
  it('when the rail times out after taking the charge, then the repayment stays pending, and the next run finds the charge by its reference and completes it: one debit', async () => {
    const { loanId, repaymentId, amountKobo } = await pendingMandateRepayment();
    const { rails } = railsTimingOut('after');
    app.platform.rails = rails;
    try {
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ charged: 0, failed: 0, unknown: 1 });
      expect(await stored(repaymentId)).toEqual({ status: 'pending', chargeReference: null, failureReason: CHARGE_OUTCOME_UNKNOWN });
      expect(await chargesFor(repaymentId)).toHaveLength(1);

      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ reconciled: 1, charged: 0, completed: 1, failed: 0 });
      const [charge] = await chargesFor(repaymentId);
      expect(await stored(repaymentId)).toEqual({ status: 'completed', chargeReference: charge!.chargeReference, failureReason: null });
      expect(await chargesFor(repaymentId)).toHaveLength(1);
      expect((await api().get(`/v1/loans/${loanId}`)).body.data.amountPaidKobo).toBe(amountKobo);
    } finally {
      app.platform.rails = realRails;
    }
  });

  it('when the rail timed out before taking the charge, then the next run finds nothing and sends it again with the same reference: one debit', async () => {
    const { loanId, repaymentId, amountKobo } = await pendingMandateRepayment();
    const { rails, attempts } = railsTimingOut('before');
    app.platform.rails = rails;
    try {
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ unknown: 1, failed: 0 });
      expect(await chargesFor(repaymentId)).toHaveLength(0);
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ reconciled: 0, charged: 1, failed: 0 });
      expect(attempts()).toBe(2);
      const charges = await chargesFor(repaymentId);
      expect(charges).toHaveLength(1);
      expect(await stored(repaymentId)).toEqual({ status: 'pending', chargeReference: charges[0]!.chargeReference, failureReason: null });
      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ completed: 1 });
      expect((await api().get(`/v1/loans/${loanId}`)).body.data.amountPaidKobo).toBe(amountKobo);
    } finally {
      app.platform.rails = realRails;
    }
  });

  it('when the mandate was cancelled while the outcome was unknown, then the taken charge is still found and applied (never marked failed)', async () => {
    const { loanId, repaymentId, amountKobo } = await pendingMandateRepayment();
    app.platform.rails = railsTimingOut('after').rails;
    try {
      await runCollections(app.platform, clock.now());
    } finally {
      app.platform.rails = realRails;
    }
    await app.platform.db.updateTable('loanMandates').set({ status: 'cancelled' }).where('loanId', '=', loanId).execute();
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ reconciled: 1, completed: 1, failed: 0 });
    expect(await stored(repaymentId)).toMatchObject({ status: 'completed' });
    expect((await api().get(`/v1/loans/${loanId}`)).body.data.amountPaidKobo).toBe(amountKobo);
  });

  it('a plain refusal is still a failure (the outcome is known)', async () => {
    const { repaymentId } = await pendingMandateRepayment();
    const refusing: PaymentRails = {
      ...realRails,
      railFor: (mode, name) => {
        const rail = realRails.railFor(mode, name)!;
        return Object.assign(Object.create(rail) as PaymentRail, {
          charge: async () => Promise.reject(new PaymentRailError(rail.name, 'authorisation_not_active', 'refused', 422, false)),
        });
      },
      approveInSandbox: (...args) => realRails.approveInSandbox(...args),
      liveRails: () => realRails.liveRails(),
    };
    app.platform.rails = refusing;
    try {
      expect(await runCollections(app.platform, clock.now())).toMatchObject({ failed: 1, unknown: 0 });
    } finally {
      app.platform.rails = realRails;
    }
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^charge_refused/) });
  });
});
