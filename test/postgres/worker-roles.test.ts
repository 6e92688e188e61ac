import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/webhooks';
import { startPostgresProxy } from '../support/postgres-proxy';

/**
 * Process roles on one PostgreSQL: one `api` process and two `worker` processes (real child processes
 * of the `npm start` bundle). The api process runs no job; the two workers together do each job once.
 * The database is seeded (and read back) through an in-process platform that runs no job either.
 */
let app: TestApp;
let tenant: LendingTenant;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
const running: ServiceProcess[] = [];

const fast = {
  BOOTSTRAP_SANDBOX: 'false',
  EXPIRY_SWEEP_INTERVAL_MS: '100',
  COLLECTION_INTERVAL_MS: '100',
  ARREARS_SWEEP_INTERVAL_MS: '100',
  SETTLEMENT_INTERVAL_MS: '1000',
  APPOINTMENT_SWEEP_INTERVAL_MS: '1000',
  RAIL_CHARGE_LAG_MS: '200',
  WEBHOOK_POLL_INTERVAL_MS: '50',
};

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  bundle = await buildServiceBundle(`roles-${path.basename(app.dataDir)}`);
}, 60_000);
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  bundle?.remove();
  await app?.stop();
});

async function start(env: Record<string, string>, args: string[] = []): Promise<ServiceProcess> {
  const p = await startServiceProcess(bundle.file, { ...app.env, ...fast, ...env }, args);
  running.push(p);
  return p;
}

const api = () => client(app, tenant.test);
const db = () => app.platform.db;

async function mandatedLoan() {
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const mandate = (await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
  expect((await api().post(`/v1/test/mandates/${mandate.id}/simulate-activation`)).body.data.status).toBe('active');
  expect((await api().post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
  return loan.id as string;
}

async function probe(url: string, route: '/healthz' | '/readyz') {
  const res = await fetch(`${url}${route}`);
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } };
}

describe('one api process and two worker processes on one PostgreSQL', () => {
  let apiProcess: ServiceProcess;
  let workers: ServiceProcess[];
  const preapprovalIds: string[] = [];
  const loanIds: string[] = [];

  it('the api process serves the API and runs no job, even with every job due', async () => {
    // Due work for every job: 40 lapsed pre-approvals, 6 loans with a due instalment and an active mandate.
    for (let i = 0; i < 40; i += 10) {
      const pushed = await Promise.all(Array.from({ length: 10 }, () => api().post('/v1/preapprovals', pushBody())));
      for (const p of pushed) {
        expect(p.status).toBe(202);
        preapprovalIds.push(p.body.data.preapprovalId);
      }
    }
    for (let i = 0; i < 6; i += 1) loanIds.push(await mandatedLoan());
    const past = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('preapprovals').set({ expiresAt: past }).where('id', 'in', preapprovalIds).execute();
    await db().updateTable('loanScheduleItems').set({ dueDate: past }).where('loanId', 'in', loanIds).where('installmentNumber', '=', 1).execute();

    apiProcess = await start({}, ['--role', 'api']);
    expect(apiProcess.output()).toMatch(/role api: listening on http:\/\/[\d.:]+ \(docs at .*; no background jobs\)/);
    expect((await fetch(`${apiProcess.url}/v1/products`, { headers: { Authorization: `ApiKey ${tenant.test.publicKey}:${tenant.test.secretKey}` } })).status).toBe(200);
    expect(await probe(apiProcess.url, '/readyz')).toMatchObject({ status: 200, body: { data: { status: 'ready', role: 'api', database: 'postgres' } } });
    // Twenty job intervals later: nothing expired, nothing scheduled, charged or swept.
    await new Promise((r) => setTimeout(r, 2_000));
    const received = await db().selectFrom('preapprovals').select(sql<number>`count(*)`.as('n')).where('id', 'in', preapprovalIds).where('status', '=', 'received').executeTakeFirstOrThrow();
    expect(Number(received.n)).toBe(40);
    expect(await db().selectFrom('loanRepayments').select('id').where('loanId', 'in', loanIds).execute()).toEqual([]);
    expect(await db().selectFrom('loanScheduleItems').select('status').where('loanId', 'in', loanIds).where('installmentNumber', '=', 1).where('status', '!=', 'pending').execute()).toEqual([]);
  }, 90_000);

  it('two worker processes (--role and PROCESS_ROLE) serve only the probes', async () => {
    // One charges the sandbox rail through the API processes (PUBLIC_BASE_URL, as behind a load balancer), one through its own listener.
    workers = [await start({ PUBLIC_BASE_URL: apiProcess.url }, ['--role=worker']), await start({ PROCESS_ROLE: 'worker' })];
    for (const w of workers) {
      expect(w.output()).toMatch(/role worker: listening on http:\/\/[\d.:]+ \(\/healthz and \/readyz only; all background jobs\)/);
      expect(await probe(w.url, '/healthz')).toMatchObject({ status: 200, body: { data: { status: 'ok', role: 'worker' } } });
      expect(await probe(w.url, '/readyz')).toMatchObject({ status: 200, body: { data: { status: 'ready', role: 'worker' } } });
      expect((await fetch(`${w.url}/v1/products`, { headers: { Authorization: `ApiKey ${tenant.test.publicKey}:${tenant.test.secretKey}` } })).status).toBe(404);
      expect((await fetch(`${w.url}/checkout/`)).status).toBe(404);
    }
  }, 60_000);

  it('expire each lapsed pre-approval once, with one event each', async () => {
    await waitFor(async () => {
      const left = await db().selectFrom('preapprovals').select('id').where('id', 'in', preapprovalIds).where('status', '!=', 'expired').execute();
      return left.length === 0;
    }, 'every pre-approval expired', 20_000);
    // Then 100 more lapse at once while both workers' sweeps run.
    const more: string[] = [];
    for (let i = 0; i < 100; i += 20) {
      const pushed = await Promise.all(Array.from({ length: 20 }, () => api().post('/v1/preapprovals', pushBody())));
      more.push(...pushed.map((p) => p.body.data.preapprovalId as string));
    }
    await db().updateTable('preapprovals').set({ expiresAt: new Date(Date.now() - 1_000).toISOString() }).where('id', 'in', more).execute();
    preapprovalIds.push(...more);
    await waitFor(async () => (await db().selectFrom('preapprovals').select('id').where('id', 'in', preapprovalIds).where('status', '!=', 'expired').execute()).length === 0, 'the second batch expired', 20_000);
    await new Promise((r) => setTimeout(r, 500));
    const events = await db().selectFrom('events').select('payload').where('organisationId', '=', tenant.organisationId).where('name', '=', 'preapproval.expired').execute();
    const ids = events.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).preapprovalId as string);
    expect(ids.sort()).toEqual([...preapprovalIds].sort());
  }, 60_000);

  it('charge each due instalment once through its mandate', async () => {
    const allPaid = (ids: string[]) =>
      waitFor(async () => {
        const paid = await db().selectFrom('loanScheduleItems').select('id').where('loanId', 'in', ids).where('installmentNumber', '=', 1).where('status', '=', 'paid').execute();
        return paid.length === ids.length;
      }, 'every first instalment paid', 30_000);
    await allPaid(loanIds);
    // Then 20 more loans fall due at once while both workers' collectors run: both list them in the same ticks.
    const more: string[] = [];
    for (let i = 0; i < 20; i += 1) more.push(await mandatedLoan());
    await db().updateTable('loanScheduleItems').set({ dueDate: new Date(Date.now() - 60_000).toISOString() }).where('loanId', 'in', more).where('installmentNumber', '=', 1).execute();
    loanIds.push(...more);
    await allPaid(loanIds);
    // A few more collector runs in both workers: still one charge per loan.
    await new Promise((r) => setTimeout(r, 1_000));
    const repayments = await db().selectFrom('loanRepayments').select(['loanId', 'status', 'reference']).where('loanId', 'in', loanIds).execute();
    expect(repayments).toHaveLength(loanIds.length);
    expect(new Set(repayments.map((r) => r.loanId)).size).toBe(loanIds.length);
    expect(repayments.every((r) => r.status === 'completed')).toBe(true);
    // One charge at the rail per repayment (the sandbox rail keeps one charge per reference).
    const charges = await db().selectFrom('sandboxRailCharges').select('reference').where('reference', 'in', repayments.map((r) => r.reference)).execute();
    expect(charges).toHaveLength(loanIds.length);
    const completed = await db().selectFrom('events').select('payload').where('organisationId', '=', tenant.organisationId).where('name', '=', 'loan.repayment.completed').execute();
    expect(completed).toHaveLength(loanIds.length);
  }, 90_000);

  it('settle a whole day once', async () => {
    // The collected repayments move to yesterday: the settlement workers now have a whole UTC day to settle.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await db().updateTable('loanRepayments').set({ completedAt: yesterday }).where('loanId', 'in', loanIds).execute();
    await waitFor(async () => (await db().selectFrom('settlementStatements').select('id').where('organisationId', '=', tenant.organisationId).execute()).length > 0, 'a settlement statement', 20_000);
    // Both workers' settlement runs tick every second: give each a few more chances to settle again.
    await new Promise((r) => setTimeout(r, 3_000));
    const statements = await db().selectFrom('settlementStatements').selectAll().where('organisationId', '=', tenant.organisationId).execute();
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ mode: 'test', status: 'completed' });
    const stamped = await db().selectFrom('loanRepayments').select('settlementId').where('loanId', 'in', loanIds).execute();
    expect(stamped.every((r) => r.settlementId === statements[0]!.id)).toBe(true);
    const transfers = await db().selectFrom('ledgerTransactions').select('id').where('organisationId', '=', tenant.organisationId).where('kind', '=', 'settlement').execute();
    expect(transfers).toHaveLength(1);
  }, 40_000);

  it('are not ready while a known migration is not applied (503 migrations_pending), and live all along', async () => {
    const [last] = (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(db())).rows;
    await sql`delete from kysely_migration where name = ${last!.name}`.execute(db());
    try {
      for (const p of [apiProcess, ...workers]) {
        const ready = await probe(p.url, '/readyz');
        expect(ready).toMatchObject({ status: 503, body: { data: { reason: 'migrations_pending', pending: [last!.name] } } });
        expect(await probe(p.url, '/healthz')).toMatchObject({ status: 200 });
      }
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${last!.timestamp})`.execute(db());
    }
    for (const p of [apiProcess, ...workers]) expect((await probe(p.url, '/readyz')).status).toBe(200);
  });

  it('drain in order on SIGTERM: each exits 0', async () => {
    for (const p of [apiProcess, ...workers]) p.kill('SIGTERM');
    for (const p of [apiProcess, ...workers]) expect(await p.exit).toBe(0);
  }, 30_000);
});

describe('readiness when PostgreSQL is unreachable', () => {
  it('a worker answers /readyz 503 database_unavailable (and /healthz 200) while the database is cut off, and 200 once it is back', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = await startPostgresProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(app.env.DATABASE_URL!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const worker = await start({ DATABASE_URL: viaProxy.toString() }, ['--role', 'worker']);
    expect((await probe(worker.url, '/readyz')).status).toBe(200);

    await proxy.cut();
    const cut = await probe(worker.url, '/readyz').catch(async (error) => {
      await new Promise((r) => setTimeout(r, 300));
      console.log(worker.output().slice(-3000));
      throw error;
    });
    expect(cut).toMatchObject({ status: 503, body: { data: { reason: 'database_unavailable' } } });
    expect(await probe(worker.url, '/healthz')).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    // Its jobs fail and retry meanwhile; the process stays up.
    await new Promise((r) => setTimeout(r, 500));
    expect((await probe(worker.url, '/healthz')).status).toBe(200);

    await proxy.restore();
    await waitFor(async () => (await probe(worker.url, '/readyz')).status === 200, 'ready again', 10_000);
    worker.kill('SIGTERM');
    expect(await worker.exit).toBe(0);
    await proxy.cut();
  }, 60_000);
});
