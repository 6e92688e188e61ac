import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, signedInOwner } from '../support/dashboard';

/**
 * A member who asked for a passkey after the password and lost every passkey cannot sign in; support switches the
 * passkey step off with `admin user reset-second-factor --email E` (the way back), which ends the member's sessions
 * and is written in the audit log.
 */
const exec = promisify(execFile);
let app: TestApp;
let bundle: string;
beforeAll(async () => {
  app = await startTestApp();
  bundle = path.resolve('dist', `test-cli-2fa-${path.basename(app.dataDir)}`, 'admin.js');
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

describe('admin user reset-second-factor', () => {
  it('switches the passkey step off, ends the sessions, audits it; a repeat changes nothing; an unknown e-mail exits 2', async () => {
    const owner = await signedInOwner(app);
    const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', owner.email.toLowerCase()).executeTakeFirstOrThrow();
    // The member had registered a passkey and switched on "ask for a passkey after my password", then lost the device.
    await app.platform.db
      .insertInto('dashboardPasskeys')
      .values({ id: 'bG9zdC1sYXB0b3A', userId: user.id, name: 'Lost laptop', publicKey: 'cHVibGljLWtleQ', counter: 0, transports: '["internal"]', rpId: 'localhost', createdAt: new Date().toISOString(), lastUsedAt: null })
      .execute();
    await app.platform.db.updateTable('dashboardUsers').set({ requirePasskey: true }).where('id', '=', user.id).execute();
    const stuck = await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    expect(stuck.status).toBe(200);
    expect(stuck.json.data.secondFactor).toBe('passkey');
    expect(stuck.headers.get('set-cookie') ?? '').not.toContain('dashboard_session=');

    const reset = await admin('user', 'reset-second-factor', '--email', owner.email.toUpperCase());
    expect(reset.code).toBe(0);
    expect(reset.json).toMatchObject({ userId: user.id, changed: true, sessionsEnded: 1 });
    expect((await owner.get('/session')).status).toBe(401);
    const audit = await app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target', 'userAgent']).where('organisationId', '=', owner.organisationId).where('action', '=', 'passkey_second_factor_disabled').execute();
    expect(audit).toEqual([{ action: 'passkey_second_factor_disabled', target: `user:${user.id} by operator`, userAgent: 'operator CLI' }]);

    const back = dashboardClient(app);
    const signIn = await back.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.json.data.csrfToken).toBeTruthy();
    expect((await back.get('/session')).status).toBe(200);

    // The passkey stays registered (a found laptop still works); only the step after the password is off.
    expect(await app.platform.db.selectFrom('dashboardPasskeys').select('name').where('userId', '=', user.id).execute()).toEqual([{ name: 'Lost laptop' }]);
    expect((await admin('user', 'reset-second-factor', '--email', owner.email)).json).toMatchObject({ changed: false, sessionsEnded: 0 });
    const unknown = await admin('user', 'reset-second-factor', '--email', 'nobody@clinic.example');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error).toBe('NOT_FOUND');
  }, 60_000);
});
