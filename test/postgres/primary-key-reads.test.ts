import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, lendingTenant, offeredLoan } from '../support/lifecycle';
import { capturing, genericPlans, planNodes } from '../support/plans';

/**
 * PostgreSQL only: the lifecycle's reads by id use the primary key, also on tables the planner has no statistics for
 * (never analysed: a fresh deployment, or autovacuum off). Without statistics the planner costs an index on
 * (organisation_id, mode, …) the same as the primary key and may read every row of the organisation to find one
 * (`docs/scale/performance.md`, section 4). Each SELECT the requests send on loans, pre-approvals and products is
 * planned again as a generic plan (what a prepared statement runs from its sixth execution) and run with EXPLAIN
 * ANALYZE: none may read other rows to find its own.
 */
let app: TestApp;
const url = process.env.TEST_DATABASE_URL!;
const TABLES = ['loans', 'preapprovals', 'loan_products', 'borrowers'];

beforeAll(async () => {
  app = await startTestApp();
  // No statistics for these tables during the test, whatever the server's autovacuum setting.
  for (const table of TABLES) await sql.raw(`alter table ${table} set (autovacuum_enabled = false)`).execute(app.platform.db);
});
afterAll(() => app.stop());

describe('reads by id on never-analysed tables', () => {
  it('read no other row of the organisation to find their own (issue-offer, accept-terms, disburse, a repayment)', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    // Enough rows in the organisation for a wrong index to show.
    for (let i = 0; i < 15; i++) await acceptedLoan(app, tenant, { amount: '1000' });
    const pushed = await api.post('/v1/preapprovals', (await import('../support/harness')).pushBody({ amount: '1000' }));
    const captured = await capturing(async () => {
      const offered = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
      expect(offered.status).toBe(200);
      const accepted = await api.post(`/v1/loans/${offered.body.data.id}/accept-terms`, { consent: consentFor(offered.body.data.documentReference) });
      expect(accepted.status).toBe(200);
      expect((await api.post(`/v1/loans/${offered.body.data.id}/disburse`)).status).toBe(200);
      const repaid = await api.post(`/v1/loans/${offered.body.data.id}/repayments`, { method: 'external', amountKobo: 500, externalReference: 'pk-reads-1' });
      expect(repaid.status).toBe(201);
      // And a read through the generic tenancy-checked path.
      const { loan } = await offeredLoan(app, tenant);
      expect((await api.get(`/v1/loans/${loan.id}/schedule`)).status).toBe(200);
    });
    const reads = captured.filter((c) => /^select\b/i.test(c.text) && /\bfrom "(loans|preapprovals|loan_products)"/.test(c.text));
    expect(reads.some((c) => /from "loans"/.test(c.text))).toBe(true);
    expect(reads.some((c) => /from "preapprovals"/.test(c.text))).toBe(true);

    for (const { statement, plan } of await genericPlans(url, app.pgSchema!, reads)) {
      const removed = planNodes(plan).reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0), 0);
      expect({ statement: statement.text.slice(0, 120), removed, indexes: planNodes(plan).map((n) => n['Index Name']).filter(Boolean) }).toMatchObject({ removed: 0 });
    }
  }, 60_000);
});
