import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { scopeBalances } from '../../server/platform/domain/ledger/loan-books';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant } from '../support/lifecycle';

/**
 * PostgreSQL only: the default sweep and repayments racing on the same loans. Whichever commits first, the books agree:
 * a repayment before the default reduces the receivable that is then written off; one after it is a recovery. So for
 * every defaulted loan the write-off plus the principal repaid equals the principal lent, the receivable is empty, and
 * recovery income is exactly the principal repaid after the write-off.
 */
const DAY = 86_400_000;
const clock = new FakeClock(new Date());
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock, env: { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000', DEFAULT_AFTER_DAYS_OVERDUE: '20' } });
});
afterAll(() => app.stop());

describe('default and write-off under concurrency', () => {
  it('repayments racing the default sweep: write-off + principal repaid = principal, recoveries only after the write-off', async () => {
    const tenant = await lendingTenant(app, { product: { lateFeeBps: 500 } });
    const api = client(app, tenant.test);
    const loans = [];
    for (let i = 0; i < 12; i++) {
      const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
      expect((await api.post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
      loans.push(loan.id as string);
    }
    clock.advance(35 * DAY);
    await sweepArrears(app.platform.db, app.platform, clock.now());
    clock.advance(30 * DAY);
    const answers = await Promise.all([
      sweepArrears(app.platform.db, app.platform, clock.now()),
      ...loans.map((id) => api.post(`/v1/loans/${id}/repayments`, { method: 'external', amountKobo: 3_000_000 })),
    ]);
    expect(answers.slice(1).every((r) => (r as { status: number }).status === 201)).toBe(true);
    await sweepArrears(app.platform.db, app.platform, clock.now());

    const rows = await app.platform.db.selectFrom('loans').select(['id', 'status', 'principalKobo', 'principalBalanceKobo']).where('id', 'in', loans).execute();
    // ₦30,000 clears no loan's arrears: every loan defaults, before or after its repayment.
    expect(rows.map((l) => l.status)).toEqual(rows.map(() => 'defaulted'));
    const books = await scopeBalances(app.platform.db, { organisationId: tenant.organisationId, mode: 'test' });
    const balance = (kind: string, code: string) => books.find((b) => b.kind === kind && b.code === code)?.balanceKobo ?? 0;
    const repayments = await app.platform.db.selectFrom('loanRepayments').select(['loanId', 'principalPortionKobo']).where('loanId', 'in', loans).execute();
    let recoveredPrincipal = 0;
    for (const loan of rows) {
      const repaid = repayments.filter((r) => r.loanId === loan.id).reduce((s, r) => s + r.principalPortionKobo, 0);
      const writtenOff = balance('loan_write_off', loan.id);
      expect(balance('loan_receivable', loan.id)).toBe(loan.status === 'defaulted' ? 0 : loan.principalBalanceKobo);
      expect(writtenOff).toBeGreaterThan(0);
      // Principal repaid before the write-off reduced it; what was repaid after it is recovered.
      const before = loan.principalKobo - writtenOff;
      expect(before === 0 || before === repaid).toBe(true);
      recoveredPrincipal += repaid - before;
    }
    expect(balance('recovery_income', tenant.organisationId)).toBe(0 - recoveredPrincipal);
    expect(await checkLedger(app.platform.db)).toMatchObject({ ok: true, balanceMismatches: [], negativeGuardedAccounts: [] });
  }, 180_000);
});
