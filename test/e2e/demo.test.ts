import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness';
import { SECRET_KEY, startDemoApp } from '../support/demo';
import { axeViolations, axeViolationsWithFrames } from '../support/browser';

/**
 * The sales demo in the machine's Chromium, by clicks alone, on a 1024×768 projector and a
 * 1440×900 laptop: push a decision, complete the borrower's checkout in the phone frame with the
 * page's one-tap fills (the code from the inbox, the signature, the sandbox bank account, the BVN),
 * approve the mandate on the rail's page, disburse, record repayments until the loan is completed,
 * and watch the event feed; everything on one screen. The presenter never types: no text box in the
 * page or the phone receives a keystroke or a typed value (`expectNothingTyped`).
 * Screenshots go to test-artifacts/demo/. The widget and the demo bundle are built once by the e2e
 * project's global setup (test/support/build-bundles.ts).
 */
const ARTIFACTS = path.resolve('test-artifacts/demo');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const PROJECTOR = { width: 1024, height: 768 };
const LAPTOP = { width: 1440, height: 900 };

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  app = await startDemoApp({ RAIL_CONFIRMATION_LAG_MS: '300' });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
const feedEvents = (page: Page) => page.locator('demo-feed li.event').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.event));
const caption = (page: Page, title: string) => page.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
const panelText = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())!.trim();

/** The story, the phone frame (and the checkout in it), the inbox and the feed all lie inside the viewport, and the page does not scroll. */
async function expectOneScreen(page: Page): Promise<void> {
  const viewport = page.viewportSize()!;
  for (const selector of ['section.story', 'demo-phone', 'demo-phone .phone', 'demo-inbox', 'demo-feed', ...((await page.locator('demo-phone iframe').count()) ? ['demo-phone iframe'] : [])]) {
    const box = (await page.locator(selector).boundingBox())!;
    expect(box, selector).not.toBeNull();
    expect(box.x, `${selector} left`).toBeGreaterThanOrEqual(0);
    expect(box.y, `${selector} top`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${selector} right`).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height, `${selector} bottom`).toBeLessThanOrEqual(viewport.height);
  }
  expect(await page.evaluate(() => [document.documentElement.scrollWidth <= innerWidth, document.documentElement.scrollHeight <= innerHeight])).toEqual([true, true]);
}

/**
 * The run's tiles (the facts under the story) do not overlap one another, and each status pill lies wholly inside its
 * tile with its whole label shown (a wide pill once lay over the next tile on a 1024×768 projector).
 */
async function expectTilesApart(page: Page): Promise<void> {
  const layout = await page.locator('section.story dl').evaluate((dl) => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: (el.textContent ?? '').trim() };
    };
    const tiles = [...dl.querySelectorAll(':scope > div')];
    return {
      tiles: tiles.map(box),
      pills: [...dl.querySelectorAll('.status')].map((pill) => ({ ...box(pill), tile: box(pill.closest('dl > div')!), clipped: pill.scrollWidth > pill.clientWidth })),
    };
  });
  const overlap = (a: { left: number; top: number; right: number; bottom: number }, b: typeof a) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  expect(layout.tiles.length).toBeGreaterThan(1);
  for (const [i, a] of layout.tiles.entries()) {
    for (const b of layout.tiles.slice(i + 1)) expect(overlap(a, b), `"${a.text}" and "${b.text}"`).toBe(false);
  }
  expect(layout.pills.length).toBeGreaterThan(0);
  for (const pill of layout.pills) {
    expect(pill.clipped, pill.text).toBe(false);
    expect(pill.left >= pill.tile.left - 0.5 && pill.right <= pill.tile.right + 0.5 && pill.top >= pill.tile.top - 0.5 && pill.bottom <= pill.tile.bottom + 0.5, `"${pill.text}" inside its tile`).toBe(true);
    for (const tile of layout.tiles.filter((t) => t.text !== pill.tile.text)) expect(overlap(pill, tile), `"${pill.text}" over "${tile.text}"`).toBe(false);
  }
}

/** Opens the demo (through its local alias, which sends the browser to the public origin) and records everything the page receives. */
async function openDemo(viewport = PROJECTOR): Promise<{ page: Page; received: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport });
  // In every frame (the page, the checkout in the phone, the rail's page): a text box given a value by a keyboard or
  // by Playwright's fill (both trusted) is logged in the top page; the demo's own fills are the page's script (untrusted).
  await context.addInitScript(() => {
    const top = window.top as Window & { __typed?: string[] };
    const log = (top.__typed ??= []);
    const textBox = (e: Event) => {
      const target = e.composedPath()[0];
      return target instanceof HTMLElement && (target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes((target as HTMLInputElement).type)));
    };
    for (const type of ['input', 'keydown', 'beforeinput', 'paste']) {
      document.addEventListener(type, (e) => {
        if (e.isTrusted && textBox(e)) log.push(`${type} ${(e.composedPath()[0] as HTMLElement).id || (e.composedPath()[0] as HTMLElement).tagName}`);
      }, true);
    }
  });
  const page = await context.newPage();
  const received: string[] = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type === 'fetch' || type === 'xhr' || type === 'document' || type === 'script') received.push(`${res.url()}\n${await res.text().catch(() => '')}`);
  });
  await page.goto(`${app.url}/demo`);
  expect(page.url()).toBe(`${app.platform.baseUrl}/demo`);
  await page.getByRole('radio', { name: /Delegated tier/ }).waitFor();
  return { page, received, close: () => context.close() };
}

/** Nothing was typed anywhere (see `openDemo`): every value in the phone came from a tap. */
async function expectNothingTyped(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as Window & { __typed?: string[] }).__typed ?? [])).toEqual([]);
}

/** The code the inbox panel shows, once the checkout says it was sent. */
async function codeFromInbox(page: Page): Promise<string> {
  const code = page.locator('demo-inbox .code').first();
  await code.waitFor({ timeout: 15_000 });
  return (await code.textContent())!.trim();
}

/** Send code in the phone, then the page's code chip (the inbox's newest code) fills the phone's code box. */
async function verifyPhone(page: Page, phone: FrameLocator): Promise<void> {
  await phone.getByRole('button', { name: 'Send code' }).click();
  await phone.getByLabel(/Code sent to/).waitFor();
  const code = await codeFromInbox(page);
  await page.getByRole('button', { name: `Fill the code ${code} from the inbox` }).click();
}

async function signBankAndMandate(page: Page, phone: FrameLocator, name: string, prefix: string): Promise<void> {
  await phone.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
  // The borrower sees the rate as the demo's lender quotes it, a month (the sandbox products' rate display).
  await phone.getByText('4% a month', { exact: true }).waitFor();
  await shot(page, `${prefix}-offer`);
  await page.getByRole('button', { name: `Sign as ${name}` }).click();
  expect(await phone.getByLabel('Your full name (your signature)').inputValue()).toBe(name);
  await phone.getByLabel('I have read the offer and agree to its terms.').check();
  await phone.getByRole('button', { name: 'Sign and accept' }).click();
  await phone.getByRole('heading', { name: 'Your bank account' }).waitFor();
  await caption(page, 'Signed: now the bank account and the direct debit');
  // Signed but no direct debit yet: Disburse is not offered; the panel says what it waits for.
  expect(await page.getByRole('button', { name: /Disburse/ }).count()).toBe(0);
  expect(await panelText(page, 'waiting')).toMatch(/^Next: Disburse ₦250,000\.00 — once the borrower’s direct debit is active/);
  expect(await panelText(page, 'direct-debit')).toBe('Not set up yet');
  await expectTilesApart(page);
  await shot(page, `${prefix}-signed-waiting-for-mandate`);

  // The sandbox's magic "someone else's account" first: the checkout warns by name; then the borrower's own.
  await page.getByRole('button', { name: /^Fill GTBank account 777777777\d, someone else’s$/ }).click();
  await phone.getByText(/ADEYEMI NGOZI/).first().waitFor();
  await page.getByRole('button', { name: /^Fill GTBank account \d{10}, the borrower’s$/ }).click();
  await phone.getByText('Account name:').waitFor();
  expect(await phone.getByRole('combobox', { name: 'Bank', exact: true }).inputValue()).toBe('Guaranty Trust Bank');
  await shot(page, `${prefix}-bank`);
  await phone.getByRole('button', { name: 'This is my account' }).click();
  await phone.getByRole('button', { name: 'Set up direct debit' }).click();
  // The rail's authorisation page opens inside the phone frame (same origin), then returns to the checkout; it names the direct debit in plain words.
  await phone.getByRole('button', { name: 'Approve' }).waitFor();
  await phone.locator('.bank', { hasText: 'Direct debit mandate' }).waitFor();
  expect(await phone.getByText(/Rail A/).count()).toBe(0);
  // The panel follows the platform's mandate: set up, waiting for the borrower at the bank.
  await page.getByTestId('direct-debit').filter({ hasText: 'Waiting for the borrower’s approval at the bank' }).waitFor();
  await shot(page, `${prefix}-direct-debit-page`);
  await phone.getByRole('button', { name: 'Approve' }).click();
  await phone.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 30_000 });
  await caption(page, 'Direct debit active: ready to pay out');
  expect(await panelText(page, 'direct-debit')).toBe('Active — first debit after the payout');
  expect(await page.getByTestId('waiting').count()).toBe(0);
  await shot(page, `${prefix}-mandate-active`);
}

async function disburseAndRepay(page: Page, prefix: string): Promise<void> {
  await page.getByRole('button', { name: /^Disburse ₦/ }).click();
  await caption(page, 'Disbursed: now the repayments');
  await shot(page, `${prefix}-disbursed`);
  for (let instalment = 1; instalment <= 3; instalment += 1) {
    await page.getByRole('button', { name: new RegExp(`^Record repayment · ₦[\\d,]+\\.\\d{2} \\(instalment ${instalment} of 3\\)$`) }).click();
    if (instalment < 3) await page.getByText(`${instalment} of 3`, { exact: true }).waitFor();
  }
  await caption(page, 'Fully repaid: the loan is completed');
  expect(await page.getByTestId('loan-status').textContent()).toBe('Completed');
  expect(await page.getByRole('button', { name: /Record repayment/ }).count()).toBe(0);
  // A repaid loan's direct debit takes nothing more: never "Active" here.
  expect(await panelText(page, 'direct-debit')).toBe('Completed — no more debits');
  expect(await panelText(page, 'outstanding')).toBe('₦0.00');
}

describe('sales demo in a browser', () => {
  it('delegated tier to completed by clicks alone on a 1024×768 projector: push → OTP from the inbox → sign → bank → mandate → disburse → repayments, all on one screen; the feed shows every event in order and nothing holds a secret key', async () => {
    const { page, received, close } = await openDemo(PROJECTOR);
    try {
      // One name: the tab and the header say the same.
      expect(await page.title()).toBe('Lending platform · live demo');
      expect((await page.getByRole('heading', { level: 1 }).textContent())!.trim()).toBe(await page.title());
      await expectOneScreen(page);
      await shot(page, '01-start');
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'The offer is on the borrower’s phone');
      const phone = page.frameLocator('iframe[title^="Borrower"]');
      await phone.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await page.locator('demo-feed li.event[data-event="loan.offer.issued"]').waitFor();
      // The price as Nigerian lenders quote it, nothing lent yet, and Disburse not offered before the borrower has signed.
      expect(await panelText(page, 'rate')).toBe('4% a month (flat) · 48% a year');
      expect(await panelText(page, 'lent')).toBe('Nothing yet');
      expect(await page.getByRole('button', { name: /Disburse/ }).count()).toBe(0);
      expect(await panelText(page, 'waiting')).toMatch(/^Next: Disburse ₦250,000\.00 — once the borrower has signed/);
      await expectOneScreen(page);
      await expectTilesApart(page);
      await shot(page, '02-offer-sent');

      await verifyPhone(page, phone);
      await shot(page, '03-otp-verified');
      await expectNothingTyped(page);
      await signBankAndMandate(page, phone, 'Amaka Okafor', '04');
      await expectNothingTyped(page);
      await disburseAndRepay(page, '05');
      await page.locator('demo-feed li.event[data-event="loan.completed"]').waitFor();
      await expectOneScreen(page);
      await expectTilesApart(page);
      await shot(page, '06-completed');
      // With the borrower's phone framed in the page: axe must reach into the frame.
      expect(await axeViolationsWithFrames(page)).toEqual([]);

      expect(await feedEvents(page)).toEqual([
        'preapproval.received',
        'loan.kyc.attested',
        'loan.approved',
        'loan.offer.issued',
        'loan.offer.accepted',
        'mandate.active',
        'loan.disbursed',
        'loan.repayment.completed',
        'loan.repayment.completed',
        'loan.repayment.completed',
        'loan.completed',
      ]);
      const loan = await app.platform.db.selectFrom('loans').select(['status', 'outstandingKobo']).where('clientReference', 'like', 'demo-delegated-%').executeTakeFirstOrThrow();
      expect(loan).toEqual({ status: 'completed', outstandingKobo: 0 });

      // The page, its scripts (the demo bundle and the widget) and every answer it received: no secret key anywhere.
      expect(received.some((r) => r.includes('/demo/assets/demo.js'))).toBe(true);
      expect(received.some((r) => /\/checkout\/assets\/checkout\.[0-9a-f]{10}\.js/.test(r))).toBe(true);
      expect([await page.content(), ...received].join('\n')).not.toMatch(SECRET_KEY);

      await page.getByRole('button', { name: 'New scenario' }).click();
      await page.getByRole('button', { name: 'Push pre-approval' }).waitFor();
    } finally {
      await close();
    }
  }, 120_000);

  it('managed tier on a 1440×900 laptop: KYC in the phone, the lender approves with one click, the phone moves on to the offer', async () => {
    const { page, received, close } = await openDemo(LAPTOP);
    try {
      await expectOneScreen(page);
      await shot(page, '09-start-1440x900');
      await page.getByRole('radio', { name: /Managed tier/ }).check();
      await page.getByRole('button', { name: 'Book the application' }).click();
      await caption(page, 'The platform runs KYC');
      const phone = page.frameLocator('iframe[title^="Borrower"]');
      await verifyPhone(page, phone);
      await phone.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      const hint = (await page.locator('demo-app .caption').textContent())!.match(/e\.g\. (\d{11})/)![1]!;
      await page.getByRole('button', { name: `Fill the BVN ${hint}, one the sandbox verifies` }).click();
      expect(await phone.getByLabel('BVN (Bank Verification Number)').inputValue()).toBe(hint);
      await phone.getByRole('button', { name: 'Verify my identity' }).click();
      await phone.getByRole('heading', { name: 'Waiting for the lender' }).waitFor();
      await caption(page, 'Identity verified: the lender’s turn');
      expect(await panelText(page, 'rate')).toBe('4% a month (flat) · 48% a year');
      await expectOneScreen(page);
      await shot(page, '10-managed-waiting-for-lender');
      await page.getByRole('button', { name: 'Approve as the lender' }).click();
      await phone.getByRole('heading', { name: 'Review and sign your offer' }).waitFor({ timeout: 15_000 });
      await page.locator('demo-feed li.event[data-event="loan.offer.issued"]').waitFor();
      // Every approval screens the borrower first (recorded, and told to the partner).
      expect(await feedEvents(page)).toEqual(['loan.kyc.attested', 'loan.approved', 'loan.offer.issued']);
      await expectNothingTyped(page);
      await shot(page, '11-managed-offer');
      expect(await axeViolationsWithFrames(page)).toEqual([]);
      expect([await page.content(), ...received].join('\n')).not.toMatch(SECRET_KEY);
    } finally {
      await close();
    }
  }, 90_000);

  it('AML hit and decline: no checkout on the phone; compliance rejects the hit with one click and the panel shows the loan rejected, nothing owed', async () => {
    const { page, close } = await openDemo(PROJECTOR);
    try {
      await page.getByRole('radio', { name: /AML hit/ }).check();
      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'AML screen hit: held for review');
      await page.getByText('Nothing was sent to the borrower').waitFor();
      await page.getByText('No texts: this borrower is not contacted.').waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
      await page.locator('demo-feed li.event[data-event="loan.kyc.attested"]').waitFor();
      await expectTilesApart(page);
      await shot(page, '20-aml-hit');
      expect(await panelText(page, 'preapproval-status')).toBe('No offer issued (AML hold)');
      await page.getByRole('button', { name: 'Reject: confirmed match' }).click();
      await caption(page, 'Rejected by compliance');
      expect(await page.getByTestId('loan-status').textContent()).toBe('Rejected');
      // The state change, not a webhook the API does not send: nothing lent, nothing owed, no "Received", no step left.
      const story = (await page.locator('section.story').innerText()).replace(/\s+/g, ' ');
      expect(await panelText(page, 'outstanding')).toBe('₦0.00 — nothing was lent');
      expect(await panelText(page, 'lent')).toBe('Nothing');
      expect(await panelText(page, 'direct-debit')).toBe('None');
      expect(story).not.toContain('Received');
      expect(story).not.toMatch(/Outstanding ₦250,000/);
      expect(story).not.toMatch(/every step a webhook/i);
      expect(story).toContain('“review.closed”');
      expect(await page.getByRole('button', { name: /Reject|Disburse|Approve|Record/ }).count()).toBe(0);
      await page.getByText('compliance rejected the application').waitFor();
      // The screen's hit, the hold for a person, and compliance's decision.
      await page.locator('demo-feed li.event[data-event="review.closed"]').waitFor();
      expect(await feedEvents(page)).toEqual(['preapproval.received', 'loan.kyc.attested', 'review.opened', 'review.closed']);
      await page.getByText('aml hit · loan under_review').waitFor();
      await page.getByText('rejected · loan rejected').waitFor();
      await expectOneScreen(page);
      await expectTilesApart(page);
      await shot(page, '20b-aml-rejected');
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'New scenario' }).click();
      await page.getByRole('radio', { name: /Decline/ }).check();
      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'The credit engine said no');
      await page.locator('demo-feed li.event[data-event="preapproval.received"]').waitFor();
      expect(await feedEvents(page)).toEqual(['preapproval.received']);
      expect(await page.getByTestId('loan-status').textContent()).toBe('Declined');
      await shot(page, '21-decline');
      // Other screens: a 1280×720 laptop and a 1440×900 one still on one screen; a narrow window stacks the columns (and scrolls).
      for (const viewport of [{ width: 1280, height: 720 }, LAPTOP]) {
        await page.setViewportSize(viewport);
        await expectOneScreen(page);
        await shot(page, `22-decline-${viewport.width}x${viewport.height}`);
      }
      await page.setViewportSize({ width: 600, height: 900 });
      const [phoneBox, storyBox] = [(await page.locator('demo-phone').boundingBox())!, (await page.locator('section.story').boundingBox())!];
      expect(phoneBox.x + phoneBox.width).toBeLessThanOrEqual(600);
      expect(phoneBox.y).toBeGreaterThanOrEqual(storyBox.y + storyBox.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, '23-decline-600-wide.png'), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
