import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/platform/log/create-logger';
import { client, createTenant, dialect, pushBody, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { SchemaScopedIntrospector } from '../../server/platform/db/schema-introspector';
import { lendingTenant, operatorLoan } from '../support/lifecycle';

let app: TestApp;
let tenant: Tenant;
const logLines: string[] = [];

beforeAll(async () => {
  // Capture everything the service logs, at the most verbose level, to search it for secrets.
  app = await startTestApp({ logger: createLogger('trace', { write: (line: string) => void logLines.push(line) }) });
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

describe('POST /v1/preapprovals', () => {
  it('on first ingest answers 202 with the acknowledgement, converting naira and percent exactly', async () => {
    const body = pushBody({ amount: '1,234.56' });
    const res = await client(app, tenant.test).post('/v1/preapprovals', body);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({
      preapprovalId: expect.any(String),
      assessmentId: body.decision.metadata.assessment_id,
      borrowerId: expect.any(String),
      recommendation: 'approve',
      approvedAmountKobo: 123456,
      status: 'received',
      expiresAt: expect.any(String),
      borrowerMatch: { borrower: 'new', differs: [], codesTo: 'phone_on_record' },
    });
    const stored = await client(app, tenant.test).get(`/v1/preapprovals/${res.body.data.preapprovalId}`);
    expect(stored.body.data).toMatchObject({ interestRateBps: 450, tenorDays: 90, repaymentFrequency: 'monthly', riskBand: 'B', trustScore: 712, confidence: 'high' });
  });

  it('on a replay of the same assessment answers 200 with the same record and emits nothing more', async () => {
    const body = pushBody();
    const first = await client(app, tenant.test).post('/v1/preapprovals', body);
    const events = await app.platform.db.selectFrom('events').select('id').where('organisationId', '=', tenant.organisationId).execute();
    const again = await client(app, tenant.test).post('/v1/preapprovals', { ...body, clientReference: 'changed' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const after = await app.platform.db.selectFrom('events').select('id').where('organisationId', '=', tenant.organisationId).execute();
    expect(after).toHaveLength(events.length);
  });

  it('when a replay carries a BVN never seen before, then it still changes nothing: no borrower is left behind', async () => {
    const body = pushBody();
    const first = await client(app, tenant.test).post('/v1/preapprovals', body);
    const borrowers = async () =>
      (await app.platform.db.selectFrom('borrowers').select('id').where('organisationId', '=', tenant.organisationId).execute()).map((r) => r.id).sort();
    const before = await borrowers();
    const other = { ...body, decision: { ...body.decision, metadata: { ...body.decision.metadata, bvn: '98765432109' } } };
    const again = await client(app, tenant.test).post('/v1/preapprovals', other);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await borrowers()).toEqual(before);
    // The BVN is still free: its first real push creates its borrower.
    const fresh = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ bvn: '98765432109' }));
    expect(fresh.status).toBe(202);
    expect(before).not.toContain(fresh.body.data.borrowerId);
  });

  it('records a decline as declined, without expiry, and never as eligible', async () => {
    const res = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ recommendation: 'Decline', amount: null }));
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'declined', recommendation: 'decline', approvedAmountKobo: 0, expiresAt: null });
  });

  it('finds the borrower by BVN within the organisation and creates one per BVN', async () => {
    const bvn = '12345678901';
    const a = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ bvn }));
    const b = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ bvn }));
    const other = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ bvn: '12345678902' }));
    expect(b.body.data.borrowerId).toBe(a.body.data.borrowerId);
    expect(other.body.data.borrowerId).not.toBe(a.body.data.borrowerId);
    const borrower = await client(app, tenant.test).get(`/v1/borrowers/${a.body.data.borrowerId}`);
    expect(borrower.body.data).toMatchObject({ firstName: 'Ada', lastName: 'Obi', identityStatus: 'unclaimed', userId: null });
    const secondTenant = await createTenant(app);
    const elsewhere = await client(app, secondTenant.test).post('/v1/preapprovals', pushBody({ bvn }));
    expect(elsewhere.body.data.borrowerId).not.toBe(a.body.data.borrowerId);
  });

  it('emits preapproval.received in the outbox with the summary and no payload', async () => {
    const res = await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    const event = await app.platform.db
      .selectFrom('events')
      .selectAll()
      .where('name', '=', 'preapproval.received')
      .where('organisationId', '=', tenant.organisationId)
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    const payload = typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload;
    expect(payload).toMatchObject({ preapprovalId: res.body.data.preapprovalId, status: 'received', approvedAmountKobo: 15000050 });
    expect(JSON.stringify(payload)).not.toMatch(/bvn|metadata/);
  });

  it('lists newest first, filters by status and honours limit', async () => {
    const api = client(app, tenant.test);
    const list = await api.get('/v1/preapprovals?limit=3');
    expect(list.body.data.preapprovals).toHaveLength(3);
    const times = list.body.data.preapprovals.map((p: { createdAt: string }) => p.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const declined = await api.get('/v1/preapprovals?status=declined');
    expect(declined.body.data.preapprovals.length).toBeGreaterThan(0);
    expect(declined.body.data.preapprovals.every((p: { status: string }) => p.status === 'declined')).toBe(true);
    expect((await api.get('/v1/preapprovals?status=bogus')).status).toBe(400);
  });

  it('stores the BVN nowhere in clear: not in any table, not in the logs, after push, offer, KYC and acceptance', async () => {
    const bvn = '98765432109';
    const lender = await lendingTenant(app);
    const res = await client(app, lender.test).post('/v1/preapprovals', pushBody({ bvn }));
    expect(res.status).toBe(202);
    const issued = await client(app, lender.test).post(`/v1/preapprovals/${res.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    const kycBvn = '22222222222';
    const managed = await operatorLoan(app, lender, { kycTier: 'managed' });
    expect((await client(app, lender.test).post(`/v1/loans/${managed.id}/kyc`, { bvn: kycBvn })).body.data.outcome).toBe('verified');
    expect(JSON.stringify(res.body)).not.toContain(bvn);
    // PostgreSQL: this app's schema only (Kysely's own introspection lists every schema of the database).
    const tables = dialect === 'postgres' ? await new SchemaScopedIntrospector(app.platform.db).getTables() : await app.platform.db.introspection.getTables();
    const own = tables.filter((t) => !t.name.startsWith('kysely_'));
    expect(own.length).toBeGreaterThan(5);
    for (const table of own) {
      const rows = await app.platform.db.selectFrom(table.name as never).selectAll().execute();
      expect(JSON.stringify(rows), `table ${table.name}`).not.toContain(bvn);
      expect(JSON.stringify(rows), `table ${table.name}`).not.toContain(kycBvn);
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(bvn);
    expect(logLines.join('\n')).not.toContain(kycBvn);
    const stored = await client(app, lender.test).get(`/v1/preapprovals/${res.body.data.preapprovalId}`);
    expect(JSON.stringify(stored.body)).not.toContain(bvn);
  });
});
