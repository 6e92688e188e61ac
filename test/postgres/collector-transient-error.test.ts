import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment, type LendingTenant } from '../support/lifecycle';

/**
 * PostgreSQL only: a charge the rail took is never marked failed because applying it met a passing database error.
 * Here the collector's transaction is chosen as a deadlock's victim (SQLSTATE 40P01) while it applies a collected
 * charge: the repayment stays pending (the money was taken) and the next run applies it — never
 * `collected_but_not_applied`, which would send the borrower's money back as a refund while the instalment stayed due.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
const url = process.env.TEST_DATABASE_URL!;

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const stored = (id: string) => app.platform.db.selectFrom('loanRepayments').select(['status', 'failureReason']).where('id', '=', id).executeTakeFirstOrThrow();

describe('a collected charge whose application meets a passing database error', () => {
  it('stays pending when its transaction is a deadlock victim, and the next run applies it', async () => {
    const { loanId, repaymentId, amountKobo } = await pendingMandateRepayment(app, tenant);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ charged: 1, failed: 0 });
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);

    // Another transaction holds the loan's row; the collector claims the repayment and then waits for the loan.
    const other = new pg.Client({ connectionString: url, options: `-c search_path=${app.pgSchema}` });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select id from loans where id = $1 for update', [loanId]);
      const run = runCollections(app.platform, clock.now());
      const blocked = async () =>
        (await other.query('select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))')).rows[0].n as number;
      for (let waited = 0; (await blocked()) === 0; waited += 20) {
        if (waited > 10_000) throw new Error('the collector never waited for the loan');
        await new Promise((r) => setTimeout(r, 20));
      }
      // Now wait for the repayment the collector holds: a deadlock, which PostgreSQL breaks by failing the collector's
      // transaction (it waited first, so its deadlock check runs first).
      await other.query('update loan_repayments set updated_at = updated_at where id = $1', [repaymentId]);
      await other.query('rollback');
      const first = await run;
      expect(first).toMatchObject({ completed: 0, failed: 0 });
    } finally {
      await other.end();
    }
    expect(await stored(repaymentId)).toMatchObject({ status: 'pending' });

    expect(await runCollections(app.platform, clock.now())).toMatchObject({ completed: 1, failed: 0 });
    expect(await stored(repaymentId)).toMatchObject({ status: 'completed', failureReason: null });
    const after = (await api().get(`/v1/loans/${loanId}/schedule`)).body.data;
    expect(after[0].amountPaidKobo).toBe(amountKobo);
  }, 60_000);
});
