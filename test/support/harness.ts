import { inject } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { startWebServer, type WebServer } from '../../server/app';
import { createPlatform, type Platform } from '../../server/platform/platform';
import { createLogger } from '../../server/platform/log/create-logger';
import type { Clock } from '../../server/integrations/clock';
import { createOrganisation, configureOrganisation, type TenantSettings } from '../../server/platform/domain/organisations/organisation';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { assertEventsDocumented } from './webhooks';

export const dialect = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
export const TEST_MASTER_KEY = 'test-master-key-0123456789abcdef0123456789';

export interface TestApp {
  url: string;
  platform: Platform;
  web: WebServer;
  dataDir: string;
  pgSchema?: string;
  /** Connection string for a child process (the CLI) to reach the same database. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** This vitest run's id (`global-setup.ts`); outside vitest (the benchmarks), one of this process's own. */
function testRun(): string {
  try {
    return inject('testRun');
  } catch {
    return Math.floor(Date.now() / 1000).toString(36);
  }
}

/** A private PostgreSQL schema (dropped on stop), or a private SQLite file. */
export async function freshDatabaseEnv(): Promise<{ env: Record<string, string>; pgSchema?: string; dataDir: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-test-'));
  if (dialect !== 'postgres') {
    return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  // Named after this run (`global-setup.ts`), which drops its own schemas when it ends.
  const schema = `t_${testRun()}_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`create schema ${schema}`));
  const separator = url.includes('?') ? '&' : '?';
  const schemaUrl = `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: schemaUrl },
    pgSchema: schema,
    dataDir,
    // The schema itself is dropped by the global teardown, after every file has finished.
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Where logs go (silent by default). */
  logger?: pino.Logger;
}

/** The real app, in process, on a free loopback port, on the database this project runs against. */
export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  const database = await freshDatabaseEnv();
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    MASTER_KEY: TEST_MASTER_KEY,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SANDBOX: 'false',
    USAGE_FLUSH_INTERVAL_MS: '100',
    // The suite's webhook receivers listen on loopback; tests of the SSRF guard pass 'false' (the default).
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    ...database.env,
    ...options.env,
  };
  const config = loadConfig(env);
  const platform = await createPlatform(config, {
    clock: options.clock,
    logger: options.logger ?? createLogger('silent'),
    pgSchema: database.pgSchema,
    sqliteFile: path.join(database.dataDir, 'platform.sqlite'),
  });
  const web = await startWebServer(platform, { port: 0, host: '127.0.0.1' });
  return {
    url: web.url,
    platform,
    web,
    dataDir: database.dataDir,
    pgSchema: database.pgSchema,
    env: { ...database.env, MASTER_KEY: TEST_MASTER_KEY },
    async stop() {
      await web.stop();
      // Every event the test caused must match the documented webhook payloads.
      try {
        await assertEventsDocumented(platform.db);
      } finally {
        await platform.close();
        await database.drop();
      }
    },
  };
}

/** Another process's worth of platform (own caches, own limiter) on the same database as `app`. */
export async function startSecondInstance(app: TestApp, env: Record<string, string>, options: { clock?: Clock } = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const config = loadConfig({ ...app.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BOOTSTRAP_SANDBOX: 'false', WEBHOOK_ALLOW_LOOPBACK: 'true', ...env });
  const platform = await createPlatform(config, {
    clock: options.clock,
    logger: createLogger('silent'),
    pgSchema: app.pgSchema,
    sqliteFile: path.join(app.dataDir, 'platform.sqlite'),
  });
  const web = await startWebServer(platform, { port: 0, host: '127.0.0.1' });
  return {
    url: web.url,
    async stop() {
      await web.stop();
      await platform.close();
    },
  };
}

export interface KeyPair {
  publicKey: string;
  secretKey: string;
}

export interface Tenant {
  organisationId: string;
  test: KeyPair;
  live: KeyPair;
}

let tenantCounter = 0;

/** An organisation with a test and a live key pair; permissions and settings as given. */
export async function createTenant(
  app: TestApp,
  options: { loanTenant?: boolean; preapprovedLending?: boolean; settings?: TenantSettings } = {},
): Promise<Tenant> {
  const { db, secrets } = app.platform;
  const now = app.platform.clock.now();
  tenantCounter += 1;
  const org = await createOrganisation(db, {
    name: `Tenant ${tenantCounter} ${crypto.randomBytes(3).toString('hex')}`,
    loanTenant: options.loanTenant,
    preapprovedLending: options.preapprovedLending,
    now,
  });
  if (options.settings) await configureOrganisation(db, org.id, options.settings, now);
  const test = await createApiKey(db, secrets, { organisationId: org.id, mode: 'test', now });
  const live = await createApiKey(db, secrets, { organisationId: org.id, mode: 'live', now });
  return {
    organisationId: org.id,
    test: { publicKey: test.publicKey, secretKey: test.secretKey },
    live: { publicKey: live.publicKey, secretKey: live.secretKey },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function keyHeaders(key: KeyPair): Record<string, string> {
  return { 'X-API-Public-Key': key.publicKey, 'X-API-Secret-Key': key.secretKey };
}

/** A small HTTP client for the app under test. */
export function client(app: TestApp, key?: KeyPair) {
  async function call<T = any>(method: string, pathname: string, init: { body?: unknown; headers?: Record<string, string>; raw?: string } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(key ? keyHeaders(key) : {}), ...init.headers };
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${app.url}${pathname}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }
  return {
    get: <T = any>(p: string, headers?: Record<string, string>) => call<T>('GET', p, { headers }),
    post: <T = any>(p: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', p, { body, headers }),
    call,
  };
}

/** A valid push body with unique ids; override any part. */
export function pushBody(overrides: { assessmentId?: string; bvn?: string; recommendation?: string; amount?: unknown; lastName?: string; phone?: string } = {}) {
  const unique = crypto.randomBytes(5).toString('hex');
  return {
    borrower: { firstName: 'Ada', lastName: overrides.lastName ?? 'Obi', phone: overrides.phone ?? '+2348012345678', email: 'ada@example.com' },
    decision: {
      metadata: {
        assessment_id: overrides.assessmentId ?? `asm_${unique}`,
        bvn: overrides.bvn ?? String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11),
      },
      decision: {
        recommendation: overrides.recommendation ?? 'APPROVE',
        approved_amount: 'amount' in overrides ? overrides.amount : 150000.5,
        conditions: { interest_rate: 4.5, tenor_days: 90, repayment_frequency: 'monthly' },
      },
      confidence: 'high',
      risk_band: 'B',
      trust_score: 712,
    },
    clientReference: `cref_${unique}`,
  };
}
