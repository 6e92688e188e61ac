import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import fs from 'node:fs';
import express from 'express';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { build } from 'vite';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { percentile } from './support';

/**
 * `npm run bench -- checkout`: what a borrower's phone pays to reach the first interactive step (the
 * OTP step rendered: the checkout's `lc-ready` event), in the machine's Chromium, each run a fresh
 * browser context (empty cache):
 * - bytes over the wire: every response of the page up to that moment, as received (compressed,
 *   headers included): the sum of CDP `Network.loadingFinished` `encodedDataLength`;
 * - time from navigation start to the first step rendered.
 * Conditions: "slow 4G" (CDP network emulation: 150 ms round trip, 1.6 Mbps down, 750 kbps up, and
 * 4× CPU throttling) against the budgets (≤ 45 KB, < 2.5 s); baselines in the same run: unthrottled,
 * and the uncompressed path (the browser sends `Accept-Encoding: identity`).
 * Two ways in: the hosted page (`/checkout/c/<token>`), and a partner page on another origin with
 * only the script tag of the platform's hosted checkout (the organisation's allowedOrigins).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const BYTES_BUDGET = 45 * 1024;
const TIME_BUDGET_MS = 2_500;

interface Condition {
  label: string;
  throttled: boolean;
  uncompressed: boolean;
  budget: boolean;
}

const CONDITIONS: Condition[] = [
  { label: 'slow 4G (150 ms RTT, 1.6 Mbps) + 4× CPU', throttled: true, uncompressed: false, budget: true },
  { label: 'baseline: unthrottled', throttled: false, uncompressed: false, budget: false },
  { label: 'baseline: slow 4G + 4× CPU, uncompressed (Accept-Encoding: identity)', throttled: true, uncompressed: true, budget: false },
];

async function emulate(cdp: CDPSession, condition: Condition): Promise<void> {
  await cdp.send('Network.enable');
  if (condition.throttled) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 });
  }
  if (condition.uncompressed) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
}

/** One fresh load: bytes received (compressed, with headers) and ms from navigation start until the first step is rendered. */
async function load(browser: Browser, url: string, condition: Condition): Promise<{ bytes: number; ms: number; resources: Map<string, number> }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      document.addEventListener('lc-ready', () => ((window as unknown as { __ready: number }).__ready = performance.now()), { once: true });
    });
    const cdp = await context.newCDPSession(page);
    await emulate(cdp, condition);
    const urls = new Map<string, string>();
    const resources = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
    cdp.on('Network.loadingFinished', (e) => {
      const name = new URL(urls.get(e.requestId) ?? 'about:blank').pathname.replace(/cs_(test|live)_\w+/, 'cs_…');
      resources.set(name, (resources.get(name) ?? 0) + e.encodedDataLength);
    });
    await page.goto(url);
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined);
    const ms = await page.evaluate(() => (window as unknown as { __ready: number }).__ready);
    const bytes = [...resources.values()].reduce((a, b) => a + b, 0);
    return { bytes, ms, resources };
  } finally {
    await context.close();
  }
}

function report(way: string, condition: Condition, runs: { bytes: number; ms: number }[]): void {
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const bytes = runs.map((r) => r.bytes).sort((a, b) => a - b);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const p50 = percentile(times, 50);
  const verdict = condition.budget
    ? `  (budgets ≤ 45 KB: ${percentile(bytes, 50) <= BYTES_BUDGET ? 'met' : 'MISSED'}; < 2500 ms: ${p50 < TIME_BUDGET_MS ? 'met' : 'MISSED'})`
    : '';
  console.log(
    `${way}, ${condition.label}, ${runs.length} fresh loads: over the wire p50 ${kb(percentile(bytes, 50))} (max ${kb(bytes.at(-1)!)}); first step p50 ${p50.toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms${verdict}`,
  );
}

function breakdown(resources: Map<string, number>): void {
  for (const [name, bytes] of [...resources].sort((a, b) => b[1] - a[1])) console.log(`    ${(bytes / 1024).toFixed(1).padStart(6)} KB  ${name}`);
}

async function hosted(app: TestApp, tenant: LendingTenant, browser: Browser): Promise<void> {
  for (const condition of CONDITIONS) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const { loan } = await offeredLoan(app, tenant);
      runs.push(await load(browser, new URL(new URL(loan.applicationUrl).pathname, app.url).href, condition));
    }
    report('hosted page', condition, runs);
    if (condition.budget) breakdown(runs.at(-1)!.resources);
  }
}

/** A partner page on another origin (localhost vs the platform's 127.0.0.1) with the snippet and the platform's script tag only. */
async function embedded(app: TestApp, tenant: LendingTenant, browser: Browser): Promise<void> {
  const site = express();
  const server = http.createServer(site);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const pageOrigin = `http://localhost:${(server.address() as { port: number }).port}`;
  const settings = await client(app, tenant.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [pageOrigin] } });
  if (settings.status !== 200) throw new Error(`could not set allowedOrigins: ${JSON.stringify(settings.body)}`);
  const tokens = new Map<string, string>();
  site.get('/shop/:id', (req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head><body><div id="checkout"></div>
<script>
(function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
LoanCheckout('mount', '#checkout', { session: ${JSON.stringify(tokens.get(req.params.id))} });
</script>
<script async src="${app.url}/checkout/widget.js"></script></body></html>`);
  });
  try {
    for (const condition of CONDITIONS) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const { loan } = await offeredLoan(app, tenant);
        const minted = await client(app, tenant.test).post(`/v1/loans/${loan.id}/checkout-sessions`);
        tokens.set(minted.body.data.id, minted.body.data.token);
        runs.push(await load(browser, `${pageOrigin}/shop/${minted.body.data.id}`, condition));
      }
      report("partner page, script tag of the platform's hosted checkout", condition, runs);
      if (condition.budget) breakdown(runs.at(-1)!.resources);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function checkout(): Promise<void> {
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn' });
  const bundle = fs.readFileSync('dist/widget/checkout.js');
  const gzip = zlib.gzipSync(bundle, { level: 9 }).length;
  const brotli = zlib.brotliCompressSync(bundle, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(
    `widget bundle (script tag, IIFE): ${(bundle.length / 1024).toFixed(1)} KB, ${(gzip / 1024).toFixed(1)} KB gzipped (budget 30 KB: ${gzip <= 30 * 1024 ? 'met' : 'MISSED'}), ${(brotli / 1024).toFixed(1)} KB brotli (what browsers get)`,
  );

  const app = await startTestApp();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: FLAGS });
  try {
    const tenant = await lendingTenant(app);
    await hosted(app, tenant, browser);
    await embedded(app, tenant, browser);
  } finally {
    await browser.close();
    await app.stop();
  }
}
