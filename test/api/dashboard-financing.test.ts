import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { bvnEnding, identity, initiatedApplication, verifyOtp } from '../support/financing';
import { signedInOwner } from '../support/dashboard';
import { memberOf, setRole } from '../support/dashboard-members';

/**
 * The dashboard's patient-financing applications: the organisation's, in the mode, newest first,
 * keyset-paged, filtered by status, searched by reference; an application's details and status history; every role
 * reads; tenant and mode isolation; nothing of the BVN, birth date or income.
 */
const clock = new FakeClock(new Date('2026-03-02T08:00:00.000Z'));
let app: TestApp;
let clinic: Tenant;
const refs: string[] = [];
let rejected: string;
beforeAll(async () => {
  app = await startTestApp({ clock });
  clinic = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  for (let i = 0; i < 3; i += 1) {
    refs.push((await initiatedApplication(app, clinic, { clientReference: `cref-${i}`, invoiceReference: `INV-${i}` })).initiation.sdkReference);
    clock.advance(60_000);
  }
  // A fourth one the bureau rejects (a BVN ending in 9: delinquent).
  const { initiation, session, phone } = await initiatedApplication(app, clinic, { clientReference: 'cref-rejected' });
  await verifyOtp(app, session, phone);
  clock.advance(60_000);
  expect((await session.post('/v1/checkout/financing/identity', identity(bvnEnding('9')))).status).toBeLessThan(500);
  rejected = initiation.sdkReference;
});
afterAll(() => app.stop());

const ids = (res: { json: { data: Array<{ sdkReference: string }> } }) => res.json.data.map((a) => a.sdkReference);

describe('GET /dashboard/api/financing', () => {
  it('lists the applications newest first in keyset pages, without the BVN, birth date or income', async () => {
    const member = await memberOf(app, clinic.organisationId, 'analyst');
    const first = await member.get('/financing?limit=3');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([rejected, refs[2], refs[1]]);
    expect(first.json.data[1]).toMatchObject({ status: 'initiated', clientReference: 'cref-2', invoiceReference: 'INV-2', firstName: 'Ada', amountKobo: 15_000_000, phoneLast4: expect.stringMatching(/^\d{4}$/) });
    expect(JSON.stringify(first.json.data)).not.toMatch(/bvn|dateOfBirth|declaredMonthlyIncome|"phone"/i);
    const next = await member.get(`/financing?limit=3&cursor=${first.json.nextCursor}`);
    expect(ids(next)).toEqual([refs[0]]);
    expect(next.json.nextCursor).toBeNull();
  });

  it('filters by status and finds one by sdkReference, clientReference or invoiceReference', async () => {
    const member = await memberOf(app, clinic.organisationId, 'developer');
    expect(ids(await member.get('/financing?status=rejected'))).toEqual([rejected]);
    expect(ids(await member.get('/financing?status=initiated'))).toEqual([refs[2], refs[1], refs[0]]);
    expect(ids(await member.get(`/financing?reference=${refs[1]}`))).toEqual([refs[1]]);
    expect(ids(await member.get('/financing?reference=cref-0'))).toEqual([refs[0]]);
    expect(ids(await member.get('/financing?reference=INV-2'))).toEqual([refs[2]]);
    expect(ids(await member.get('/financing?reference=nothing-like-it'))).toEqual([]);
  });

  it.each([['status=lost'], ['limit=101'], ['cursor=%%%']])('when the query has %s, then 400 invalid_request', async (query) => {
    const member = await memberOf(app, clinic.organisationId);
    const res = await member.get(`/financing?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  });

  it('shows an application with its status history, oldest first', async () => {
    const member = await memberOf(app, clinic.organisationId);
    const res = await member.get(`/financing/${rejected}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ sdkReference: rejected, status: 'rejected', rejectionReason: expect.any(String), clientReference: 'cref-rejected' });
    expect(res.json.data.history.map((h: { status: string }) => h.status)).toEqual(['initiated', 'application_submitted', 'rejected']);
    const times = res.json.data.history.map((h: { at: string }) => h.at);
    expect([...times].sort()).toEqual(times);
    const fresh = (await member.get(`/financing/${refs[0]}`)).json.data;
    expect(fresh.history).toEqual([{ status: 'initiated', at: fresh.createdAt }]);
  });

  it('another organisation\'s application answers 404 and is not listed; live mode does not see test applications', async () => {
    const stranger = await signedInOwner(app);
    expect((await stranger.get(`/financing/${refs[0]}`)).status).toBe(404);
    expect((await stranger.get(`/financing?reference=${refs[0]}`)).json.data).toEqual([]);
    const member = await memberOf(app, clinic.organisationId);
    member.mode = 'live';
    expect((await member.get('/financing')).json.data).toEqual([]);
    expect((await member.get(`/financing/${refs[0]}`)).status).toBe(404);
  });

  it('every role reads; signed out answers 401', async () => {
    const member = await memberOf(app, clinic.organisationId);
    for (const role of ['owner', 'admin', 'developer', 'analyst'] as const) {
      await setRole(app, member.userId, role);
      expect((await member.get('/financing')).status).toBe(200);
    }
    member.cookie = undefined;
    expect((await member.get('/financing')).json.error).toBe('session_required');
  });
});
