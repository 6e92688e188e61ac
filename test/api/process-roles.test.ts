import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, freshDatabaseEnv } from '../support/harness';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';

/** Roles on the project's database: `all` by default, and an api and a worker process sharing one database (on SQLite: one file). */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
const running: ServiceProcess[] = [];
beforeAll(async () => {
  database = await freshDatabaseEnv();
  bundle = await buildServiceBundle(`roles-${path.basename(database.dataDir)}`);
});
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  bundle.remove();
  await database.drop();
});

async function start(env: Record<string, string>, args: string[] = []) {
  const p = await startServiceProcess(bundle.file, { ...database.env, ...env }, args);
  running.push(p);
  return p;
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } });

describe(`process roles (${dialect})`, () => {
  it('npm start is role all: the API, the probes and every job, ready once migrated', async () => {
    const all = await start({});
    expect(all.output()).toMatch(/role all: listening on http:\/\/[\d.:]+ \(docs at .*; all background jobs\)/);
    expect(await json(await fetch(`${all.url}/readyz`))).toMatchObject({ status: 200, body: { data: { status: 'ready', role: 'all', database: dialect } } });
    expect(await json(await fetch(`${all.url}/healthz`))).toMatchObject({ status: 200, body: { data: { status: 'ok', role: 'all' } } });
    all.kill('SIGTERM');
    expect(await all.exit).toBe(0);
  }, 60_000);

  it('an api and a worker process may share one database (on SQLite one file, one machine); the worker serves only the probes', async () => {
    const api = await start({}, ['--role', 'api']);
    const worker = await start({ PROCESS_ROLE: 'worker' });
    expect(api.output()).toMatch(/role api: .*no background jobs/);
    if (dialect === 'sqlite') expect(api.output()).toContain('split roles on SQLite');
    else expect(api.output()).not.toContain('split roles on SQLite');
    expect(worker.output()).toMatch(/role worker: .*\/healthz and \/readyz only; all background jobs/);
    expect(worker.output()).not.toContain('Sandbox ready.');
    const publicKey = /public key\s+(pk_test_\w+)/.exec(api.output())![1]!;
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(api.output())![1]!;
    const headers = { Authorization: `ApiKey ${publicKey}:${secretKey}` };
    expect((await fetch(`${api.url}/v1/products`, { headers })).status).toBe(200);
    expect((await fetch(`${worker.url}/v1/products`, { headers })).status).toBe(404);
    expect((await fetch(`${worker.url}/api-docs`)).status).toBe(404);
    for (const p of [api, worker]) expect((await fetch(`${p.url}/readyz`)).status).toBe(200);
    for (const p of [api, worker]) p.kill('SIGTERM');
    for (const p of [api, worker]) expect(await p.exit).toBe(0);
  }, 60_000);

  it('refuses an unknown role', async () => {
    await expect(start({}, ['--role', 'scheduler'])).rejects.toThrow(/--role must be api, worker or all \(got "scheduler"\)/);
    await expect(start({ PROCESS_ROLE: 'cron' })).rejects.toThrow(/PROCESS_ROLE/);
  }, 30_000);
});
