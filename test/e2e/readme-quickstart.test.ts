import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * The README's quick start, as a newcomer runs it: the client package is built and packed (`npm run build:sdk`, by the
 * e2e global setup), the
 * tarball installed into an empty project (npm, offline: from the cache `npm ci` filled, never the network), and the
 * README's code block saved as `quickstart.mjs` and run as written against a started platform with its webhook
 * dispatcher: push → offer → checkout session → a webhook verified.
 */
let app: TestApp;
let tenant: LendingTenant;
let dispatcher: WebhookDispatcher;
let project: string;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The first ```js block under "## Quick start" in README.md: the code exactly as a reader copies it. */
function quickStartCode(): string {
  const readme = fs.readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README.md has no ```js block under "## Quick start"');
  return match[1]!;
}

/** The client package's dependencies, and theirs, packed from node_modules into `into`: their tarball paths. */
function dependencyTarballs(into: string): string[] {
  fs.mkdirSync(into, { recursive: true });
  const names = new Set<string>();
  const visit = (packageJson: string) => {
    const { dependencies = {} } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(dependencies)) {
      if (names.has(name)) continue;
      names.add(name);
      visit(path.resolve('node_modules', name, 'package.json'));
    }
  };
  visit(path.resolve('sdk/package.json'));
  if (names.size === 0) return [];
  const packed = execFileSync('npm', ['pack', ...[...names].map((name) => path.resolve('node_modules', name)), '--offline', '--loglevel=error'], { cwd: into, encoding: 'utf8' });
  return packed.trim().split('\n').map((file) => path.join(into, file.trim()));
}

beforeAll(async () => {
  // Built and packed once by the e2e project's global setup (test/support/build-bundles.ts).
  const packed = fs.readdirSync('dist/sdk').filter((f) => f.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  const tarball = path.resolve('dist/sdk', packed[0]!);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'my-integration', private: true, type: 'module' }));
  // The package's dependencies come packed from this repository's node_modules (the versions the lockfile pinned),
  // installed beside it: npm resolving a tarball's dependency ranges asks for their full registry metadata, which
  // `npm ci` does not cache, and a test never reaches the network.
  const dependencies = dependencyTarballs(path.join(project, '.deps'));
  execFileSync('npm', ['install', ...dependencies, tarball, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, stdio: 'pipe', timeout: 120_000 });
  fs.writeFileSync(path.join(project, 'quickstart.mjs'), quickStartCode());
  app = await startTestApp();
  tenant = await lendingTenant(app);
  dispatcher = new WebhookDispatcher(app.platform);
  dispatcher.start();
}, 180_000);
afterAll(async () => {
  await dispatcher?.stop();
  await app?.stop();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe("the README's quick start", () => {
  it('runs as written from the packed client: push, offer, checkout session, a verified webhook', async () => {
    // Only the tarball's files were installed: the package resolves from the project, not from this repository.
    const installed = fs.realpathSync(path.join(project, 'node_modules', '@lending-platform', 'client'));
    expect(installed.startsWith(fs.realpathSync(project))).toBe(true);
    const child = spawn(process.execPath, ['quickstart.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, LENDING_BASE_URL: app.url, LENDING_PUBLIC_KEY: tenant.test.publicKey, LENDING_SECRET_KEY: tenant.test.secretKey, WEBHOOK_PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, output).toBe(0);
    const loan = /loan ([0-9a-f-]{36}): 10000000 kobo, checkout at (http:\/\/\S+\/checkout\/c\/cs_test_\w+)/.exec(output);
    expect(loan, output).not.toBeNull();
    expect(output).toMatch(/verified webhook preapproval\.received for pre-approval [0-9a-f-]{36}/);
    // The loan it reported is the tenant's, and its checkout URL opens.
    const row = await app.platform.db.selectFrom('loans').select(['organisationId', 'principalKobo']).where('id', '=', loan![1]!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ organisationId: tenant.organisationId, principalKobo: 10_000_000 });
    expect((await fetch(loan![2]!, { redirect: 'manual' })).status).toBeLessThan(400);
  }, 90_000);
});
