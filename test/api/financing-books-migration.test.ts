import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { FakeClock } from '../../server/integrations/clock';
import { openDatabase, type Db } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { FINANCING_LENDER_ID, FINANCING_POOL_CODE, FINANCING_PRODUCT_ID } from '../../server/platform/domain/financing/financing-lender';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { postTransaction, type AccountKind, type LedgerAccount } from '../../server/platform/domain/ledger/ledger';
import { scopeBalances, type ScopeBalance } from '../../server/platform/domain/ledger/loan-books';
import { newId } from '../../server/platform/domain/ids';
import { recordRepayment } from '../../server/platform/domain/repayments/record-repayment';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';
import { client, createTenant, freshDatabaseEnv, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { fundFinancingPool, signedFinancing } from '../support/financing';

/**
 * Migration 0038 on a database made by the migrations before it: patient-financing loans booked the old way (receivable,
 * collections and income in the partner's scope, repaid principal never back in the pool), a defaulted financing loan
 * and a defaulted lending loan never written off. The migration corrects them with new transactions only.
 *
 * The loans are real ones, made by the running service (its own database); their rows are copied into a database
 * migrated up to 0037 (the migration before 0038), and their ledger is posted there the way the code before 0038 posted it.
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
  await fundFinancingPool(app, 1_000_000_000);
});
afterAll(() => app.stop());

async function disbursedFinancing(): Promise<string> {
  const { initiation } = await signedFinancing(app, partner);
  clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
  const polled = await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
  expect(polled.body.data.applicationStatus).toBe('disbursed');
  return initiation.sdkReference;
}

const repay = (organisationId: string, loanId: string, amountKobo: number) =>
  inUnitOfWork(app.platform.db, (trx) =>
    recordRepayment({ db: trx, platform: app.platform, now: clock.now(), scope: { organisationId, mode: 'test' }, actor: 'test' }, { loanId, method: 'external', amountKobo, externalReference: null }),
  );

/**
 * Copies rows, as they are, from the service's database into the old one, keeping only the columns the old schema
 * has (later migrations add columns the schema at 0037 does not know).
 */
async function copy(to: Db, schema: string | undefined, table: string, column: string, values: string[]) {
  if (values.length === 0) return;
  const snake = table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  // The table's columns in this schema alone (Kysely's introspection reads every schema, which other files change meanwhile).
  const names =
    schema === undefined
      ? (await sql<{ name: string }>`select name from pragma_table_info(${snake})`.execute(to)).rows
      : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = ${schema} and table_name = ${snake}`.execute(to)).rows;
  if (names.length === 0) throw new Error(`the old schema has no table ${snake}`);
  const columns = new Set(names.map((c) => c.name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())));
  const rows = await app.platform.db.selectFrom(table as 'loans').selectAll().where(column as 'id', 'in', values).execute();
  const older = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => columns.has(key))));
  if (older.length) await to.insertInto(table as 'loans').values(older as never).execute();
}

describe('migration 0038 re-attributes patient financing to the service\'s books', () => {
  it('moves receivable, income and collections to the lender, the repaid principal back to the pool, writes off defaulted loans, and edits no posted row', { timeout: 180_000 }, async () => {
    // The service makes the loans: a financing loan repaid in part (externally and on its mandate), defaulted, then
    // recovered in part; a lending loan defaulted; a financing loan repaid in part.
    const defaulted = await disbursedFinancing();
    const { loan: lendingLoan } = await acceptedLoan(app, lending, { amount: '100000' });
    expect((await client(app, lending.test).post(`/v1/loans/${lendingLoan.id}/disburse`)).status).toBe(200);
    await repay(partner.organisationId, defaulted, 2_000_000);
    // The first instalment's rest collected on the mandate; the others never paid.
    const [first] = await app.platform.db.selectFrom('loanScheduleItems').select('dueDate').where('loanId', '=', defaulted).orderBy('installmentNumber').execute();
    clock.set(new Date(new Date(first!.dueDate).getTime() + 1000));
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await runCollections(app.platform, clock.now());
    clock.advance(70 * DAY);
    await sweepArrears(app.platform.db, app.platform, clock.now());
    clock.advance(40 * DAY);
    await sweepArrears(app.platform.db, app.platform, clock.now());
    const statuses = await app.platform.db.selectFrom('loans').select(['id', 'status']).where('id', 'in', [defaulted, lendingLoan.id]).execute();
    expect(statuses.map((s) => s.status)).toEqual(['defaulted', 'defaulted']);
    await repay(partner.organisationId, defaulted, 1_000_000);
    const active = await disbursedFinancing();
    await repay(partner.organisationId, active, 1_500_000);

    const loanIds = [defaulted, active, lendingLoan.id];
    const loans = await app.platform.db.selectFrom('loans').selectAll().where('id', 'in', loanIds).execute();
    const repayments = await app.platform.db.selectFrom('loanRepayments').selectAll().where('loanId', 'in', loanIds).where('status', '=', 'completed').execute();
    expect(repayments.filter((r) => r.loanId === defaulted).map((r) => r.method).sort()).toEqual(['external', 'external', 'mandate']);

    // A database as it was before 0038, holding those loans.
    const database = await freshDatabaseEnv();
    const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL, sqliteFile: path.join(database.dataDir, 'old.sqlite'), pgSchema: database.pgSchema });
    try {
      const old = handle.db;
      await migrateToLatest(handle, database.pgSchema, '0037-languages');
      await copy(old, database.pgSchema, 'organisations', 'id', [partner.organisationId, lending.organisationId, FINANCING_LENDER_ID]);
      await copy(old, database.pgSchema, 'loanProducts', 'id', [...new Set(loans.map((l) => l.loanProductId))]);
      await copy(old, database.pgSchema, 'borrowers', 'id', loans.map((l) => l.borrowerId));
      await copy(old, database.pgSchema, 'preapprovals', 'id', loans.flatMap((l) => (l.preapprovalId ? [l.preapprovalId] : [])));
      await copy(old, database.pgSchema, 'loans', 'id', loanIds);
      await copy(old, database.pgSchema, 'financingApplications', 'id', [defaulted, active]);
      await copy(old, database.pgSchema, 'loanMandates', 'loanId', loanIds);
      await copy(old, database.pgSchema, 'loanRepayments', 'id', repayments.map((r) => r.id));

      // The ledger as the code before 0038 posted it: everything of the loan in the partner's scope.
      const at = clock.now();
      const accounts = new Map<string, LedgerAccount>();
      const account = async (organisationId: string, kind: AccountKind, code: string) => {
        const key = `${organisationId}|${kind}|${code}`;
        let found = accounts.get(key);
        if (!found) {
          const guarded = ['capital_pool', 'loan_receivable'].includes(kind);
          found = { id: newId(), kind, code, currency: 'NGN', balanceKobo: 0, allowNegative: !guarded };
          await old.insertInto('ledgerAccounts').values({ id: found.id, organisationId, mode: 'test', kind, code, currency: 'NGN', balanceKobo: 0, allowNegative: !guarded, createdAt: at.toISOString(), updatedAt: at.toISOString() }).execute();
          accounts.set(key, found);
        }
        return found;
      };
      const post = async (organisationId: string, reference: string, kind: string, legs: Array<[string, AccountKind, string, number]>) => {
        const postings = [];
        for (const [org, accountKind, code, amountKobo] of legs) if (amountKobo !== 0) postings.push({ account: await account(org, accountKind, code), amountKobo });
        await postTransaction(old, { organisationId, mode: 'test', reference, kind, postings, now: at });
      };
      const funded = 1_000_000_000;
      await post(FINANCING_LENDER_ID, 'pool-funding-financing', 'pool_funding', [[FINANCING_LENDER_ID, 'capital_pool', FINANCING_POOL_CODE, funded], [FINANCING_LENDER_ID, 'capital_contributions', FINANCING_POOL_CODE, -funded]]);
      await post(lending.organisationId, 'pool-funding-main', 'pool_funding', [[lending.organisationId, 'capital_pool', 'MAIN', funded], [lending.organisationId, 'capital_contributions', 'MAIN', -funded]]);
      for (const loan of loans) {
        const financing = loan.loanProductId === FINANCING_PRODUCT_ID;
        const org = loan.organisationId;
        await post(org, `DSB-${loan.id}`, 'disbursement', [
          financing ? [FINANCING_LENDER_ID, 'capital_pool', FINANCING_POOL_CODE, -loan.principalKobo] : [org, 'capital_pool', 'MAIN', -loan.principalKobo],
          [org, 'settlement_cash', loan.settlementDestination, loan.principalKobo],
          [org, 'loan_receivable', loan.id, loan.principalKobo],
          [org, 'organisation_wallet', org, -loan.principalKobo],
        ]);
      }
      for (const r of repayments) {
        const org = r.organisationId;
        await post(org, r.ledgerTransactionRef!, 'repayment', [
          r.method === 'mandate' ? [org, 'rail_collections', r.mandateId ?? 'rail', r.amountKobo] : [org, 'external_collections', org, r.amountKobo],
          [org, 'loan_receivable', r.loanId, -r.principalPortionKobo],
          [org, 'interest_income', org, -r.interestPortionKobo],
          [org, 'fee_income', org, -r.feePortionKobo],
        ]);
      }
      expect((await checkLedger(old)).ok).toBe(true);
      const postedBefore = await old.selectFrom('ledgerPostings').selectAll().orderBy('id').execute();
      const transactionsBefore = await old.selectFrom('ledgerTransactions').selectAll().orderBy('id').execute();

      await migrateToLatest(handle, database.pgSchema);

      // Nothing posted was edited or deleted: the old rows are all there as they were; only new ones were added.
      const postedAfter = await old.selectFrom('ledgerPostings').selectAll().execute();
      const byId = new Map(postedAfter.map((p) => [p.id, p]));
      for (const p of postedBefore) expect(byId.get(p.id)).toEqual(p);
      const transactionsAfter = await old.selectFrom('ledgerTransactions').selectAll().execute();
      const newRefs = transactionsAfter.filter((t) => !transactionsBefore.some((b) => b.id === t.id)).map((t) => t.reference).sort();
      expect(newRefs).toEqual([`REB-${active}`, `REB-${defaulted}`, `WOF-${defaulted}`, `WOF-${lendingLoan.id}`].sort());
      expect(await checkLedger(old)).toMatchObject({ ok: true, ledgerSumKobo: 0, balanceMismatches: [], negativeGuardedAccounts: [] });

      const balance = (rows: ScopeBalance[], kind: string, code: string) => rows.find((r) => r.kind === kind && r.code === code)?.balanceKobo ?? 0;
      const lender = await scopeBalances(old, { organisationId: FINANCING_LENDER_ID, mode: 'test' });
      const own = await scopeBalances(old, { organisationId: partner.organisationId, mode: 'test' });
      const loan = (id: string) => loans.find((l) => l.id === id)!;
      const sum = (id: string, pick: (r: (typeof repayments)[number]) => number) => repayments.filter((r) => r.loanId === id).reduce((s, r) => s + pick(r), 0);
      const financingIds = [defaulted, active];

      // The pool: funded − principal outstanding on the disbursed financing loans.
      expect(balance(lender, 'capital_pool', FINANCING_POOL_CODE)).toBe(funded - loan(active).principalBalanceKobo - loan(defaulted).principalBalanceKobo);
      // The active loan's receivable is the lender's; the defaulted one's outstanding principal is the lender's loss.
      expect(balance(lender, 'loan_receivable', active)).toBe(loan(active).principalBalanceKobo);
      expect(balance(lender, 'loan_receivable', defaulted)).toBe(0);
      expect(balance(lender, 'loan_write_off', defaulted)).toBe(loan(defaulted).principalBalanceKobo);
      expect(balance(lender, 'interest_income', FINANCING_LENDER_ID)).toBe(0 - financingIds.reduce((s, id) => s + sum(id, (r) => r.interestPortionKobo), 0));
      expect(balance(lender, 'fee_income', FINANCING_LENDER_ID)).toBe(0 - financingIds.reduce((s, id) => s + sum(id, (r) => r.feePortionKobo), 0));
      const mandateRepayment = repayments.find((r) => r.loanId === defaulted && r.method === 'mandate')!;
      expect(balance(lender, 'rail_collections', mandateRepayment.mandateId!)).toBe(mandateRepayment.interestPortionKobo + mandateRepayment.feePortionKobo);
      // The partner keeps the treatment amounts owed to it, and nothing of the loans.
      expect(own.filter((r) => r.balanceKobo !== 0 && !['organisation_wallet', 'settlement_cash'].includes(r.kind))).toEqual([]);
      expect(balance(own, 'organisation_wallet', partner.organisationId)).toBe(0 - loan(active).principalKobo - loan(defaulted).principalKobo);

      // The defaulted lending loan is written off in its partner's scope.
      const tenant = await scopeBalances(old, { organisationId: lending.organisationId, mode: 'test' });
      expect(balance(tenant, 'loan_receivable', lendingLoan.id)).toBe(0);
      expect(balance(tenant, 'loan_write_off', lendingLoan.id)).toBe(loan(lendingLoan.id).principalBalanceKobo);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
