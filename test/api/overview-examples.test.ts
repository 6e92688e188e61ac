import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * The shell examples of docs/overview.md (where the README sends a newcomer for "a whole loan with curl"), with the
 * bodies exactly as printed: each is accepted by a started platform, today and for years to come (an example dated
 * next week would start failing by itself).
 */
let app: TestApp;
let tenant: LendingTenant;

/** The JSON after `-d '` in the first curl of docs/overview.md that calls `path`. */
function exampleBody(path: string): unknown {
  const doc = fs.readFileSync('docs/overview.md', 'utf8');
  const at = doc.indexOf(`${path} -d '`);
  if (at === -1) throw new Error(`docs/overview.md has no curl of ${path} with a body`);
  const start = at + `${path} -d '`.length;
  return JSON.parse(doc.slice(start, doc.indexOf("'", start)));
}

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(async () => {
  await app?.stop();
});

describe("docs/overview.md's shell examples", () => {
  it('book the appointment as printed, with a start time at least a year away', async () => {
    const body = exampleBody('localhost:3000/api/v1/appointment/create') as { appointmentStartTime: string };
    expect(Date.parse(body.appointmentStartTime) - Date.now()).toBeGreaterThan(365 * 24 * 3_600_000);
    const res = await client(app, tenant.test).post('/api/v1/appointment/create', body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(res.body).toMatchObject({ success: true, appointmentStatus: 'scheduled' });
  });

  it('push the decision as printed; the same assessment_id again answers the first pre-approval, as the text says', async () => {
    const body = exampleBody('localhost:3000/v1/preapprovals');
    const api = client(app, tenant.test);
    const first = await api.post('/v1/preapprovals', body);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.data).toMatchObject({ approvedAmountKobo: 10_000_000, status: 'received' });
    const again = await api.post('/v1/preapprovals', body);
    expect(again.status).toBe(200);
    expect(again.body.data.preapprovalId).toBe(first.body.data.preapprovalId);
  });
});
