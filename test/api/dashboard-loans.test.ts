import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { client, dialect, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { acceptedLoan, eventsOf, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { lendingOrganisation } from '../support/dashboard-journey/loans';
import { loansPageQuery } from '../../server/platform/domain/loans/loan-lists';
import { loanReference } from '../../server/shared/loan-reference';

/**
 * The dashboard's loans area on the server: lists (filters, search, keyset paging), the funnel, a loan's timeline,
 * and the actions, which must change a loan exactly as the partner API does, for owners and admins only.
 */
let app: TestApp;
let owner: DashboardClient & { organisationId: string; email: string };
let tenant: LendingTenant;
let other: DashboardClient & { organisationId: string };
let otherTenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  owner = await signedInOwner(app);
  tenant = await lendingOrganisation(app, owner.organisationId);
  other = await signedInOwner(app);
  otherTenant = await lendingOrganisation(app, other.organisationId);
});
afterAll(() => app.stop());

const setRole = (organisationId: string, role: 'owner' | 'admin' | 'developer' | 'analyst') =>
  app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', organisationId).execute();
const loanRow = (id: string) => app.platform.db.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const auditRows = (organisationId: string) =>
  app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target', 'userId']).where('organisationId', '=', organisationId).orderBy('at').orderBy('id').execute();

/** Every page of `/loans?…` through `nextCursor`; fails if a page repeats a row. */
async function allPages(dash: DashboardClient, query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i += 1) {
    const res = await dash.get(`/loans?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.json.data.map((l: { id: string }) => l.id));
    cursor = res.json.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

describe('the loans list', () => {
  let offered: { id: string; clientReference: string };
  let accepted: { id: string };
  let tenantLoanId: string;
  let tenantProductId: string;
  beforeAll(async () => {
    offered = (await offeredLoan(app, tenant)).loan;
    accepted = (await acceptedLoan(app, tenant)).loan;
    const row = await operatorLoan(app, tenant, { name: 'Tenant approved' });
    tenantLoanId = row.id;
    tenantProductId = row.loanProductId;
    for (let i = 0; i < 4; i += 1) await offeredLoan(app, tenant);
  });

  it('when listed, then the loans come newest first with borrower, product and amounts, and every row exactly once across cursor pages', async () => {
    const first = await owner.get('/loans');
    expect(first.status).toBe(200);
    expect(first.json.nextCursor).toBeNull();
    expect(first.json.data).toHaveLength(7);
    expect(first.json.data[0]).toMatchObject({ borrowerName: expect.any(String), productName: expect.any(String), principalKobo: expect.any(Number), status: expect.any(String) });
    const created = first.json.data.map((l: { createdAt: string }) => l.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    for (const limit of [1, 2, 3]) {
      const ids = await allPages(owner, '', limit);
      expect(ids).toEqual(first.json.data.map((l: { id: string }) => l.id));
      expect(new Set(ids).size).toBe(7);
    }
  });

  it('when many loans share one creation instant, then paging still returns each exactly once (the id breaks ties)', async () => {
    const at = '2026-01-01T10:00:00.000Z';
    await app.platform.db.updateTable('loans').set({ createdAt: at }).where('organisationId', '=', tenant.organisationId).execute();
    const ids = await allPages(owner, '', 2);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect([...ids].sort().reverse()).toEqual(ids);
    // Put the dates back in order of creation (distinct days) for the date filters below.
    const rows = await app.platform.db.selectFrom('loans').select('id').where('organisationId', '=', tenant.organisationId).orderBy('id').execute();
    for (const [i, row] of rows.entries()) {
      await app.platform.db.updateTable('loans').set({ createdAt: `2026-03-${String(i + 10).padStart(2, '0')}T12:00:00.000Z` }).where('id', '=', row.id).execute();
    }
  });

  it('when filtered by status, product or date range, then only matching loans come back', async () => {
    const byStatus = await owner.get('/loans?status=terms_accepted');
    expect(byStatus.json.data.map((l: { id: string }) => l.id)).toEqual([accepted.id]);
    const byProduct = await owner.get(`/loans?product=${tenantProductId}`);
    expect(byProduct.json.data.map((l: { id: string }) => l.id)).toEqual([tenantLoanId]);
    const both = await owner.get(`/loans?product=${tenantProductId}&status=awaiting_acceptance`);
    expect(both.json.data).toEqual([]);

    expect((await owner.get('/loans?from=2026-03-12&to=2026-03-13')).json.data).toHaveLength(2);
    expect((await owner.get('/loans?from=2026-03-16')).json.data).toHaveLength(1);
    expect((await owner.get('/loans?to=2026-03-09')).json.data).toHaveLength(0);
    // Filters and paging together.
    const ids = await allPages(owner, '&status=awaiting_acceptance', 2);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  it('when searched by the loan id or the partner reference, then exactly that loan comes back; anything else finds nothing', async () => {
    expect((await owner.get(`/loans?q=${offered.id}`)).json.data.map((l: { id: string }) => l.id)).toEqual([offered.id]);
    const byReference = await owner.get(`/loans?q=${encodeURIComponent(offered.clientReference)}`);
    expect(byReference.json.data.map((l: { id: string }) => l.id)).toEqual([offered.id]);
    expect((await owner.get('/loans?q=no-such-reference')).json.data).toEqual([]);
    // Another organisation's loan is not found by its id.
    const foreign = (await offeredLoan(app, otherTenant)).loan;
    expect((await owner.get(`/loans?q=${foreign.id}`)).json.data).toEqual([]);
  });

  it('when searched by the short reference on the receipt (any case, with or without the dash, spaces pasted), then exactly that loan comes back, in the dashboard and GET /v1/loans', async () => {
    const reference = loanReference(offered.id);
    const bare = reference.replace('-', '');
    const typings = [reference, reference.toLowerCase(), bare, bare.toLowerCase(), ` ${reference.slice(0, 4)} ${reference.slice(5)} `, `${reference.slice(0, 2)} - ${reference.slice(2)}`];
    for (const typed of typings) {
      const found = await owner.get(`/loans?q=${encodeURIComponent(typed)}`);
      expect(found.status, typed).toBe(200);
      expect(found.json.data.map((l: { id: string }) => l.id), typed).toEqual([offered.id]);
      const viaApi = await client(app, tenant.test).get(`/v1/loans?reference=${encodeURIComponent(typed)}`);
      expect(viaApi.status, typed).toBe(200);
      expect(viaApi.body.data.map((l: { id: string }) => l.id), typed).toEqual([offered.id]);
    }
    // With a status filter: found only in its own status.
    expect((await owner.get(`/loans?q=${reference}&status=awaiting_acceptance`)).json.data.map((l: { id: string }) => l.id)).toEqual([offered.id]);
    expect((await owner.get(`/loans?q=${reference}&status=active`)).json.data).toEqual([]);
    expect((await client(app, tenant.test).get(`/v1/loans?reference=${reference}&status=active`)).body.data).toEqual([]);
    // A reference one character off, or another organisation's loan's reference: nothing.
    const last = reference.at(-1) === '0' ? '1' : '0';
    expect((await owner.get(`/loans?q=${reference.slice(0, -1)}${last}`)).json.data).toEqual([]);
    const foreign = (await offeredLoan(app, otherTenant)).loan;
    expect((await owner.get(`/loans?q=${loanReference(foreign.id)}`)).json.data).toEqual([]);
    expect((await client(app, tenant.test).get(`/v1/loans?reference=${loanReference(foreign.id)}`)).body.data).toEqual([]);
  });

  it('when GET /v1/loans is given a reference that cannot be one, then 400 invalid_request naming the parameter', async () => {
    for (const bad of ['1Q4Z', '1Q4Z-Z9YWX', 'UUUU-UUUU', 'no-such-reference']) {
      const res = await client(app, tenant.test).get(`/v1/loans?reference=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe('invalid_request');
      expect(JSON.stringify(res.body), bad).toContain('reference');
    }
  });

  it('a short-reference search reads only the organisation and mode of the caller, through the list index (no scan of other tenants)', async () => {
    const scope = { organisationId: tenant.organisationId, mode: 'test' as const };
    const compiled = loansPageQuery(app.platform.db, scope, { q: loanReference(offered.id) }, { limit: 50 }).compile();
    expect(compiled.sql).toContain('substr(');
    if (dialect === 'sqlite') {
      const rows = await app.platform.db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
      expect(rows.rows.map((r) => r.detail).join(' | ')).toMatch(/SEARCH l USING (COVERING )?INDEX loans_list_idx \(organisation_id=\? AND mode=\?\)/);
    } else {
      const text = await app.platform.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
        return rows.rows.map((r) => r['QUERY PLAN']).join(' | ');
      });
      expect(text).toMatch(/Index (Only )?Scan (Backward )?using loans_list_idx/);
    }
  });

  it('when the cursor or a filter is not valid, then 400 invalid_request', async () => {
    for (const bad of ['cursor=not-a-cursor', `cursor=${Buffer.from('{"a":1}').toString('base64url')}`, 'status=flying', 'from=2026-13-45', 'product=abc', 'limit=0', 'limit=101']) {
      const res = await owner.get(`/loans?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.json.error, bad).toBe('invalid_request');
    }
    expect((await owner.get('/preapprovals?cursor=zzz')).status).toBe(400);
  });

  it('every filter is answered by an index in keyset order, without a sort (SQLite: query plan; PostgreSQL: plan with scans forced off)', async () => {
    const scope = { organisationId: tenant.organisationId, mode: 'test' as const };
    const after = { at: '2026-03-12T12:00:00.000Z', id: 'ffffffff-ffff-7fff-bfff-ffffffffffff' };
    const cases = [{}, { status: 'active' as const }, { productId: tenantProductId }, { status: 'active' as const, from: '2026-01-01', to: '2026-02-01' }, { from: '2026-01-01' }];
    for (const filters of cases) {
      for (const page of [{ limit: 50 }, { limit: 50, after }]) {
        const compiled = loansPageQuery(app.platform.db, scope, filters, page).compile();
        if (dialect === 'sqlite') {
          const rows = await app.platform.db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
          const text = rows.rows.map((r) => r.detail).join(' | ');
          expect(text, JSON.stringify(filters)).toMatch(/SEARCH l USING (COVERING )?INDEX loans_(list|status_list|product_list)_idx/);
          expect(text, JSON.stringify(filters)).not.toContain('TEMP B-TREE');
        } else {
          // A handful of rows would be read by a sequential scan whatever the indexes; with scans other than index
          // scans switched off for this transaction, the plan shows whether an index serves the order without a Sort.
          const text = await app.platform.db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            await sql`set local enable_bitmapscan = off`.execute(trx);
            const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain ${compiled.sql}` });
            return rows.rows.map((r) => r['QUERY PLAN']).join(' | ');
          });
          expect(text, JSON.stringify(filters)).toMatch(/Index (Only )?Scan (Backward )?using loans_(list|status_list|product_list)_idx/);
          expect(text, JSON.stringify(filters)).not.toMatch(/\bSort\b/);
        }
      }
    }
  });

  it('when the funnel is read, then it counts the pushed pre-approvals by stage', async () => {
    const res = await owner.get('/loans/funnel');
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ pushed: 6, offerIssued: 6, acceptedByBorrower: 1, disbursed: 0 });
  });

  it('when pre-approvals are listed, then they page, filter and search like loans', async () => {
    const all = await owner.get('/preapprovals?limit=4');
    expect(all.status).toBe(200);
    expect(all.json.data).toHaveLength(4);
    const next = await owner.get(`/preapprovals?limit=4&cursor=${all.json.nextCursor}`);
    expect(next.json.data).toHaveLength(2);
    expect(next.json.nextCursor).toBeNull();
    const ids = [...all.json.data, ...next.json.data].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(6);
    expect((await owner.get('/preapprovals?status=accepted')).json.data).toHaveLength(1);
    const one = all.json.data[0];
    expect((await owner.get(`/preapprovals?q=${one.assessmentId}`)).json.data.map((p: { id: string }) => p.id)).toEqual([one.id]);
    expect((await owner.get(`/preapprovals?q=${one.clientReference}`)).json.data.map((p: { id: string }) => p.id)).toEqual([one.id]);
  });
});

describe("a loan's page", () => {
  it('when a disbursed loan is opened, then it shows the status history, events, consent, offer letter, schedule, mandate section and ledger postings', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    expect((await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    const res = await owner.get(`/loans/${loan.id}`);
    expect(res.status).toBe(200);
    const page = res.json.data;
    expect(page.loan).toMatchObject({ id: loan.id, status: 'active' });
    expect(page.borrower.name).toBe('Ada Obi');
    expect(page.statusHistory.map((s: { status: string }) => s.status)).toEqual(['created', 'attested', 'awaiting_acceptance', 'terms_accepted', 'active']);
    expect(page.events.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['loan.approved', 'loan.offer.issued', 'loan.offer.accepted', 'loan.disbursed']));
    expect(page.consents).toEqual([expect.objectContaining({ kind: 'accept', signatureFullName: 'Ada Obi', documentReference: loan.documentReference })]);
    expect(page.offerLetter.url).toContain(`/offer-letters/${loan.id}.pdf?`);
    expect((await fetch(page.offerLetter.url)).headers.get('content-type')).toContain('application/pdf');
    expect(page.schedule.length).toBeGreaterThan(0);
    expect(page.repayments).toEqual([]);
    expect(page.mandates).toEqual([]);
    const disbursement = page.ledger.find((t: { kind: string }) => t.kind === 'disbursement');
    expect(disbursement.postings.reduce((sum: number, p: { amountKobo: number }) => sum + p.amountKobo, 0)).toBe(0);
    expect(disbursement.postings).toContainEqual({ accountKind: 'loan_receivable', accountCode: loan.id, amountKobo: loan.principalKobo });
    expect(page.actions).toEqual([]);
  });

  it('when another organisation asks for the loan, or an id that does not exist, then 404; a malformed id is 400', async () => {
    const { loan } = await offeredLoan(app, tenant);
    expect((await other.get(`/loans/${loan.id}`)).status).toBe(404);
    expect((await owner.get('/loans/0190a0a0-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await owner.get('/loans/not-an-id')).status).toBe(400);
  });

  it('when the mode is live, then test loans are neither listed nor opened, and live is refused until enabled', async () => {
    const { loan } = await offeredLoan(app, tenant);
    expect((await owner.get('/loans', { 'x-dashboard-mode': 'live' })).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', tenant.organisationId).execute();
    const live = await owner.get('/loans', { 'x-dashboard-mode': 'live' });
    expect(live.status).toBe(200);
    expect(live.json.data).toEqual([]);
    expect((await owner.get(`/loans/${loan.id}`, { 'x-dashboard-mode': 'live' })).status).toBe(404);
    expect((await owner.get('/preapprovals', { 'x-dashboard-mode': 'live' })).json.data).toEqual([]);
    expect((await owner.get('/loans/funnel', { 'x-dashboard-mode': 'live' })).json.data.pushed).toBe(0);
    const act = await owner.post(`/loans/${loan.id}/cancel`, {}, { 'x-dashboard-mode': 'live' });
    expect(act.status).toBe(404);
    expect((await loanRow(loan.id)).status).toBe('awaiting_acceptance');
  });
});

describe('actions', () => {
  /** What an action leaves on a loan, without what differs between two loans (ids, times, references). */
  const shape = async (id: string) => {
    const row = await loanRow(id);
    const events = (await eventsOf(app, row.organisationId)).filter((e) => e.data.loanId === id).map((e) => e.name);
    const schedule = await app.platform.db.selectFrom('loanScheduleItems').select(['installmentNumber', 'principalKobo', 'interestKobo', 'feeKobo', 'status']).where('loanId', '=', id).orderBy('installmentNumber').execute();
    return {
      status: row.status,
      principalKobo: row.principalKobo,
      outstandingKobo: row.outstandingKobo,
      disbursedAmountKobo: row.disbursedAmountKobo,
      approvalNotes: row.approvalNotes,
      rejectionReason: row.rejectionReason,
      cancelledBy: row.cancelledBy,
      cancellationReason: row.cancellationReason,
      hasOffer: row.documentReference !== null,
      events,
      schedule,
    };
  };
  const api = () => client(app, tenant.test);

  it('when a loan is disbursed from the dashboard, then it changes exactly as through the partner API, and the audit log says who', async () => {
    const viaApi = (await acceptedLoan(app, tenant)).loan;
    const viaDashboard = (await acceptedLoan(app, tenant)).loan;
    expect((await api().post(`/v1/loans/${viaApi.id}/disburse`)).status).toBe(200);
    const res = await owner.post(`/loans/${viaDashboard.id}/disburse`, {});
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: viaDashboard.id, status: 'active' });
    expect(await shape(viaDashboard.id)).toEqual(await shape(viaApi.id));
    expect((await auditRows(tenant.organisationId)).filter((r) => r.target === `loan:${viaDashboard.id}`)).toEqual([
      { action: 'loan_disbursed', target: `loan:${viaDashboard.id}`, userId: expect.any(String) },
    ]);
  });

  it('when a tenant-approval loan is approved or rejected, and an offered loan cancelled, then each matches the partner API', async () => {
    const pairs: Array<[string, string, string]> = [];
    for (const action of ['approve', 'reject'] as const) {
      const a = await operatorLoan(app, tenant, { name: 'Tenant approved' });
      const b = await operatorLoan(app, tenant, { name: 'Tenant approved' });
      const body = action === 'reject' ? { reason: 'Income too low' } : { notes: 'Checked' };
      expect((await api().post(`/v1/loans/${a.id}/${action}`, body)).status).toBe(200);
      expect((await owner.post(`/loans/${b.id}/${action}`, body)).status).toBe(200);
      pairs.push([action, a.id, b.id]);
    }
    const c = (await offeredLoan(app, tenant)).loan;
    const d = (await offeredLoan(app, tenant)).loan;
    expect((await api().post(`/v1/loans/${c.id}/cancel`, { reason: 'Duplicate' })).status).toBe(200);
    expect((await owner.post(`/loans/${d.id}/cancel`, { reason: 'Duplicate' })).status).toBe(200);
    pairs.push(['cancel', c.id, d.id]);
    for (const [action, a, b] of pairs) expect(await shape(b), action).toEqual(await shape(a));
    const audit = await auditRows(tenant.organisationId);
    expect(audit.filter((r) => r.target === `loan:${pairs[0]![2]}`).map((r) => r.action)).toEqual(['loan_approved']);
    expect(audit.filter((r) => r.target === `loan:${pairs[1]![2]}`).map((r) => r.action)).toEqual(['loan_rejected']);
    expect(audit.filter((r) => r.target === `loan:${d.id}`).map((r) => r.action)).toEqual(['loan_cancelled']);
  });

  it('when the loan is in the wrong state, then 409 like the partner API, and nothing changes: no event, no audit row', async () => {
    const { loan } = await offeredLoan(app, tenant);
    const before = await shape(loan.id);
    const auditBefore = (await auditRows(tenant.organisationId)).length;
    const res = await owner.post(`/loans/${loan.id}/disburse`, {});
    const partner = await api().post(`/v1/loans/${loan.id}/disburse`);
    expect(res.status).toBe(409);
    expect(res.json.error).toBe(partner.body.error);
    expect((await owner.post(`/loans/${loan.id}/approve`, {})).json.error).toBe('approval_mode_mismatch');
    expect(await shape(loan.id)).toEqual(before);
    expect((await auditRows(tenant.organisationId)).length).toBe(auditBefore);
  });

  it('when the pool cannot cover the loan, then 409 insufficient_pool_funds and nothing is disbursed', async () => {
    const poor = await signedInOwner(app);
    const poorTenant = await lendingOrganisation(app, poor.organisationId, { poolKobo: 100 });
    const { loan } = await acceptedLoan(app, poorTenant);
    const res = await poor.post(`/loans/${loan.id}/disburse`, {});
    expect(res.status).toBe(409);
    expect(res.json.error).toBe('insufficient_pool_funds');
    expect((await loanRow(loan.id)).status).toBe('terms_accepted');
    expect(await auditRows(poor.organisationId)).not.toContainEqual(expect.objectContaining({ action: 'loan_disbursed' }));
  });

  it('when a repeat changes nothing (cancel a cancelled loan), then 200 with the loan and no second audit row', async () => {
    const { loan } = await offeredLoan(app, tenant);
    expect((await owner.post(`/loans/${loan.id}/cancel`, {})).status).toBe(200);
    const again = await owner.post(`/loans/${loan.id}/cancel`, {});
    expect(again.status).toBe(200);
    expect(again.json.data.status).toBe('cancelled');
    expect((await auditRows(tenant.organisationId)).filter((r) => r.target === `loan:${loan.id}`)).toHaveLength(1);
  });

  it('when another organisation acts on the loan, then 404 and nothing changes', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    for (const action of ['approve', 'reject', 'cancel', 'disburse']) {
      expect((await other.post(`/loans/${loan.id}/${action}`, {})).status).toBe(404);
    }
    expect((await loanRow(loan.id)).status).toBe('terms_accepted');
  });

  it('when the CSRF token is missing or wrong, then 403 csrf_token_invalid and nothing changes', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const csrf = owner.csrf;
    owner.csrf = undefined;
    try {
      expect((await owner.post(`/loans/${loan.id}/disburse`, {})).json.error).toBe('csrf_token_invalid');
      expect((await owner.post(`/loans/${loan.id}/disburse`, {}, { 'x-csrf-token': 'forged' })).json.error).toBe('csrf_token_invalid');
    } finally {
      owner.csrf = csrf;
    }
    expect((await loanRow(loan.id)).status).toBe('terms_accepted');
  });

  it('when the body has unknown fields, then 400 invalid_request and nothing changes', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const res = await owner.post(`/loans/${loan.id}/disburse`, { amountKobo: 1 });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
    expect((await loanRow(loan.id)).status).toBe('terms_accepted');
  });

  it('when signed out, then 401 session_required', async () => {
    const res = await fetch(`${app.url}/dashboard/api/loans`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('session_required');
  });
});

describe('the role matrix', () => {
  it('analysts and developers read loans, pre-approvals, the funnel and a loan, but cannot act; admins can', async () => {
    const member = await signedInOwner(app);
    const memberTenant = await lendingOrganisation(app, member.organisationId);
    const { loan } = await acceptedLoan(app, memberTenant);
    try {
      for (const role of ['analyst', 'developer'] as const) {
        await setRole(member.organisationId, role);
        for (const path of ['/loans', '/preapprovals', '/loans/funnel', '/loans/products', `/loans/${loan.id}`]) {
          expect((await member.get(path)).status, `${role} GET ${path}`).toBe(200);
        }
        for (const action of ['approve', 'reject', 'cancel', 'disburse']) {
          const res = await member.post(`/loans/${loan.id}/${action}`, {});
          expect(res.status, `${role} ${action}`).toBe(403);
          expect(res.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'loans.act', role } });
        }
        expect((await loanRow(loan.id)).status).toBe('terms_accepted');
      }
      await setRole(member.organisationId, 'admin');
      expect((await member.post(`/loans/${loan.id}/disburse`, {})).status).toBe(200);
    } finally {
      await setRole(member.organisationId, 'owner');
    }
  });
});
