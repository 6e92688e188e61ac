import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';

/** SQLite only: another process (the operator CLI, a second server) writing to the same file. */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

describe('a second writer on the same SQLite file', () => {
  it('makes a write request wait for the lock instead of failing with "database is locked"', async () => {
    // Another process takes the write lock, says so, holds it for 400 ms, then commits.
    const script = `
      const db = new (require('better-sqlite3'))(process.argv[1]);
      db.exec('begin immediate');
      db.prepare("insert into platform_state (key, value, updated_at) values ('held', '1', '2026-01-01T00:00:00.000Z')").run();
      process.stdout.write('locked\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
      db.exec('commit');
      db.close();`;
    const other = spawn(process.execPath, ['-e', script, path.join(app.dataDir, 'platform.sqlite')], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()));
    const res = await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    expect(res.status).toBe(202);
    await new Promise((r) => other.once('exit', r));
  });
});
