import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, keyHeaders, startSecondInstance, startTestApp, type KeyPair, type TestApp } from '../support/harness';

/**
 * Revocation across processes: the servers keep their default key cache (AUTH_CACHE_TTL_MS, 30 s),
 * the operator CLI (another OS process) revokes or disables, and every server refuses the key within 1 s.
 */
const exec = promisify(execFile);
let app: TestApp;
let second: { url: string; stop(): Promise<void> };
let bundle: string;

beforeAll(async () => {
  app = await startTestApp();
  second = await startSecondInstance(app, {});
  bundle = path.resolve('dist', `test-revocation-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await second?.stop();
  await app?.stop();
});

async function admin(...args: string[]): Promise<void> {
  const { stdout } = await exec(process.execPath, [bundle, ...args, '--json'], { env: { ...process.env, ...app.env, LOG_LEVEL: 'warn' }, timeout: 60_000 });
  expect(JSON.parse(stdout)).not.toHaveProperty('error');
}

async function status(url: string, key: KeyPair): Promise<{ status: number; error?: string }> {
  const res = await fetch(`${url}/v1/products`, { headers: keyHeaders(key) });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error };
}

/** Milliseconds until `url` answers `expected` for the key (polling every 25 ms, giving up after 5 s). */
async function msUntil(url: string, key: KeyPair, expected: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 5_000) {
    if ((await status(url, key)).status === expected) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Number.POSITIVE_INFINITY;
}

describe('revocation seen by every running process', { timeout: 90_000 }, () => {
  it('when the operator CLI revokes a key both servers have cached, then both answer 401 within 1 s and the other key keeps working', async () => {
    const tenant = await createTenant(app);
    // Arrange: a successful call on each server caches the key there.
    expect((await status(app.url, tenant.test)).status).toBe(200);
    expect((await status(second.url, tenant.test)).status).toBe(200);

    await admin('key', 'revoke', '--public-key', tenant.test.publicKey);

    const [first, other] = await Promise.all([msUntil(app.url, tenant.test, 401), msUntil(second.url, tenant.test, 401)]);
    expect(first).toBeLessThan(1_000);
    expect(other).toBeLessThan(1_000);
    expect(await status(app.url, tenant.test)).toEqual({ status: 401, error: 'UNAUTHENTICATED' });
    expect((await status(app.url, tenant.live)).status).toBe(200);
    expect((await status(second.url, tenant.live)).status).toBe(200);
  });

  it('when the operator CLI disables an organisation, then both servers answer 403 ORGANISATION_DISABLED within 1 s', async () => {
    const tenant = await createTenant(app);
    const bystander = await createTenant(app);
    for (const url of [app.url, second.url]) {
      expect((await status(url, tenant.live)).status).toBe(200);
      expect((await status(url, bystander.live)).status).toBe(200);
    }
    const input = path.join(app.dataDir, 'disable.json');
    fs.writeFileSync(input, JSON.stringify({ disabled: true }));

    await admin('org', 'configure', '--org', tenant.organisationId, '--input', input);

    const [first, other] = await Promise.all([msUntil(app.url, tenant.live, 403), msUntil(second.url, tenant.live, 403)]);
    expect(first).toBeLessThan(1_000);
    expect(other).toBeLessThan(1_000);
    expect(await status(second.url, tenant.live)).toEqual({ status: 403, error: 'ORGANISATION_DISABLED' });
    expect((await status(app.url, bystander.live)).status).toBe(200);
  });

  it('while the epoch stays put, a cached key is answered from memory (so the tests above exercise a live cache)', async () => {
    const tenant = await createTenant(app);
    expect((await status(app.url, tenant.test)).status).toBe(200);
    // Revoked behind the service's back (no epoch move): the cache keeps answering from memory.
    await app.platform.db.updateTable('apiKeys').set({ revokedAt: new Date().toISOString() }).where('publicKey', '=', tenant.test.publicKey).execute();
    for (let i = 0; i < 5; i += 1) expect((await status(app.url, tenant.test)).status).toBe(200);
    app.platform.authenticator.invalidate();
    expect((await status(app.url, tenant.test)).status).toBe(401);
  });
});
