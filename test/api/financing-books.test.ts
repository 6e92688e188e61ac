import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { scopeBalances, type ScopeBalance } from '../../server/platform/domain/ledger/loan-books';
import { recordRepayment } from '../../server/platform/domain/repayments/record-repayment';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { runSettlement, settlementsDue, FINANCING_FEE_REVENUE, FINANCING_INTEREST_REVENUE } from '../../server/platform/domain/settlements/run-settlement';
import { listStatements, statementCsv } from '../../server/platform/domain/settlements/settlement';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { fundFinancingPool, initiatedApplication, signedFinancing } from '../support/financing';

/**
 * Whose books a loan's money is in. Patient financing is the service's loan: its receivable, collections,
 * income, write-off and recoveries are in the lender's scope and the repaid principal is back in the `FINANCING`
 * pool; the partner's scope holds only the treatment amount owed to it. Lending loans are the partner's own, written
 * off in its scope when they default. Random workloads check the books after every step.
 */
const DAY = 86_400_000;
const clock = new FakeClock('2026-11-26T09:00:00.000Z');
let app: TestApp;
let partner: Tenant;
let lending: LendingTenant;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { DEFAULT_AFTER_DAYS_OVERDUE: '20' } });
  partner = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  lending = await lendingTenant(app, { product: { lateFeeBps: 500 } });
  await fundFinancingPool(app, 2_000_000_000);
});
afterAll(() => app.stop());

const db = () => app.platform.db;
const balances = (organisationId: string) => scopeBalances(db(), { organisationId, mode: 'test' });
const balanceOf = (rows: ScopeBalance[], kind: string, code: string) => rows.find((r) => r.kind === kind && r.code === code)?.balanceKobo ?? 0;
const DISBURSED = ['active', 'completed', 'defaulted'];

/** Repays through the domain, as the partner's `external` repayment would (the partner has no lending API). */
async function repay(organisationId: string, loanId: string, amountKobo: number) {
  return inUnitOfWork(db(), async (trx) =>
    (await recordRepayment({ db: trx, platform: app.platform, now: clock.now(), scope: { organisationId, mode: 'test' }, actor: 'test' }, { loanId, method: 'external', amountKobo, externalReference: null })).repayment,
  );
}

async function sweepAndSettle(days: number) {
  clock.advance(days * DAY);
  await sweepArrears(db(), app.platform, clock.now());
  const until = clock.now();
  await runSettlement(db(), { organisationId: partner.organisationId, mode: 'test', until, now: until });
  await runSettlement(db(), { organisationId: FINANCING_LENDER_ID, mode: 'test', until, now: until });
  await runSettlement(db(), { organisationId: lending.organisationId, mode: 'test', until, now: until });
}

async function expectLedgerSound() {
  const check = await checkLedger(db());
  expect(check).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [], negativeGuardedAccounts: [] });
}

/** What the model remembers of each loan's default: the principal outstanding when it defaulted, and what came back since. */
interface Defaults {
  writtenOff: Map<string, number>;
  recovered: number;
}

/** Records loans newly defaulted by the last sweep with the principal they had then. */
async function noteDefaults(organisationId: string, model: Defaults) {
  const rows = await db().selectFrom('loans').select(['id', 'principalBalanceKobo']).where('organisationId', '=', organisationId).where('status', '=', 'defaulted').execute();
  for (const r of rows) if (!model.writtenOff.has(r.id)) model.writtenOff.set(r.id, Number(r.principalBalanceKobo));
}

/** Repays the `pick`-th of the loans still owing (active or defaulted), a fraction of what it owes. */
async function repayModelled(organisationId: string, ids: string[], pick: number, fraction: number, model: Defaults) {
  if (ids.length === 0) return;
  const owing = await db().selectFrom('loans').select(['id', 'status', 'outstandingKobo']).where('id', 'in', ids).where('status', 'in', ['active', 'defaulted']).orderBy('id').execute();
  const loan = owing[pick % Math.max(1, owing.length)];
  if (!loan) return;
  const amount = Math.max(1, Math.floor(Number(loan.outstandingKobo) * fraction));
  const repayment = await repay(organisationId, loan.id, amount);
  if (loan.status === 'defaulted') model.recovered += repayment.principalPortionKobo;
}

type Op =
  | { op: 'open' }
  | { op: 'initiate' }
  | { op: 'repay'; pick: number; fraction: number }
  | { op: 'time'; days: number };

/** A loan part-repaid, defaulted past the threshold (20 days in arrears), then recovered in part and in full. */
const DEFAULT_AND_RECOVER: Op[] = [
  { op: 'open' },
  { op: 'repay', pick: 0, fraction: 0.1 },
  { op: 'time', days: 40 },
  { op: 'time', days: 40 },
  { op: 'repay', pick: 0, fraction: 0.35 },
  { op: 'repay', pick: 0, fraction: 1 },
];

const ops = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.constant<Op>({ op: 'open' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ op: 'initiate' }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('repay' as const), pick: fc.nat(20), fraction: fc.constantFrom(0.1, 0.35, 0.5, 1) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('time' as const), days: fc.integer({ min: 1, max: 45 }) }) },
  ),
  { minLength: 4, maxLength: 9 },
);

describe('patient financing on the service\'s books', () => {
  const financingModel: Defaults = { writtenOff: new Map(), recovered: 0 };
  const financingLoans: string[] = [];

  async function expectFinancingBooks() {
    await expectLedgerSound();
    const lender = await balances(FINANCING_LENDER_ID);
    const loans = await db().selectFrom('loans').select(['id', 'status', 'principalBalanceKobo']).where('id', 'in', financingLoans.length ? financingLoans : ['none']).execute();
    const outstanding = loans.filter((l) => DISBURSED.includes(l.status)).reduce((s, l) => s + Number(l.principalBalanceKobo), 0);
    const funded = 0 - balanceOf(lender, 'capital_contributions', FINANCING_POOL_CODE);
    expect(balanceOf(lender, 'capital_pool', FINANCING_POOL_CODE)).toBe(funded - outstanding);
    for (const loan of loans) {
      const writtenOff = financingModel.writtenOff.get(loan.id);
      const open = DISBURSED.includes(loan.status) && writtenOff === undefined ? Number(loan.principalBalanceKobo) : 0;
      expect(balanceOf(lender, 'loan_receivable', loan.id)).toBe(open);
      expect(balanceOf(lender, 'loan_write_off', loan.id)).toBe(writtenOff ?? 0);
    }
    expect(balanceOf(lender, 'recovery_income', FINANCING_LENDER_ID)).toBe(0 - financingModel.recovered);
    // The partner's scope: no receivable, income, collections, write-off or recovery of the service's loans.
    const own = await balances(partner.organisationId);
    const foreign = own.filter((r) => ['loan_receivable', 'interest_income', 'fee_income', 'recovery_income', 'loan_write_off', 'rail_collections', 'external_collections'].includes(r.kind) && r.balanceKobo !== 0);
    expect(foreign).toEqual([]);
    // The treatment amounts are owed to the partner, nothing else.
    const treatment = (await db().selectFrom('loans').select('principalKobo').where('id', 'in', financingLoans.length ? financingLoans : ['none']).where('status', 'in', DISBURSED).execute()).reduce((s, l) => s + Number(l.principalKobo), 0);
    expect(balanceOf(own, 'organisation_wallet', partner.organisationId)).toBe(0 - treatment);
    // No partner statement (nor its CSV) ever names a financing loan.
    for (const statement of await listStatements(db(), { organisationId: partner.organisationId, mode: 'test' })) {
      const csv = statementCsv(statement);
      for (const id of financingLoans) expect(csv).not.toContain(id);
    }
  }

  it('a financing loan collected to completion on its mandate: the lender\'s statement shows its interest and fees, swept to the service\'s revenue', async () => {
    const { initiation } = await signedFinancing(app, partner);
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
    const loanId = initiation.sdkReference;
    financingLoans.push(loanId);
    // Close the lender's open period first, so the next statement holds this loan's collections only.
    const opened = clock.now();
    await runSettlement(db(), { organisationId: FINANCING_LENDER_ID, mode: 'test', until: opened, now: opened });
    const revenueBefore = await balances(FINANCING_LENDER_ID);
    const schedule = await db().selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loanId).orderBy('installmentNumber').execute();
    for (const row of schedule) {
      clock.set(new Date(Math.max(clock.now().getTime(), new Date(row.dueDate).getTime() + 1000)));
      await runCollections(app.platform, clock.now());
      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      await runCollections(app.platform, clock.now());
    }
    const loan = await db().selectFrom('loans').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();
    expect(loan.status).toBe('completed');
    const repayments = await db().selectFrom('loanRepayments').selectAll().where('loanId', '=', loanId).where('status', '=', 'completed').execute();
    const interest = repayments.reduce((s, r) => s + r.interestPortionKobo, 0);
    const fee = repayments.reduce((s, r) => s + r.feePortionKobo, 0);
    expect(interest).toBeGreaterThan(0);
    await expectFinancingBooks();

    clock.advance(1000);
    // The periodic run owes the service a statement for these repayments, and owes none of them to the partner.
    const due = await settlementsDue(db(), clock.now());
    expect(due).toContainEqual({ organisationId: FINANCING_LENDER_ID, mode: 'test' });
    expect(due).not.toContainEqual({ organisationId: partner.organisationId, mode: 'test' });
    const { statement, created } = await runSettlement(db(), { organisationId: FINANCING_LENDER_ID, mode: 'test', until: clock.now(), now: clock.now() });
    expect(created).toBe(true);
    const line = statement.lines?.find((l) => l.loanId === loanId);
    expect(line).toEqual({ loanId, interestKobo: interest, feeKobo: fee, repayments: repayments.length });
    expect(statementCsv(statement)).toContain(`${loanId},${fee},${interest},${fee + interest},${repayments.length}`);
    const after = await balances(FINANCING_LENDER_ID);
    expect(balanceOf(after, 'platform_revenue', FINANCING_INTEREST_REVENUE) - balanceOf(revenueBefore, 'platform_revenue', FINANCING_INTEREST_REVENUE)).toBe(-statement.interestSweptKobo);
    expect(balanceOf(after, 'platform_revenue', FINANCING_FEE_REVENUE) - balanceOf(revenueBefore, 'platform_revenue', FINANCING_FEE_REVENUE)).toBe(-statement.feeSweptKobo);
    expect(statement.interestSweptKobo).toBeGreaterThanOrEqual(interest);
    // Swept: the service's income accounts hold nothing unsettled, the rail collections hold interest and fees only.
    expect(balanceOf(after, 'interest_income', FINANCING_LENDER_ID)).toBe(0);
    expect(balanceOf(after, 'fee_income', FINANCING_LENDER_ID)).toBe(0);
    expect(balanceOf(after, 'rail_collections', loan.activeMandateId!)).toBe(interest + fee);
    // Idempotent per period; the partner's own statement for the same period names no financing loan.
    const again = await runSettlement(db(), { organisationId: FINANCING_LENDER_ID, mode: 'test', until: clock.now(), now: clock.now() });
    expect(again).toMatchObject({ created: false, statement: { id: statement.id } });
    const own = await runSettlement(db(), { organisationId: partner.organisationId, mode: 'test', until: clock.now(), now: clock.now() });
    expect(statementCsv(own.statement)).not.toContain(loanId);
    await expectLedgerSound();
  });

  it('random initiations, disbursements, part and full repayments, defaults and recoveries keep pool = funded − outstanding principal, with nothing of it in the partner\'s scope', { timeout: 600_000 }, async () => {
    await expectFinancingBooks();
    await fc.assert(
      fc.asyncProperty(ops, async (steps) => {
        for (const step of steps) {
          if (step.op === 'open') {
            const { initiation } = await signedFinancing(app, partner);
            clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
            const polled = await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
            expect(polled.body.data.applicationStatus).toBe('disbursed');
            financingLoans.push(initiation.sdkReference);
          } else if (step.op === 'initiate') {
            financingLoans.push((await initiatedApplication(app, partner)).initiation.sdkReference);
          } else if (step.op === 'repay') {
            await repayModelled(partner.organisationId, financingLoans, step.pick, step.fraction, financingModel);
          } else {
            await sweepAndSettle(step.days);
            await noteDefaults(partner.organisationId, financingModel);
          }
          await expectFinancingBooks();
        }
      }),
      { numRuns: 8, examples: [[DEFAULT_AND_RECOVER]] },
    );
    // The example above guarantees the interesting paths ran at least once.
    expect(financingModel.writtenOff.size).toBeGreaterThan(0);
    expect(financingModel.recovered).toBeGreaterThan(0);
  });
});

describe('lending loans written off in the partner\'s scope', () => {
  const model: Defaults = { writtenOff: new Map(), recovered: 0 };
  const loans: string[] = [];

  async function expectLendingBooks() {
    await expectLedgerSound();
    const own = await balances(lending.organisationId);
    const rows = await db().selectFrom('loans').select(['id', 'status', 'principalBalanceKobo', 'principalKobo']).where('id', 'in', loans.length ? loans : ['none']).execute();
    for (const loan of rows) {
      const writtenOff = model.writtenOff.get(loan.id);
      expect(balanceOf(own, 'loan_receivable', loan.id)).toBe(writtenOff === undefined ? Number(loan.principalBalanceKobo) : 0);
      expect(balanceOf(own, 'loan_write_off', loan.id)).toBe(writtenOff ?? 0);
    }
    expect(balanceOf(own, 'recovery_income', lending.organisationId)).toBe(0 - model.recovered);
    // A default moves no capital: the pool is what was funded less what was disbursed (external collections stay with the partner).
    const disbursed = rows.reduce((s, l) => s + Number(l.principalKobo), 0);
    expect(balanceOf(own, 'capital_pool', 'MAIN')).toBe(0 - balanceOf(own, "capital_contributions", "MAIN") - disbursed);
    // Nothing of a lending loan reaches the service's books.
    const lender = await balances(FINANCING_LENDER_ID);
    for (const id of loans) expect(lender.filter((r) => r.code === id)).toEqual([]);
  }

  it('random disbursements, repayments, defaults and recoveries: receivable → write-off at default, recoveries as recovery income, ledger sound', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (steps) => {
        for (const step of steps) {
          if (step.op === 'open' || step.op === 'initiate') {
            const { loan } = await acceptedLoan(app, lending, { amount: '100000' });
            const disbursed = await client(app, lending.test).post(`/v1/loans/${loan.id}/disburse`);
            expect(disbursed.status).toBe(200);
            loans.push(loan.id);
          } else if (step.op === 'repay') {
            await repayModelled(lending.organisationId, loans, step.pick, step.fraction, model);
          } else {
            await sweepAndSettle(step.days);
            await noteDefaults(lending.organisationId, model);
          }
          await expectLendingBooks();
        }
      }),
      { numRuns: 8, examples: [[DEFAULT_AND_RECOVER]] },
    );
    expect(model.writtenOff.size).toBeGreaterThan(0);
    expect(model.recovered).toBeGreaterThan(0);
  });
});
