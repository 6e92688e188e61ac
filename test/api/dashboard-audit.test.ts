import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { writeAudit } from '../../server/platform/domain/dashboard/audit';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, signedInOwner, uniqueEmail } from '../support/dashboard';

/**
 * The audit log: who (e-mail), what, when, IP, user agent; filters by action, user and dates, combined, with keyset
 * pages that keep the filter; the organisation's own rows only; read by roles with `audit.read`; never changed by a
 * route.
 */
const clock = new FakeClock('2026-03-10T09:00:00.000Z');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app?.stop());

type Row = { id: string; action: string; email: string | null; at: string; ip: string | null; userAgent: string | null; userId: string | null };

async function all(client: { get(path: string): Promise<{ json: any; status: number }> }, query: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.get(`/audit-log?limit=2&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    expect(page.json.data.length).toBeLessThanOrEqual(2);
    rows.push(...page.json.data);
    cursor = page.json.nextCursor;
  } while (cursor);
  return rows;
}

describe('audit log filters', () => {
  it('filters by action, by user (e-mail or id) and by dates, keeps the filter across pages, newest first', async () => {
    const owner = await signedInOwner(app, uniqueEmail('audit'));
    // A second member of the same organisation.
    const memberEmail = uniqueEmail('member');
    const member = await signedInOwner(app, memberEmail);
    const memberId = (await member.get('/session')).json.data.user.id;
    await app.platform.db.insertInto('dashboardMemberships').values({ userId: memberId, organisationId: owner.organisationId, role: 'admin', createdAt: clock.now().toISOString() }).execute();

    // Rows over three days: the owner signs out and in on day 1 and 3; the member acts on day 2.
    const origin = { ip: '203.0.113.7', userAgent: 'Audit test browser' };
    const ownerId = (await owner.get('/session')).json.data.user.id;
    for (const [day, userId, action] of [
      ['2026-03-11T10:00:00.000Z', ownerId, 'key_created'],
      ['2026-03-11T11:00:00.000Z', ownerId, 'key_revoked'],
      ['2026-03-12T10:00:00.000Z', memberId, 'key_created'],
      ['2026-03-12T23:59:59.000Z', memberId, 'product_created'],
      ['2026-03-13T00:00:00.000Z', ownerId, 'key_created'],
    ] as const) {
      await writeAudit(app.platform.db, { userId, organisationId: owner.organisationId, action, target: 'key:test', origin, now: new Date(day) });
    }

    const keys = await all(owner, 'action=key_created');
    expect(keys.map((r) => r.at)).toEqual(['2026-03-13T00:00:00.000Z', '2026-03-12T10:00:00.000Z', '2026-03-11T10:00:00.000Z']);
    expect(keys[1]).toMatchObject({ email: memberEmail.toLowerCase(), ip: '203.0.113.7', userAgent: 'Audit test browser', action: 'key_created' });

    const byMember = await all(owner, `email=${encodeURIComponent(memberEmail.toUpperCase())}`);
    expect(byMember.map((r) => r.action)).toEqual(['product_created', 'key_created']);
    expect((await all(owner, `userId=${memberId}`)).map((r) => r.id)).toEqual(byMember.map((r) => r.id));

    // `to` as a day includes that whole UTC day; `from` is inclusive.
    const day12 = await all(owner, 'from=2026-03-12&to=2026-03-12');
    expect(day12.map((r) => r.action)).toEqual(['product_created', 'key_created']);
    const fromInstant = await all(owner, `from=${encodeURIComponent('2026-03-12T23:59:59.000Z')}&action=key_created`);
    expect(fromInstant.map((r) => r.at)).toEqual(['2026-03-13T00:00:00.000Z']);
    expect(await all(owner, `from=2026-03-11&to=2026-03-11&email=${encodeURIComponent(memberEmail)}`)).toEqual([]);
    expect(await all(owner, 'email=nobody%40example.com')).toEqual([]);

    // Unfiltered it still holds the sign-up and sign-in rows of both people.
    const everything = await all(owner, '');
    expect(everything.map((r) => r.action)).toEqual(expect.arrayContaining(['sign_up', 'sign_in', 'key_created', 'product_created']));
    const ats = everything.map((r) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);
  });

  it('bad filters are 400 invalid_request naming the query field', async () => {
    const owner = await signedInOwner(app);
    for (const [query, field] of [
      ['action=DROP%20TABLE', 'query.action'],
      ['from=yesterday', 'query.from'],
      ['to=2026-13-45', 'query.to'],
      ['from=2026-03-12&to=2026-03-11T00:00:00Z', 'query.to'],
      ['limit=0', 'query.limit'],
      ['cursor=nonsense', 'query.cursor'],
    ]) {
      const answer = await owner.get(`/audit-log?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
      expect(answer.json.message, query).toContain(field);
    }
  });
});

describe('audit log isolation and roles', () => {
  it('shows only the organisation\'s rows (another organisation\'s user filter finds nothing), in either mode', async () => {
    const first = await signedInOwner(app);
    const second = await signedInOwner(app);
    const secondUserId = (await second.get('/session')).json.data.user.id;
    const firstRows = await all(first, '');
    expect(firstRows.length).toBeGreaterThan(0);
    expect(firstRows.every((r) => r.userId !== secondUserId)).toBe(true);
    expect(await all(first, `userId=${secondUserId}`)).toEqual([]);
    expect(await all(first, `email=${encodeURIComponent(second.email)}`)).toEqual([]);

    // Failed sign-ins (no organisation) are nobody's page.
    await dashboardClient(app).post('/sign-in', { email: first.email, password: 'not the right password at all' });
    expect((await all(first, 'action=sign_in_failed'))).toEqual([]);

    // The log is the organisation's, not a mode's: live (once enabled) shows the same rows.
    await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', first.organisationId).execute();
    first.mode = 'live';
    const live = (await all(first, '')).map((r) => r.id);
    first.mode = 'test';
    expect(live).toEqual((await all(first, '')).map((r) => r.id));
  });

  it('needs audit.read: an analyst and a developer are refused; there is no route that changes a row', async () => {
    const owner = await signedInOwner(app);
    for (const role of ['developer', 'analyst'] as const) {
      await app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', owner.organisationId).execute();
      const refused = await owner.get('/audit-log?action=sign_in');
      expect(refused.status).toBe(403);
      expect(refused.json.error).toBe('dashboard_permission_denied');
    }
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'owner' }).where('organisationId', '=', owner.organisationId).execute();
    const rows = await all(owner, '');
    for (const method of ['DELETE', 'PATCH', 'PUT', 'POST']) {
      expect((await owner.send(method, `/audit-log/${rows[0]!.id}`, {})).status).toBe(404);
      expect((await owner.send(method, '/audit-log', {})).status).toBe(404);
    }
    expect((await all(owner, '')).length).toBe(rows.length);
    expect(await dashboardClient(app).get('/audit-log').then((r) => r.status)).toBe(401);
  });
});
