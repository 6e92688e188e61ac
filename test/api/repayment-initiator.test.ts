import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { newId } from '../../server/platform/domain/ids';
import { createOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createProduct } from '../../server/platform/domain/products/product';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { onRailNotification } from '../../server/platform/domain/mandates/rail-notification';
import type { RailName } from '../../server/platform/domain/ports';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { client, freshDatabaseEnv, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { uniquePhone } from '../support/checkout';
import { borrowerClient, lentLoan, mintBorrowerSession } from '../support/borrower-loans';

/**
 * Every repayment says who started it (`initiatedBy`: `schedule` | `borrower` | `partner`), and a borrower's payment
 * the bank decides after their request answered gets its receipt text when the collector (or the rail's notification)
 * applies it — once; scheduled debits get none. The sandbox rail here leaves a charge `processing` for a minute of the
 * fake clock, so a pay-now answers 202 and only a later read-back applies it.
 */
const LAG_MS = 60_000;
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock, env: { RAIL_CHARGE_LAG_MS: String(LAG_MS) } });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const inbox = async (phone: string) => (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;
const receiptsFor = async (phone: string, reference: string) => (await inbox(phone)).filter((m) => m.body.includes(`ref ${reference}`));
const key = () => ({ 'idempotency-key': `pay-${Math.random().toString(36).slice(2)}` });
const repaymentsOf = async (loanId: string) => (await api().get(`/v1/loans/${loanId}/repayments`)).body.data as Array<Record<string, any>>;
const completedEvents = async (loanId: string) =>
  (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.repayment.completed' && e.data.loanId === loanId).map((e) => e.data);
/** Lets the rail decide (the charge lag passes on the fake clock). */
const afterTheLag = () => clock.advance(LAG_MS + 1);

/** A borrower's pay-now the bank has not decided: 202 `pending`, no receipt yet. */
async function pendingPayNow(phone: string, amountKobo = 10_000) {
  const { loan, mandateId } = await lentLoan(app, tenant, phone);
  const borrower = borrowerClient(app, (await mintBorrowerSession(app, tenant.test, loan.id)).token);
  const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo }, key());
  expect(res.status).toBe(202);
  expect(res.body.data).toMatchObject({ status: 'pending', amountKobo, outstandingKobo: loan.outstandingKobo });
  return { loan, mandateId, payment: res.body.data as { repaymentId: string; reference: string } };
}

describe('who started a repayment', () => {
  it('a pay-now reads initiatedBy borrower while pending and once applied, and its event says so', async () => {
    const phone = uniquePhone();
    const { loan, payment } = await pendingPayNow(phone);
    expect(await repaymentsOf(loan.id)).toEqual([expect.objectContaining({ id: payment.repaymentId, method: 'mandate', status: 'pending', initiatedBy: 'borrower' })]);
    afterTheLag();
    await runCollections(app.platform, clock.now());
    expect(await repaymentsOf(loan.id)).toEqual([expect.objectContaining({ id: payment.repaymentId, status: 'completed', initiatedBy: 'borrower' })]);
    expect(await completedEvents(loan.id)).toEqual([expect.objectContaining({ repaymentId: payment.repaymentId, method: 'mandate', initiatedBy: 'borrower' })]);
  });

  it('the collector\'s debit of a due instalment reads schedule (event too), and texts no receipt', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const first = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data[0] as { dueDate: string; totalKobo: number };
    clock.set(new Date(Date.parse(first.dueDate) + 60_000));
    expect((await runCollections(app.platform, clock.now())).scheduled).toBeGreaterThanOrEqual(1);
    afterTheLag();
    await runCollections(app.platform, clock.now());
    const [debit] = await repaymentsOf(loan.id);
    expect(debit).toMatchObject({ method: 'mandate', status: 'completed', amountKobo: first.totalKobo, initiatedBy: 'schedule' });
    expect(await completedEvents(loan.id)).toEqual([expect.objectContaining({ repaymentId: debit!.id, initiatedBy: 'schedule' })]);
    // Give a stray text time to arrive: none does.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await receiptsFor(phone, debit!.reference)).toHaveLength(0);
  });

  it('what the partner records (external) or asks the mandate for reads partner (event too); its charge texts no receipt', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const external = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 5_000, externalReference: `ext-${newId()}` });
    expect(external.status).toBe(201);
    expect(external.body.data).toMatchObject({ method: 'external', status: 'completed', initiatedBy: 'partner' });
    const charged = await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 7_000 });
    expect(charged.status).toBe(201);
    expect(charged.body.data).toMatchObject({ method: 'mandate', status: 'pending', initiatedBy: 'partner' });
    await runCollections(app.platform, clock.now());
    afterTheLag();
    await runCollections(app.platform, clock.now());
    expect((await repaymentsOf(loan.id)).map((r) => [r.method, r.status, r.initiatedBy])).toEqual([
      ['external', 'completed', 'partner'],
      ['mandate', 'completed', 'partner'],
    ]);
    expect((await completedEvents(loan.id)).map((e) => e.initiatedBy)).toEqual(['partner', 'partner']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await receiptsFor(phone, charged.body.data.reference)).toHaveLength(0);
  });

  it('the dashboard\'s loan page carries it for every repayment', async () => {
    const { loan, payment } = await pendingPayNow(uniquePhone());
    const timeline = await import('../../server/platform/domain/loans/loan-timeline');
    const page = await timeline.getLoanTimeline(app.platform.db, app.platform.dialect, app.platform, { organisationId: tenant.organisationId, mode: 'test' }, loan.id, clock.now());
    expect(page.repayments).toEqual([expect.objectContaining({ id: payment.repaymentId, initiatedBy: 'borrower' })]);
  });
});

describe('the receipt of a payment the bank decides later', () => {
  it('pay now answers 202 with no text; the collector applies it and exactly one receipt arrives, with what is still owed', async () => {
    const phone = uniquePhone();
    const { loan, payment } = await pendingPayNow(phone);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await receiptsFor(phone, payment.reference)).toHaveLength(0);
    // Still undecided: the collector reads it back and leaves it pending, no text.
    await runCollections(app.platform, clock.now());
    expect((await repaymentsOf(loan.id))[0]!.status).toBe('pending');

    afterTheLag();
    expect((await runCollections(app.platform, clock.now())).completed).toBeGreaterThanOrEqual(1);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.outstandingKobo).toBe(loan.outstandingKobo - 10_000);
    const owed = ((loan.outstandingKobo - 10_000) / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 });
    await expect.poll(async () => (await receiptsFor(phone, payment.reference)).length).toBe(1);
    expect((await receiptsFor(phone, payment.reference))[0]!.body).toContain(`payment of NGN 100.00 received, ref ${payment.reference}. Still owed: NGN ${owed}.`);

    // Later runs find nothing pending: still one receipt.
    await runCollections(app.platform, clock.now());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await receiptsFor(phone, payment.reference)).toHaveLength(1);
    expect((await checkLedger(app.platform.db)).ok).toBe(true);
  });

  it('paying off with a quote the bank decides later: the collector applies it and the one receipt says the loan is fully paid', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const borrower = borrowerClient(app, (await mintBorrowerSession(app, tenant.test, loan.id)).token);
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    const paying = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key());
    expect(paying.status).toBe(202);
    const [charge] = await repaymentsOf(loan.id);
    expect(charge).toMatchObject({ status: 'pending', initiatedBy: 'borrower' });
    afterTheLag();
    await runCollections(app.platform, clock.now());
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'completed', outstandingKobo: 0 });
    await expect.poll(async () => (await receiptsFor(phone, charge!.reference)).length).toBe(1);
    expect((await receiptsFor(phone, charge!.reference))[0]!.body).toMatch(/Your loan is fully paid\. Thank you\.$/);
  });

  it('the rail\'s notification applies it first: one receipt, and the collector after it sends none', async () => {
    const phone = uniquePhone();
    const { loan, mandateId, payment } = await pendingPayNow(phone, 12_000);
    const row = await app.platform.db.selectFrom('loanRepayments').select('chargeReference').where('id', '=', payment.repaymentId).executeTakeFirstOrThrow();
    const mandate = await app.platform.db.selectFrom('loanMandates').select('provider').where('id', '=', mandateId).executeTakeFirstOrThrow();
    afterTheLag();
    expect(await onRailNotification(app.platform, mandate.provider as RailName, 'test', { kind: 'charge', reference: row.chargeReference! }, clock.now())).toBe('read_back');
    expect((await repaymentsOf(loan.id))[0]).toMatchObject({ status: 'completed', initiatedBy: 'borrower' });
    await expect.poll(async () => (await receiptsFor(phone, payment.reference)).length).toBe(1);
    await runCollections(app.platform, clock.now());
    expect(await onRailNotification(app.platform, mandate.provider as RailName, 'test', { kind: 'charge', reference: row.chargeReference! }, clock.now())).toBe('unknown_reference');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await receiptsFor(phone, payment.reference)).toHaveLength(1);
  });
});

describe('migration 0061', () => {
  it('backfills existing repayments: mandate → schedule, a charge that paid a settlement quote → borrower, every other method → partner', async () => {
    const database = await freshDatabaseEnv();
    const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL, sqliteFile: path.join(database.dataDir, 'old.sqlite'), pgSchema: database.pgSchema });
    try {
      await migrateToLatest(handle, database.pgSchema, '0060-borrower-reminders');
      const db = handle.db;
      const now = new Date();
      const at = now.toISOString();
      const org = await createOrganisation(db, { name: 'Old Lender', now });
      const product = await createProduct(db, {
        organisationId: org.id,
        input: { code: 'OLD', name: 'Old', kycTier: 'delegated', approvalMode: 'partner_pushed', interestModel: 'flat', interestRateBps: 3600, minAmountKobo: 1, maxAmountKobo: 1e12, minTenorDays: 1, maxTenorDays: 365, settlementDestination: 'borrower_bank_account', capitalPoolCode: 'MAIN' },
        now,
      });
      const borrowerId = newId();
      await db.insertInto('borrowers').values({ id: borrowerId, organisationId: org.id, mode: 'test', clientReference: null, firstName: 'Ada', lastName: 'Obi', phone: '+2348012345678', email: null, bvnHash: null, ninHash: null, legacyNin: null, identityStatus: 'unclaimed', linkedAt: null, userId: null, createdAt: at, updatedAt: at }).execute();
      const loanId = newId();
      await db.insertInto('loans').values({
        id: loanId, organisationId: org.id, mode: 'test', borrowerId, loanProductId: product.id, preapprovalId: null, status: 'active', approvalMode: 'partner_pushed', kycTier: 'delegated',
        settlementDestination: 'borrower_bank_account', capitalPoolCode: 'MAIN', currency: 'NGN', tenorDays: 90, repaymentFrequency: 'monthly', interestRateBps: 3600,
        amountRequestedKobo: 1_000_000, principalKobo: 1_000_000, principalBalanceKobo: 1_000_000, amountPaidKobo: 0, outstandingKobo: 1_090_000, disbursedAmountKobo: 1_000_000,
        disbursedAt: at, disbursementReference: null, approvedAt: at, approvalNotes: null, rejectionReason: null, termsAcceptedAt: at, offerLetterIssuedAt: at, pricingSnapshotId: null,
        documentReference: null, offerVersion: 1, activeMandateId: null, hasActiveMandate: false, applicationUrl: null, clientReference: null, metadata: null, cancelledBy: null,
        cancellationReason: null, cancelledAt: null, declineReason: null, inArrears: false, arrearsSince: null, createdAt: at, updatedAt: at,
      }).execute();
      const ids: Record<string, string> = {};
      for (const [name, method] of [['debit', 'mandate'], ['payoff', 'mandate'], ['external', 'external'], ['cashWallet', 'cash_wallet'], ['wallet', 'wallet']] as const) {
        ids[name] = newId();
        // Written as the table was before 0061: no initiated_by.
        await db
          .insertInto('loanRepayments')
          .values({
            id: ids[name]!, organisationId: org.id, mode: 'test', loanId, borrowerId, reference: `RPY-${newId()}`, method, status: 'completed', amountKobo: 1_000, unallocatedKobo: 0,
            feePortionKobo: 0, interestPortionKobo: 0, principalPortionKobo: 1_000, externalReference: null, ledgerTransactionRef: null, completedAt: at, settlementId: null,
            mandateId: null, chargeReference: null, failureReason: null, createdAt: at, updatedAt: at,
          } as never)
          .execute();
      }
      await db.insertInto('settlementQuotes').values({
        id: newId(), organisationId: org.id, mode: 'test', loanId, sessionId: null, interestRule: 'to_date', feeBps: 0, totalKobo: 1_000, principalKobo: 1_000, interestKobo: 0, feeKobo: 0,
        settlementFeeKobo: 0, waivedKobo: 0, amountPaidKobo: 0, settledInstalments: '[]', validUntil: at, status: 'paid', repaymentId: ids.payoff!, paidAt: at, createdAt: at, updatedAt: at,
      }).execute();

      await migrateToLatest(handle, database.pgSchema);

      const rows = await db.selectFrom('loanRepayments').select(['id', 'initiatedBy']).execute();
      const by = Object.fromEntries(rows.map((r) => [r.id, r.initiatedBy]));
      expect(by).toEqual({ [ids.debit!]: 'schedule', [ids.payoff!]: 'borrower', [ids.external!]: 'partner', [ids.cashWallet!]: 'partner', [ids.wallet!]: 'partner' });
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
