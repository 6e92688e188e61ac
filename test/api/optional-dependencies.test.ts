import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, freshDatabaseEnv } from '../support/harness';
import { buildServiceBundle, startServiceProcess } from '../support/service-process';

/**
 * `npm start` loads an optional dependency only when the configuration uses it (docs/scale/startup.md): each costs
 * start-up time. The real bundle runs in a child process with a preloaded script that writes, at exit, every
 * CommonJS module the process loaded (`Module._cache`: a package imported from the ESM bundle is there too, as is one
 * loaded with `createRequire`). The database driver in use must be among them (the evidence works), the others not.
 */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
let preload: string;

beforeAll(async () => {
  database = await freshDatabaseEnv();
  bundle = await buildServiceBundle(`optional-${path.basename(database.dataDir)}`);
  preload = path.join(database.dataDir, 'record-modules.cjs');
  fs.writeFileSync(
    preload,
    `const fs = require('node:fs');\nconst Module = require('node:module');\nprocess.on('exit', () => fs.writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(Module._cache))));\n`,
  );
});
afterAll(async () => {
  bundle.remove();
  await database.drop();
});

/** The packages (under node_modules) a started, probed and stopped server loaded. */
async function packagesLoaded(env: Record<string, string>): Promise<Set<string>> {
  const file = path.join(database.dataDir, `modules-${Date.now()}.json`);
  const service = await startServiceProcess(bundle.file, { ...database.env, ...env, NODE_OPTIONS: `--require ${preload}`, LOADED_MODULES_FILE: file });
  try {
    await expect.poll(async () => (await fetch(`${service.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    // A request through the API's stack (authentication refuses it) and the checkout page's.
    expect((await fetch(`${service.url}/v1/products`, { headers: { Authorization: 'ApiKey nope:nope' } })).status).toBe(401);
  } finally {
    service.kill('SIGTERM');
    expect(await service.exit, service.output()).toBe(0);
  }
  const loaded = JSON.parse(fs.readFileSync(file, 'utf8')) as string[];
  return new Set(loaded.map((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(m)?.[1]).filter((p): p is string => Boolean(p)));
}

describe('optional dependencies at start-up', () => {
  it('are not loaded when not configured: no Redis client without REDIS_URL, no PostgreSQL driver on SQLite, no WebSocket server before a meeting, no SMTP client, no argon2 before a password', async () => {
    const loaded = await packagesLoaded({});
    // The evidence works: the driver of the database in use is there (and express, which serves every request).
    expect(loaded).toContain('express');
    expect(loaded).toContain(dialect === 'postgres' ? 'pg' : 'better-sqlite3');
    expect(loaded).not.toContain('ioredis');
    if (dialect !== 'postgres') expect(loaded).not.toContain('pg');
    expect(loaded).not.toContain('ws');
    expect(loaded).not.toContain('nodemailer');
    expect(loaded).not.toContain('@node-rs/argon2');
  }, 60_000);
});
