import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import fs from 'node:fs';
import express from 'express';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { percentile } from './support';

/**
 * `npm run bench -- checkout`: the widget's weight (the script-tag bundle, Lit and every element
 * included, gzipped; budget 30 KB), the time from navigating to the hosted page to its first
 * interactive step (the OTP button enabled), and the embedded mount: a partner page on another
 * origin with the script tag, from the script's request to the first step rendered (`lc-ready`),
 * in the machine's Chromium with 4× CPU throttling (CDP emulation; budget 1 s). Baseline in the
 * same run: the same loads without throttling.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

function report(label: string, throttle: number, times: number[]): void {
  times.sort((a, b) => a - b);
  console.log(
    `${throttle}× CPU: ${label} over ${times.length} fresh sessions: p50 ${percentile(times, 50).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms${throttle === 4 ? '  (budget < 1000 ms)' : '  (baseline)'}`,
  );
}

async function hosted(app: TestApp, tenant: LendingTenant, browser: Browser): Promise<void> {
  for (const throttle of [1, 4]) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { loan } = await offeredLoan(app, tenant);
      const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      const started = performance.now();
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await page.getByRole('button', { name: 'Send code' }).waitFor();
      times.push(performance.now() - started);
      await context.close();
    }
    report('hosted page to first interactive step', throttle, times);
  }
}

/** The partner's side: its mounted checkout server and a page on another origin (localhost vs 127.0.0.1) with the snippet and the element. */
async function embedded(app: TestApp, tenant: LendingTenant, browser: Browser): Promise<void> {
  const site = express();
  const server = http.createServer(site);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const backend = `http://127.0.0.1:${port}`;
  const pageOrigin = `http://localhost:${port}`;
  const router = createCheckoutRouter({ apiBaseUrl: app.url, publicKey: tenant.test.publicKey, secretKey: tenant.test.secretKey, allowedOrigins: [pageOrigin] });
  const tokens = new Map<string, string>();
  site.use('/checkout', router);
  site.get('/shop/:id', (req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="checkout"></div>
<script>
(function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
LoanCheckout('mount', '#checkout', { session: ${JSON.stringify(tokens.get(req.params.id))}, onEvent: function (e) { if (e.type === 'ready') window.__ready = performance.now(); } });
</script>
<script async src="${backend}/checkout/widget.js"></script></body></html>`);
  });
  try {
    for (const throttle of [1, 4]) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { loan } = await offeredLoan(app, tenant);
        const session = await router.createSession(loan.id);
        tokens.set(session.id, session.token);
        const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        await page.goto(`${pageOrigin}/shop/${session.id}`);
        await page.getByRole('button', { name: 'Send code' }).waitFor();
        await page.waitForFunction(() => (window as { __ready?: number }).__ready !== undefined);
        // From the moment the page asked for widget.js to the first step rendered (the `ready` event).
        times.push(
          await page.evaluate(() => {
            const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/checkout/widget.js'))!;
            return (window as unknown as { __ready: number }).__ready - script.startTime;
          }),
        );
        await context.close();
      }
      report('embedded script load to first step rendered', throttle, times);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function checkout(): Promise<void> {
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn' });
  const bundle = fs.readFileSync('dist/widget/checkout.js');
  console.log(`widget bundle (script tag, IIFE): ${(bundle.length / 1024).toFixed(1)} KB, ${(zlib.gzipSync(bundle, { level: 9 }).length / 1024).toFixed(1)} KB gzipped (budget 30 KB)`);

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
