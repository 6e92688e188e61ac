import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { lendingOrganisation } from '../support/dashboard-journey/loans';
import { acceptedLoan, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { fanOutEvents } from '../../server/platform/domain/webhooks/fan-out';
import { capturing, genericPlans, planNodes, rowsRead, type Captured } from '../support/plans';

/**
 * PostgreSQL only: a page of a list reads the page, not the organisation, also on tables the planner has no statistics
 * for (never analysed: a fresh deployment, or autovacuum off). Without statistics every `(organisation_id, mode, …)`
 * index looks like one row, so the planner may take any of them and sort all the organisation's rows for the first
 * page — the 30-minute soak found `GET /v1/loans?limit=20` planned on the client-reference index, 13,801 rows read and
 * sorted, p99 growing with the table (`docs/scale/performance.md`, section 4). Each list read the requests send is
 * planned again generically and run with EXPLAIN ANALYZE: no table may be read for more rows than the page and its
 * look-ahead row, and nothing may be sorted.
 */
let app: TestApp;
let owner: DashboardClient & { organisationId: string };
let tenant: LendingTenant;
const url = process.env.TEST_DATABASE_URL!;
const TABLES = ['loans', 'preapprovals', 'loan_products', 'borrowers', 'events', 'webhook_deliveries'];
const LIMIT = 3;
const LOANS = 24;

beforeAll(async () => {
  app = await startTestApp();
  for (const table of TABLES) await sql.raw(`alter table ${table} set (autovacuum_enabled = false)`).execute(app.platform.db);
  owner = await signedInOwner(app);
  tenant = await lendingOrganisation(app, owner.organisationId);
  // Deliveries for GET /v1/events (to a closed loopback port; fanned out below, never delivered).
  await client(app, tenant.test).post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/closed', events: ['preapproval.received'] });
  for (let i = 0; i < LOANS; i++) {
    if (i % 3 === 0) await acceptedLoan(app, tenant, { amount: '1000' });
    else await offeredLoan(app, tenant, { amount: '1000' });
  }
  await fanOutEvents(app.platform.db, app.platform.dialect, app.platform.clock.now());
}, 120_000);
afterAll(() => app?.stop());

/** The reads on `table` sent while `work` ran (the session and key checks are not the list's). */
function listReads(captured: Captured[], table: string): Captured[] {
  return captured.filter((c) => /^select\b/i.test(c.text) && new RegExp(`\\bfrom "${table}"`).test(c.text) && /\blimit\b/i.test(c.text));
}

async function expectPagedReads(reads: Captured[], label: string): Promise<void> {
  expect(reads.length, label).toBeGreaterThan(0);
  for (const { statement, plan } of await genericPlans(url, app.pgSchema!, reads)) {
    const nodes = planNodes(plan);
    const scans = nodes.filter((n) => /Scan/.test(n['Node Type']));
    expect({
      label,
      statement: statement.text.slice(0, 160),
      sorted: nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
      mostRowsRead: Math.max(...scans.map(rowsRead)),
      indexes: scans.map((n) => n['Index Name'] ?? n['Node Type']),
    }).toMatchObject({ sorted: false, mostRowsRead: expect.toSatisfy((n: number) => n <= LIMIT + 1) });
  }
}

/**
 * Doubles `table`'s rows of the organisation: copies with new ids, older creation times and, where a column is
 * unique or points back, new or empty values; without a client reference (optional for partners), as in the soak,
 * which keeps the client-reference index small. The planner's choice without statistics turns on the table's and the
 * indexes' sizes (a wrong index wins at some sizes and not at others), so the plans are checked at several.
 */
async function doubleRows(table: string, replaced: Record<string, string>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(app.platform.db);
  const columns = rows.map((r) => r.name);
  const values = columns.map((c) => replaced[c] ?? `"${c}"`);
  const list = columns.map((c) => `"${c}"`).join(', ');
  await sql.raw(`insert into ${table} (${list}) select ${values.join(', ')} from ${table} where organisation_id = '${owner.organisationId}'`).execute(app.platform.db);
}

const older = `created_at - (random() * interval '30 days')`;
async function growTables(): Promise<void> {
  await doubleRows('loans', { id: 'gen_random_uuid()::text', preapproval_id: 'null', created_at: older, client_reference: 'null' });
  await doubleRows('preapprovals', { id: 'gen_random_uuid()::text', assessment_id: 'gen_random_uuid()::text', loan_id: 'null', created_at: older, client_reference: 'null' });
  await doubleRows('webhook_deliveries', { id: 'gen_random_uuid()::text', created_at: older });
}

const SIZES = 5;

describe('lists on never-analysed tables', () => {
  it('the partner API reads one page of loans, pre-approvals and events, with and without a status filter, at every size', async () => {
    const api = client(app, tenant.test);
    for (let size = 0; size < SIZES; size++) {
      await growTables();
      const captured = await capturing(async () => {
        for (const path of [`/v1/loans?limit=${LIMIT}`, `/v1/loans?limit=${LIMIT}&status=awaiting_acceptance`, `/v1/preapprovals?limit=${LIMIT}`, `/v1/events?limit=${LIMIT}`]) {
          const res = await api.get(path);
          expect(res.status, path).toBe(200);
          expect(path.startsWith('/v1/preapprovals') ? res.body.data.preapprovals : res.body.data, path).toHaveLength(LIMIT);
        }
      });
      const loans = LOANS * 2 ** (size + 1);
      await expectPagedReads(listReads(captured, 'loans'), `GET /v1/loans, ${loans} loans`);
      await expectPagedReads(listReads(captured, 'preapprovals'), `GET /v1/preapprovals, ${loans} loans`);
      await expectPagedReads(listReads(captured, 'webhook_deliveries'), `GET /v1/events, ${loans} loans`);

      const first = await owner.get(`/loans?limit=${LIMIT}`);
      expect(first.status).toBe(200);
      const dashboard = await capturing(async () => {
        for (const query of ['', '&status=awaiting_acceptance', `&product=${tenant.pushedProductId}`, `&cursor=${encodeURIComponent(first.json.nextCursor)}`]) {
          const res = await owner.get(`/loans?limit=${LIMIT}${query}`);
          expect(res.status, query).toBe(200);
          expect(res.json.data, query).toHaveLength(LIMIT);
        }
        const preapprovals = await owner.get(`/preapprovals?limit=${LIMIT}`);
        expect(preapprovals.status).toBe(200);
        expect(preapprovals.json.data).toHaveLength(LIMIT);
      });
      await expectPagedReads(listReads(dashboard, 'loans'), `dashboard /loans, ${loans} loans`);
      await expectPagedReads(listReads(dashboard, 'preapprovals'), `dashboard /preapprovals, ${loans} loans`);
    }
  }, 120_000);
});
