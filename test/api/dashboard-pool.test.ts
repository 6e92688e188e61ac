import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { GOOD_PASSWORD, signedInOwner, uniqueEmail, type DashboardClient } from '../support/dashboard';
import { acceptStaffInvitation, inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';

/** The capital pool on the dashboard: instant test funding, live funding notices an operator confirms with the CLI. */
const exec = promisify(execFile);
let app: TestApp;
let bundle: string;
beforeAll(async () => {
  app = await startTestApp();
  bundle = path.resolve('dist', `test-cli-pool-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

async function admin(...args: string[]): Promise<{ code: number; json: any }> {
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env: { ...process.env, ...app.env, LOG_LEVEL: 'warn' }, timeout: 60_000 }).catch((e) => e);
  return { code: result.code ?? 0, json: JSON.parse(String(result.stdout).trim()) };
}

/** A staff account (invited and accepted) for the CLI's `--staff`. */
async function staffAccount(role: 'finance'): Promise<string> {
  const services = { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false };
  const email = uniqueEmail(role);
  const invitation = await inviteStaff(services, { email, role, invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } });
  await acceptStaffInvitation(services, { token: new URL(invitation.link).searchParams.get('token')!, password: GOOD_PASSWORD, origin: { ip: null, userAgent: 'test' } });
  return email;
}

async function partnerApi(organisationId: string, mode: 'test' | 'live' = 'test') {
  const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId, mode, now: app.platform.clock.now() });
  return client(app, { publicKey: key.publicKey, secretKey: key.secretKey });
}

const auditActions = async (organisationId: string) =>
  (await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('organisationId', '=', organisationId).orderBy('at').orderBy('id').execute()).map((r) => r.action);

const apiBalance = async (api: ReturnType<typeof client>, code = 'MAIN') =>
  ((await api.get('/v1/pools/balance')).body.data.pools as { code: string; balanceKobo: number }[]).find((p) => p.code === code)?.balanceKobo ?? 0;

describe('dashboard capital pool', { timeout: 90_000 }, () => {
  let owner: DashboardClient & { organisationId: string };
  beforeAll(async () => {
    owner = await signedInOwner(app);
  });

  it('in test mode funding is instant: the balance, the ledger movement and GET /v1/pools/balance move by exactly that many kobo; audited pool_funded', async () => {
    const api = await partnerApi(owner.organisationId);
    const before = await apiBalance(api);
    const funded = await owner.post('/pool/fund', { pool: 'MAIN', amountKobo: 150_050 });
    expect(funded.status).toBe(200);
    expect(funded.json.data).toMatchObject({ kind: 'funded', balance: { code: 'MAIN', balanceKobo: before + 150_050 } });
    expect(await apiBalance(api)).toBe(before + 150_050);

    const pool = await owner.get('/pool');
    expect(pool.json.data).toMatchObject({ mode: 'test', pools: [{ code: 'MAIN', balanceKobo: 150_050 }], notices: [] });
    const movements = await owner.get('/pool/movements');
    expect(movements.json.data[0]).toMatchObject({ poolCode: 'MAIN', amountKobo: 150_050, kind: 'pool_funding' });
    expect(await auditActions(owner.organisationId)).toContain('pool_funded');
  });

  it('movements page by keyset, newest first, and filter by pool', async () => {
    await owner.post('/pool/fund', { pool: 'MAIN', amountKobo: 1 });
    await owner.post('/pool/fund', { pool: 'MAIN', amountKobo: 2 });
    await owner.post('/pool/fund', { pool: 'SIDE', amountKobo: 3 });
    const first = await owner.get('/pool/movements?limit=2');
    expect(first.json.data.map((m: any) => m.amountKobo)).toEqual([3, 2]);
    const second = await owner.get(`/pool/movements?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json.data.map((m: any) => m.amountKobo)).toEqual([1, 150_050]);
    expect(second.json.nextCursor).toBeNull();
    expect((await owner.get('/pool/movements?pool=SIDE')).json.data.map((m: any) => m.amountKobo)).toEqual([3]);
  });

  it('bad amounts and pool codes are 400 and move nothing; naira floats are refused (the form sends kobo)', async () => {
    const before = (await owner.get('/pool')).json.data.pools;
    for (const body of [{ pool: 'MAIN', amountKobo: 0 }, { pool: 'MAIN', amountKobo: -5 }, { pool: 'MAIN', amountKobo: 10.5 }, { pool: 'MAIN', amountKobo: '100' }, { pool: 'a b', amountKobo: 100 }, { pool: 'MAIN' }, { pool: 'MAIN', amountKobo: 1, extra: true }]) {
      const answer = await owner.post('/pool/fund', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
    }
    expect((await owner.get('/pool')).json.data.pools).toEqual(before);
  });

  it('in live mode funding is a pending notice with a transfer reference; `admin pool confirm-funding` credits the pool once; each step audited', async () => {
    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, app.platform.clock.now());
    const live = await partnerApi(owner.organisationId, 'live');
    const asked = await owner.post('/pool/fund', { pool: 'MAIN', amountKobo: 5_000_000 }, { 'x-dashboard-mode': 'live' });
    expect(asked.status).toBe(202);
    const notice = asked.json.data.notice;
    expect(notice).toMatchObject({ mode: 'live', poolCode: 'MAIN', amountKobo: 5_000_000, status: 'pending', reference: expect.stringMatching(/^PF-[0-9A-HJKMNP-TV-Z]{10}$/) });
    expect(asked.json.message).toContain(notice.reference);
    expect(await apiBalance(live)).toBe(0);
    const livePage = (await owner.get('/pool', { 'x-dashboard-mode': 'live' })).json.data;
    expect(livePage).toMatchObject({ mode: 'live', pools: [], notices: [{ reference: notice.reference, status: 'pending' }] });
    // Test mode knows nothing of it, and the test pool is untouched.
    expect((await owner.get('/pool')).json.data.notices).toEqual([]);

    // Live money takes two staff members: without --staff it is refused; with it, a proposal another approves.
    const [ada, bayo] = [await staffAccount('finance'), await staffAccount('finance')];
    expect((await admin('pool', 'confirm-funding', '--reference', notice.reference)).json.error).toBe('four_eyes_required');
    const proposed = await admin('pool', 'confirm-funding', '--reference', notice.reference.toLowerCase(), '--staff', ada);
    expect(proposed.json).toMatchObject({ proposed: true, proposal: { kind: 'pool_funding_confirm', subject: notice.reference, status: 'open' } });
    expect(await apiBalance(live)).toBe(0);
    expect((await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', ada)).json.error).toBe('four_eyes_required');
    const confirmed = await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', bayo);
    expect(confirmed.code).toBe(0);
    expect(confirmed.json.result).toMatchObject({ reference: notice.reference, status: 'confirmed', changed: true, balance: { code: 'MAIN', balanceKobo: 5_000_000 } });
    expect(await apiBalance(live)).toBe(5_000_000);

    const again = await admin('pool', 'confirm-funding', '--reference', notice.reference, '--staff', ada);
    expect(again.json).toMatchObject({ status: 'confirmed', changed: false, balance: null });
    expect(await apiBalance(live)).toBe(5_000_000);

    const unknown = await admin('pool', 'confirm-funding', '--reference', 'PF-NOPE');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error).toBe('NOT_FOUND');

    const actions = await auditActions(owner.organisationId);
    expect(actions.slice(-3)).toEqual(['pool_funding_requested', 'pool_funding_confirmed', 'pool_funded']);
    expect((await owner.get('/pool', { 'x-dashboard-mode': 'live' })).json.data.notices[0]).toMatchObject({ status: 'confirmed', confirmedAt: expect.any(String) });
    expect((await owner.get('/pool/movements', { 'x-dashboard-mode': 'live' })).json.data.map((m: any) => m.amountKobo)).toEqual([5_000_000]);
  });

  it('roles: analysts and developers read the pool but cannot fund; without CSRF nothing moves; another organisation sees nothing', async () => {
    const other = await signedInOwner(app);
    expect((await other.get('/pool')).json.data.pools).toEqual([]);
    expect((await other.get('/pool/movements')).json.data).toEqual([]);
    const noCsrf = await other.post('/pool/fund', { pool: 'MAIN', amountKobo: 100 }, { 'x-csrf-token': 'wrong' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_token_invalid');
    expect((await other.post('/pool/fund', { pool: 'MAIN', amountKobo: 100 }, { 'x-dashboard-mode': 'live' })).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    for (const role of ['analyst', 'developer'] as const) {
      await app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', other.organisationId).execute();
      expect((await other.get('/pool')).status).toBe(200);
      const refused = await other.post('/pool/fund', { pool: 'MAIN', amountKobo: 100 });
      expect(refused.status).toBe(403);
      expect(refused.json.error).toBe('dashboard_permission_denied');
    }
    expect((await other.get('/pool')).json.data.pools).toEqual([]);
  });
});
