import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import express from 'express';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { CHECKOUT_EVENT_TYPES, type CheckoutEvent } from '../../widget/embed/events';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { buildWidgetCopy } from '../support/widget-build';
import { axeViolations, axeViolationsWithFrames, deepText, ensureBundles, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * The embedded checkout in the machine's Chromium. Three loopback origins play the parts:
 * - the platform (startTestApp);
 * - the partner's backend `http://127.0.0.1:<B>`: its own mounted checkout server
 *   (createCheckoutRouter with its key pair and allowedOrigins) serving widget.js;
 * - the partner's frontend `http://127.0.0.1:<C>` (the page with the script tag and the element),
 *   framed by the partner's app shell at `http://localhost:<C>` (another origin, same server).
 * `http://localhost:<B>` is an origin nobody allowed.
 */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let app: TestApp;
let tenant: LendingTenant;
let browser: Browser;
let widget: Awaited<ReturnType<typeof buildWidgetCopy>>;
const servers: http.Server[] = [];
let backend: string; // http://127.0.0.1:<B>
let foreign: string; // http://localhost:<B>
let pageOrigin: string; // http://127.0.0.1:<C>
let shellOrigin: string; // http://localhost:<C>
/** Tokens the partner's server side hands to its pages (rendered into the HTML, never in a URL). */
const tokens = new Map<string, string>();

async function listen(handler: express.Express): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as { port: number }).port;
}

const html = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${title}</title></head><body>${body}</body></html>`;

/** The partner page: the documented snippet (queued calls before the script loads), one element, DOM listeners for every event. */
function partnerPage(token: string): string {
  const types = JSON.stringify(CHECKOUT_EVENT_TYPES);
  return html(
    'Shop checkout',
    `<main><h1>Pay in instalments</h1><div id="checkout"></div></main>
<script>
window.__dom = []; window.__api = []; window.__callbacks = [];
for (const type of ${types}) document.addEventListener('lc-' + type.replaceAll('_', '-'), (e) => window.__dom.push(e.detail));
(function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
LoanCheckout('mount', '#checkout', { session: ${JSON.stringify(token)}, onEvent: (e) => window.__callbacks.push(e), onSuccess: (e) => { window.__success = e; }, onExit: (e) => { window.__exit = e; } });
LoanCheckout('on', '*', (e) => window.__api.push(e.type));
LoanCheckout('bogus', 1);
</script>
<script async src="${backend}/checkout/widget.js"></script>`,
  );
}

/** The partner's app shell: frames the partner page and records what it receives by postMessage from it. */
function shellPage(id: string): string {
  return html(
    'Shop app',
    `<iframe title="Loan checkout" src="${pageOrigin}/embed/${id}" style="width:100%;height:1400px;border:0"></iframe>
<script>
window.__messages = [];
window.addEventListener('message', (e) => { if (e.origin === ${JSON.stringify(pageOrigin)} && e.data && e.data.source === 'loan-checkout') window.__messages.push(e.data.event); });
</script>`,
  );
}

beforeAll(async () => {
  widget = await buildWidgetCopy('embed');
  app = await startTestApp();
  tenant = await lendingTenant(app);

  const partnerBackend = express();
  const partnerFrontend = express();
  const backendPort = await listen(partnerBackend);
  const frontendPort = await listen(partnerFrontend);
  backend = `http://127.0.0.1:${backendPort}`;
  foreign = `http://localhost:${backendPort}`;
  pageOrigin = `http://127.0.0.1:${frontendPort}`;
  shellOrigin = `http://localhost:${frontendPort}`;

  partnerBackend.use(
    '/checkout',
    createCheckoutRouter({ apiBaseUrl: app.url, publicKey: tenant.test.publicKey, secretKey: tenant.test.secretKey, allowedOrigins: [pageOrigin, shellOrigin], widgetFile: widget.scriptFile }),
  );
  partnerBackend.get('/blank', (_req, res) => void res.type('html').send(html('Elsewhere', '<p>Another site</p>')));
  partnerFrontend.get('/embed/:id', (req, res) => void res.type('html').send(partnerPage(tokens.get(req.params.id)!)));
  partnerFrontend.get('/shell/:id', (req, res) => void res.type('html').send(shellPage(req.params.id)));
  partnerFrontend.use('/lib', express.static(widget.libDir));
  partnerFrontend.get('/bundled/:id', (req, res) => {
    // A bundler's output importing the ES module build (same origin as the page), with a theme.
    res.type('html').send(
      html(
        'Shop (bundled)',
        `<main><h1>Pay in instalments</h1><div id="checkout"></div></main>
<script type="module">
import { LoanCheckout } from '/lib/index.js';
window.__events = [];
LoanCheckout.mount('#checkout', { session: ${JSON.stringify(tokens.get(req.params.id) ?? '')}, server: '${backend}/checkout', theme: { '--lc-primary': 'rgb(15, 118, 110)', color: 'red' }, onEvent: (e) => window.__events.push(e.type) });
</script>`,
      ),
    );
  });
  partnerFrontend.get('/return', (_req, res) => void res.type('html').send(html('Back at the shop', '<h1>Welcome back</h1>')));

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await app?.stop();
  widget?.remove();
});

/** A loan whose session the partner's server minted through its own mounted checkout server. */
async function partnerSession(phone: string, lender: LendingTenant = tenant) {
  const { loan } = await offeredLoan(app, lender, { phone });
  const session = await (createCheckoutRouter({ apiBaseUrl: app.url, publicKey: lender.test.publicKey, secretKey: lender.test.secretKey })).createSession(loan.id);
  tokens.set(session.id, session.token);
  return { loan, session };
}

async function verifyPhone(frame: Page | Frame, phone: string) {
  await frame.getByRole('button', { name: 'Send code' }).click();
  const input = frame.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
}

const types = (events: CheckoutEvent[]) => events.map((e) => (e.type === 'step_changed' || e.type === 'ready' ? `${e.type}:${e.step}` : e.type));

describe('the embedded checkout on a partner page of another origin', () => {
  it('completes with the script tag and one element; the page gets every event as DOM events and its parent by postMessage; a message from an origin nobody allowed is ignored', async () => {
    const phone = uniquePhone();
    const { loan, session } = await partnerSession(phone);
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    const page = await context.newPage();
    const warnings: string[] = [];
    const pageErrors: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const stateReads: string[] = [];
    page.on('request', (r) => r.url().endsWith('/checkout/api/state') && stateReads.push(r.url()));
    try {
      await page.goto(`${shellOrigin}/shell/${session.id}`);
      const frame = page.frames().find((f) => f.url().startsWith(`${pageOrigin}/embed/`))!;
      expect(frame).toBeDefined();
      await frame.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      // The snippet's queued calls ran, the unknown one was only logged.
      expect(warnings.some((w) => w.includes('unknown call "bogus"'))).toBe(true);
      expect(await axeViolationsWithFrames(page)).toEqual([]);

      // A foreign frame inside the partner page tells the checkout to exit: dropped (its origin is not allowed).
      await frame.evaluate((src) => {
        const evil = document.createElement('iframe');
        evil.src = src;
        evil.title = 'Elsewhere';
        document.body.append(evil);
      }, `${foreign}/blank`);
      const evil = await (async () => {
        for (;;) {
          const found = page.frames().find((f) => f.url() === `${foreign}/blank`);
          if (found) return found;
          await page.waitForEvent('framenavigated');
        }
      })();
      await evil.waitForLoadState();
      await evil.evaluate(() => window.parent.postMessage({ source: 'loan-checkout-host', command: 'exit' }, '*'));
      // The shell (an allowed origin) asks for a refresh: obeyed, the state is read again.
      const readsBefore = stateReads.length;
      await page.evaluate((target) => document.querySelector('iframe')!.contentWindow!.postMessage({ source: 'loan-checkout-host', command: 'refresh' }, target), pageOrigin);
      await expect.poll(() => stateReads.length).toBeGreaterThan(readsBefore);

      await verifyPhone(frame, phone);
      await frame.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await frame.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await frame.getByLabel('I have read the offer and agree to its terms.').check();
      await frame.getByRole('button', { name: 'Sign and accept' }).click();

      await frame.getByRole('heading', { name: 'Your bank account' }).waitFor();
      await chooseBank(frame, 'Guaranty Trust Bank');
      const accountNumber = `012345678${nubanCheckDigit('058', '012345678')}`;
      await frame.getByLabel('Account number').fill(accountNumber);
      await frame.getByText('Account name:').waitFor();
      await frame.getByRole('button', { name: 'This is my account' }).click();

      // The rail's page opens in a new tab (the partner page stays); approving there lands on the
      // checkout server's "back from your bank" page, and the embedded checkout confirms by itself.
      await frame.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
      // A shared phone: the browser still holds the hosted checkout cookie of another borrower's loan (phone verified).
      const otherPhone = uniquePhone();
      const other = await offeredLoan(app, tenant, { phone: otherPhone });
      const otherSession = sessionClient(app, tokenOf(other.loan.applicationUrl));
      await otherSession.post('/v1/checkout/otp/send');
      expect((await otherSession.post('/v1/checkout/otp/verify', { code: await latestOtp(app, otherPhone) })).status).toBe(200);
      await context.addCookies([{ name: 'lc_checkout', value: tokenOf(other.loan.applicationUrl), url: `${backend}/checkout/` }]);
      await frame.getByRole('button', { name: 'Set up direct debit' }).click();
      const [rail] = await Promise.all([context.waitForEvent('page'), frame.getByRole('link', { name: /Continue to your bank/ }).click()]);
      await rail.waitForURL(/\/sandbox\/rails\//);
      await rail.getByRole('button', { name: 'Approve' }).click();
      await rail.waitForURL((url) => url.href.startsWith(`${backend}/checkout/?return=mandate`));
      // The return page is bound to the loan whose mandate was decided: the other loan's cookie changes nothing on it.
      await rail.getByRole('heading', { name: 'Back from your bank' }).waitFor();
      const returned = await deepText(rail, 'body');
      expect(returned).not.toContain(other.loan.id);
      expect(returned).not.toMatch(/offer|₦/i);
      await frame.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 45_000 });

      const expected = [
        'ready:otp',
        'otp_verified',
        'step_changed:offer',
        'offer_signed',
        'step_changed:bank',
        'bank_captured',
        'step_changed:mandate',
        'mandate_redirect',
        'mandate_active',
        'step_changed:complete',
        'completed',
      ];
      const dom = (await frame.evaluate(() => (window as any).__dom)) as CheckoutEvent[];
      expect(types(dom)).toEqual(expected);
      expect(await frame.evaluate(() => (window as any).__api)).toEqual(dom.map((e) => e.type));
      expect(await frame.evaluate(() => (window as any).__callbacks)).toEqual(dom);
      expect(await frame.evaluate(() => (window as any).__success?.type)).toBe('completed');
      expect(await frame.evaluate(() => (window as any).__exit)).toBeUndefined();
      await expect.poll(() => page.evaluate(() => (window as any).__messages.length)).toBe(expected.length);
      expect(await page.evaluate(() => (window as any).__messages)).toEqual(dom);

      // Opaque ids and outcomes only.
      for (const event of dom) expect(event).toMatchObject({ version: 1, sessionId: session.id, loanId: loan.id });
      expect(dom.find((e) => e.type === 'offer_signed')).toMatchObject({ documentReference: loan.documentReference });
      // The mandate events name the mandate (the one now active on the loan).
      const active = await app.platform.db.selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(dom.find((e) => e.type === 'mandate_redirect')).toMatchObject({ mandateId: active.activeMandateId });
      expect(dom.find((e) => e.type === 'mandate_active')).toMatchObject({ mandateId: active.activeMandateId });
      const serialised = JSON.stringify(dom);
      for (const personal of [phone, phone.slice(-10), 'Ada', 'Obi', accountNumber, session.token]) expect(serialised).not.toContain(personal);

      const done = await app.platform.db.selectFrom('loans').select(['status', 'activeMandateId']).where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(done).toMatchObject({ status: 'terms_accepted', activeMandateId: expect.any(String) });
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the ES module build for bundlers mounts the same checkout, with a theme', async () => {
    const { session } = await partnerSession(uniquePhone());
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    const warnings: string[] = [];
    const problems: string[] = [];
    page.on('console', (m) => (m.type() === 'warning' ? warnings : m.type() === 'error' ? problems : []).push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    try {
      await page.goto(`${pageOrigin}/bundled/${session.id}`);
      await page.getByRole('heading', { name: 'Pay in instalments' }).waitFor();
      await expect.poll(async () => problems.length + (await page.getByRole('button', { name: 'Send code' }).count())).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      const send = page.getByRole('button', { name: 'Send code' });
      await send.waitFor();
      expect(await send.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(15, 118, 110)');
      await expect.poll(() => page.evaluate(() => (window as any).__events)).toEqual(['ready']);
      // Text on the brand colour was computed to stay AA (white on this teal: 5.5:1).
      expect(await send.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(255, 255, 255)');
      expect(warnings.some((w) => w.includes('theme: "color" is not brandColor, radius, fontFamily or a --lc-* custom property'))).toBe(true);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('at 360×640 in a webview, the React Native, iOS and Android bridges receive the same events', async () => {
    const phone = uniquePhone();
    const { loan, session } = await partnerSession(phone);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, userAgent: 'Mozilla/5.0 (Linux; Android 14; wv) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36' });
    await context.addInitScript(() => {
      const w = window as any;
      w.__native = { rn: [], ios: [], android: [] };
      w.ReactNativeWebView = { postMessage: (m: string) => w.__native.rn.push(JSON.parse(m)) };
      w.webkit = { messageHandlers: { loanCheckout: { postMessage: (m: string) => w.__native.ios.push(JSON.parse(m)) } } };
      w.LoanCheckoutAndroid = { postMessage: (m: string) => w.__native.android.push(JSON.parse(m)) };
    });
    const page = await context.newPage();
    try {
      // The app opens the session's page in its webview: the partner's checkout server's hosted page.
      await page.goto(`${backend}/checkout/c/${session.token}`);
      expect(new URL(page.url()).pathname).toBe('/checkout/');
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByRole('button', { name: 'Decline the offer' }).click();
      await page.getByRole('heading', { name: 'Offer declined' }).waitFor();

      const native = (await page.evaluate(() => (window as any).__native)) as Record<'rn' | 'ios' | 'android', { source: string; event: CheckoutEvent }[]>;
      expect(native.rn.map((m) => m.source)).toEqual(native.rn.map(() => 'loan-checkout'));
      expect(types(native.rn.map((m) => m.event))).toEqual(['ready:otp', 'otp_verified', 'step_changed:offer', 'offer_declined', 'step_changed:declined']);
      expect(native.ios).toEqual(native.rn);
      expect(native.android).toEqual(native.rn);
      for (const { event } of native.rn) expect(event).toMatchObject({ sessionId: session.id, loanId: loan.id });
      expect(JSON.stringify(native)).not.toContain(phone.slice(-10));
      // No return URL registered: the page stays and shows the outcome.
      expect(new URL(page.url()).pathname).toBe('/checkout/');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('hosted, opened by a partner page with window.open: the opener receives the events by postMessage at its allowed origin', async () => {
    const lender = await lendingTenant(app);
    expect((await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [shellOrigin] } })).status).toBe(200);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${shellOrigin}/return`);
      await page.evaluate(() => {
        (window as any).__messages = [];
        window.addEventListener('message', (e) => {
          if (e.data?.source === 'loan-checkout') (window as any).__messages.push({ origin: e.origin, event: e.data.event });
        });
      });
      const [popup] = await Promise.all([context.waitForEvent('page'), page.evaluate((url) => void window.open(url), `${backend}/checkout/c/${tokenOf(loan.applicationUrl)}`)]);
      await popup.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await verifyPhone(popup, phone);
      await popup.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await expect.poll(() => page.evaluate(() => (window as any).__messages.length)).toBe(3);
      const messages = (await page.evaluate(() => (window as any).__messages)) as { origin: string; event: CheckoutEvent }[];
      expect(messages.map((m) => m.origin)).toEqual([backend, backend, backend]);
      expect(types(messages.map((m) => m.event))).toEqual(['ready:otp', 'otp_verified', 'step_changed:offer']);
      expect(messages[0]!.event).toMatchObject({ loanId: loan.id });
    } finally {
      await context.close();
    }
  }, 90_000);

  it('hosted: when the offer is declined, the borrower is sent to the registered return URL with only the outcome and opaque ids', async () => {
    const lender = await lendingTenant(app);
    const settings = await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { returnUrl: `${shellOrigin}/return?from=shop` } });
    expect(settings.status).toBe(200);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(`${backend}/checkout/c/${tokenOf(loan.applicationUrl)}`);
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByRole('button', { name: 'Decline the offer' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${shellOrigin}/return`));
      await page.getByRole('heading', { name: 'Welcome back' }).waitFor();

      const back = new URL(page.url());
      const sessionRow = await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(Object.fromEntries(back.searchParams)).toEqual({ from: 'shop', outcome: 'declined', loanId: loan.id, checkoutSessionId: sessionRow.id });
      expect(page.url()).not.toContain(phone.slice(-10));
      expect(page.url()).not.toContain(tokenOf(loan.applicationUrl));
      const after = await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(after.status).toBe('terms_declined');
    } finally {
      await context.close();
    }
  }, 90_000);
});

/**
 * The script tag against the platform's OWN hosted checkout (`<platform>/checkout/widget.js`), no
 * checkout server of the partner's: the organisation lists its page's origin in its checkout settings
 * (PATCH /v1/checkout-settings allowedOrigins) and that is all. The partner's page is served at
 * `http://localhost:<D>` (listed) and `http://127.0.0.1:<D>` (not listed); the platform is `app.url`.
 */
describe("the script tag against the platform's hosted checkout", () => {
  let lender: LendingTenant;
  let listed: string; // http://localhost:<D>
  let unlisted: string; // http://127.0.0.1:<D>
  const hostedTokens = new Map<string, string>();

  beforeAll(async () => {
    await ensureBundles();
    const site = express();
    site.get('/pay/:id', (req, res) => {
      res.type('html').send(
        html(
          'Shop checkout',
          `<main><h1>Pay in instalments</h1><div id="checkout"></div></main>
<script>
(function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
window.__events = [];
LoanCheckout('mount', '#checkout', { session: ${JSON.stringify(hostedTokens.get(req.params.id) ?? '')}, onEvent: (e) => window.__events.push(e) });
</script>
<script async src="${app.url}/checkout/widget.js"></script>`,
        ),
      );
    });
    const port = await listen(site);
    listed = `http://localhost:${port}`;
    unlisted = `http://127.0.0.1:${port}`;
    lender = await lendingTenant(app);
    const settings = await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [listed], brandColor: '#b45309' } });
    expect(settings.status).toBe(200);
  });

  /** The partner's backend mints a session with its key pair and renders the token into its page. */
  async function hostedSession(phone: string) {
    const { loan } = await offeredLoan(app, lender, { phone });
    const minted = await client(app, lender.test).post(`/v1/loans/${loan.id}/checkout-sessions`);
    expect(minted.status).toBe(201);
    hostedTokens.set(minted.body.data.id, minted.body.data.token);
    return { loan, sessionId: minted.body.data.id as string };
  }

  it('at 360×640, a page of an origin the organisation allowed runs the checkout through its first steps with only the script tag', async () => {
    const phone = uniquePhone();
    const { loan, sessionId } = await hostedSession(phone);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const api: string[] = [];
    let widgetEncoding: string | undefined;
    page.on('response', async (r) => {
      if (r.url().startsWith(`${app.url}/checkout/api/`)) api.push(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`);
      if (r.url() === `${app.url}/checkout/widget.js`) widgetEncoding = (await r.allHeaders())['content-encoding'];
    });
    try {
      await page.goto(`${listed}/pay/${sessionId}`);
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      // The brand colour saved in the checkout settings applies to the embed (the page set no colour of its own).
      await expect.poll(() => page.locator('lc-checkout').evaluate((el) => getComputedStyle(el).getPropertyValue('--lc-primary').trim())).toBe('#b45309');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'embed-hosted-01-otp');
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await screenshot(page, 'embed-hosted-02-offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'embed-hosted-03-bank');

      // Every call went cross-origin to the platform's own checkout server, and none was refused.
      expect(api).toEqual(expect.arrayContaining([`GET /checkout/api/state 200`, `POST /checkout/api/otp/send 200`, `POST /checkout/api/otp/verify 200`, `POST /checkout/api/offer/accept 200`]));
      expect(api.filter((line) => !/ 2\d\d$/.test(line))).toEqual([]);
      // The script tag's bundle came compressed.
      expect(widgetEncoding).toBe('br');
      const events = (await page.evaluate(() => (window as any).__events)) as CheckoutEvent[];
      expect(types(events)).toEqual(['ready:otp', 'otp_verified', 'step_changed:offer', 'offer_signed', 'step_changed:bank']);
      expect(events[0]).toMatchObject({ loanId: loan.id, sessionId });
      expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow()).status).toBe('terms_accepted');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it("at 360×640, a page of an origin the organisation did not list: the developer's console names the setting, the borrower gets a way forward, never \"could not reach the server\"", async () => {
    const { sessionId } = await hostedSession(uniquePhone());
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${unlisted}/pay/${sessionId}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe("This checkout can't open on this website yet. Go back to the lender's app or website, or contact them for help.");
      expect(await page.getByText('could not reach the server').count()).toBe(0);
      await expect.poll(() => errors.filter((e) => e.includes('[LoanCheckout] origin_not_allowed')).length).toBe(1);
      const logged = errors.find((e) => e.includes('[LoanCheckout] origin_not_allowed'))!;
      expect(logged).toContain(unlisted);
      expect(logged).toContain('PATCH /v1/checkout-settings');
      expect(logged).toContain('allowedOrigins');
      expect(logged).toContain('allowedOrigins option of createCheckoutRouter');
      // The host page learns it too, as an error event with the code.
      await expect.poll(() => page.evaluate(() => (window as any).__events.map((e: CheckoutEvent) => e.type))).toContain('error');
      expect(JSON.stringify(await page.evaluate(() => (window as any).__events))).toContain('origin_not_allowed');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'embed-hosted-refused');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the meeting bundle (built by the global setup) is served precompressed too, by Accept-Encoding', async () => {
    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
      const res = await new Promise<http.IncomingMessage & { body: Buffer }>((resolve, reject) => {
        http.get(`${app.url}/meet/meeting.js`, { headers: { 'accept-encoding': accept } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve(Object.assign(r, { body: Buffer.concat(chunks) })));
        }).on('error', reject);
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['vary']).toContain('Accept-Encoding');
      const plain = encoding === 'br' ? zlib.brotliDecompressSync(res.body) : zlib.gunzipSync(res.body);
      expect(plain).toEqual(fs.readFileSync('dist/meeting/meeting.js'));
    }
  });
});
