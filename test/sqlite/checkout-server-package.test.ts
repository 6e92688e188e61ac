import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { tokenOf, uniquePhone } from '../support/checkout';

/**
 * `<package>/checkout-server`: what a partner that mounts its own checkout server imports. Built by
 * the real script (`npm run build:checkout-server`), imported by its package name in a separate Node
 * process (so the `exports` map is what resolves it), mounted in Express, and called; its types
 * checked by the TypeScript compiler from a consumer file. In the SQLite project only: the database
 * plays no part, and two projects building into the one dist/checkout-server at once would race.
 */
const run = promisify(execFile);
const OUT = path.resolve('dist/checkout-server');
const CONSUMER = path.resolve(`dist/checkout-server-consumer-${process.pid}`);
const SHOP = 'https://shop.example';
let app: TestApp;
let child: ChildProcess | undefined;

beforeAll(async () => {
  await run('npm', ['run', '-s', 'build:checkout-server'], { timeout: 120_000 });
  fs.mkdirSync(CONSUMER, { recursive: true });
  app = await startTestApp();
}, 180_000);
afterAll(async () => {
  child?.kill();
  fs.rmSync(CONSUMER, { recursive: true, force: true });
  await app?.stop();
});

describe('the checkout server package entry', () => {
  it('builds to JavaScript and declarations that hold only the checkout server and its small helpers, not the platform', () => {
    expect(fs.existsSync(path.join(OUT, 'index.js'))).toBe(true);
    const declarations = fs.readdirSync(path.join(OUT, 'types'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'));
    expect(declarations).toContain(path.join('server', 'checkout', 'index.d.ts'));
    for (const file of declarations) expect(file, file).toMatch(/^(server[\\/](checkout|shared)|widget[\\/]theme\.d\.ts$)/);
    // The bundle reaches the platform over HTTP only: none of its database or domain code is inside.
    const code = fs.readFileSync(path.join(OUT, 'index.js'), 'utf8');
    for (const platformOnly of ['kysely', 'better-sqlite3', 'selectFrom(']) expect(code).not.toContain(platformOnly);
  });

  it('imported by its package name in Node, mounts in an Express app and serves a session to an allowed origin', async () => {
    const { loan } = await offeredLoan(app, await lendingTenant(app), { phone: uniquePhone() });
    const script = path.join(CONSUMER, 'mount.mjs');
    fs.writeFileSync(
      script,
      `import express from 'express';
import { createCheckoutRouter } from 'lending-checkout-platform/checkout-server';
const site = express();
site.use('/checkout', createCheckoutRouter({ apiBaseUrl: ${JSON.stringify(app.url)}, allowedOrigins: [${JSON.stringify(SHOP)}] }));
const server = site.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`,
    );
    const proc = (child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      let err = '';
      proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      proc.on('exit', (code) => reject(new Error(`the consumer exited (${code}): ${err}`)));
    });
    const state = await fetch(`http://127.0.0.1:${port}/checkout/api/state`, { headers: { origin: SHOP, authorization: `CheckoutSession ${tokenOf(loan.applicationUrl)}` } });
    expect(state.status).toBe(200);
    expect(state.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(((await state.json()) as { data: { session: { loanId: string } } }).data.session.loanId).toBe(loan.id);
    // The default widget is the package's own build (dist/widget beside dist/checkout-server), when built.
    const widget = await fetch(`http://127.0.0.1:${port}/checkout/widget.js`);
    expect(widget.status).toBe(fs.existsSync('dist/widget/checkout.js') ? 200 : 404);
    expect(widget.headers.get('content-type')).toMatch(/javascript/);
  }, 60_000);

  it('its types check in a consumer (and are real types: a wrong option is an error)', async () => {
    fs.writeFileSync(
      path.join(CONSUMER, 'consumer.ts'),
      `import express from 'express';
import { createCheckoutRouter, type CheckoutRouter, type CheckoutRouterOptions, type MintedSession } from 'lending-checkout-platform/checkout-server';
const options: CheckoutRouterOptions = { apiBaseUrl: 'https://api.lending.example', publicKey: 'pk', secretKey: 'sk', allowedOrigins: ['https://shop.example'], theme: { brandColor: '#0f766e' } };
const router: CheckoutRouter = createCheckoutRouter(options);
express().use('/checkout', router);
export const minted: Promise<MintedSession> = router.createSession('loan-id');
// @ts-expect-error apiBaseUrl is a string
createCheckoutRouter({ apiBaseUrl: 42 });
// @ts-expect-error not an option
createCheckoutRouter({ apiBaseUrl: 'https://x.example', allowedOrigin: [] });
`,
    );
    fs.writeFileSync(
      path.join(CONSUMER, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['consumer.ts'] }),
    );
    const result = await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', CONSUMER], { timeout: 120_000 }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
    expect(result.stdout).toBe('');
    expect('failed' in result).toBe(false);
  }, 120_000);
});
