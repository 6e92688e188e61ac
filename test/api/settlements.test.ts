import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const settle = (until = clock.now()) => runSettlement(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until, now: clock.now() });

async function repaidLoan(amounts: number[]) {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  await api().post(`/v1/loans/${loan.id}/disburse`);
  const repayments = [];
  for (const amountKobo of amounts) repayments.push((await api().post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo })).body.data);
  return { loanId: loan.id as string, repayments };
}

describe('settlement statements', () => {
  it('sweeps fee and interest of the period into one statement with a line per loan; totals equal lines and ledger', async () => {
    const a = await repaidLoan([60_000, 40_000]);
    const b = await repaidLoan([250_000]);
    clock.advance(1000);
    const { statement, created } = await settle();
    expect(created).toBe(true);
    const expectedLine = (r: typeof a) => ({
      loanId: r.loanId,
      feeKobo: r.repayments.reduce((s, x) => s + x.feePortionKobo, 0),
      interestKobo: r.repayments.reduce((s, x) => s + x.interestPortionKobo, 0),
      repayments: r.repayments.length,
    });
    expect(statement.lines).toEqual([expectedLine(a), expectedLine(b)].sort((x, y) => x.loanId.localeCompare(y.loanId)));
    expect(statement.feeSweptKobo).toBe(statement.lines!.reduce((s, l) => s + l.feeKobo, 0));
    expect(statement.interestSweptKobo).toBe(statement.lines!.reduce((s, l) => s + l.interestKobo, 0));
    expect(statement.totalSweptKobo).toBe(statement.feeSweptKobo + statement.interestSweptKobo);
    expect(statement.status).toBe('completed');
    const transfer = await app.platform.db
      .selectFrom('ledgerPostings')
      .innerJoin('ledgerTransactions', 'ledgerTransactions.id', 'ledgerPostings.transactionId')
      .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.accountId')
      .select(['ledgerAccounts.kind', 'ledgerPostings.amountKobo'])
      .where('ledgerTransactions.reference', '=', statement.transferReference!)
      .execute();
    expect(transfer.find((p) => p.kind === 'organisation_wallet')!.amountKobo).toBe(-statement.totalSweptKobo);
    expect((await checkLedger(app.platform.db)).ok).toBe(true);

    const listed = await api().get('/v1/settlements');
    expect(listed.body.data[0]).toEqual(statement);
    expect((await api().get(`/v1/settlements/${statement.id}`)).body.data).toEqual(statement);
  });

  it('is idempotent for a period and never sweeps a repayment twice; an empty period is skipped', async () => {
    const again = await settle();
    expect(again.created).toBe(false);
    clock.advance(60_000);
    const empty = await settle();
    expect(empty.created).toBe(true);
    expect(empty.statement).toMatchObject({ status: 'skipped', totalSweptKobo: 0, lines: [] });
    await repaidLoan([30_000]);
    clock.advance(60_000);
    const next = await settle();
    expect(next.statement.lines).toHaveLength(1);
    expect(next.statement.periodStart).toBe(empty.statement.periodEnd);
  });

  it('serves the statement as RFC 4180 CSV with one header row and one row per loan, in kobo', async () => {
    const statement = (await api().get('/v1/settlements')).body.data.find((s: { status: string; lines: unknown[] }) => s.status === 'completed' && s.lines.length === 2);
    const res = await fetch(`${app.url}/v1/settlements/${statement.id}/csv`, { headers: { 'X-API-Public-Key': tenant.test.publicKey, 'X-API-Secret-Key': tenant.test.secretKey } });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await res.text();
    const rows = text.split('\r\n');
    expect(rows.at(-1)).toBe('');
    expect(rows[0]).toBe('statement_id,period_start,period_end,loan_id,fee_kobo,interest_kobo,total_kobo,repayments');
    expect(rows).toHaveLength(4);
    const totals = rows.slice(1, 3).map((r) => r.split(',')).reduce((s, cols) => s + Number(cols[6]), 0);
    expect(totals).toBe(statement.totalSweptKobo);
  });

  it('refuses a period end in the future', async () => {
    await expect(settle(new Date(clock.now().getTime() + 60_000))).rejects.toMatchObject({ status: 400 });
  });
});
