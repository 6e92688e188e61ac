import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseBank } from '../support/bank-picker';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { REHEARSAL_ACCOUNT, REHEARSAL_BORROWER, REHEARSAL_BVN } from '../rehearsal/rehearsal';

/**
 * docs/rehearsal.md, as written: `npm run rehearse` in its own process (free loopback ports, `--stop-after` so it
 * ends by itself should this test die), then its walk-through with the live key pair it printed: a live pre-approval
 * pushed, the borrower's live checkout on a 360×640 phone (the code read on the Termii fake's page, the account named
 * by the Paystack fake, the mandate approved on Paystack's page), the disbursement, `admin loan make-due` on the live
 * loan, and the collector's debit collected at the fake. Ctrl-C (SIGINT to its process group, as a terminal sends it)
 * stops it and deletes its data. A partner's plain-http webhook receiver on this machine gets the live events.
 */
let rehearsal: ChildProcess;
let closed = false;
let output = '';
let browser: Browser;
let printed: { baseUrl: string; publicKey: string; secretKey: string; dataDir: string; paystack: string; mono: string; dojah: string; termii: string };
const received: { event: string; mode: string; signature: string | undefined }[] = [];
let receiver: http.Server;

function field(label: RegExp): string {
  const match = label.exec(output);
  if (!match) throw new Error(`the rehearsal did not print ${label}:\n${output.slice(-3000)}`);
  return match[1]!;
}

beforeAll(async () => {
  await ensureBundles();
  // The partner's machine: a plain-http receiver on loopback.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; mode: string };
      received.push({ event: body.event, mode: body.mode, signature: req.headers['x-service-signature'] as string | undefined });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  rehearsal = spawn('npm', ['run', '-s', 'rehearse', '--', '--stop-after', '900'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the rehearsal was not ready in time:\n${output.slice(-3000)}`)), 240_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Rehearsal ready.')) {
        clearTimeout(timer);
        resolve();
      }
    };
    rehearsal.stdout!.on('data', onData);
    rehearsal.stderr!.on('data', onData);
    rehearsal.on('exit', (code) => reject(new Error(`the rehearsal exited (${code}):\n${output.slice(-3000)}`)));
  });
  printed = {
    baseUrl: field(/platform\s+(http:\/\/127\.0\.0\.1:\d+)/),
    publicKey: field(/live public key\s+(pk_live_\S+)/),
    secretKey: field(/live secret key\s+(sk_live_\S+)/),
    dataDir: field(/data directory\s+(\S+)/),
    paystack: field(/Paystack\s+(http:\/\/127\.0\.0\.1:\d+\/_fake)/),
    mono: field(/Mono\s+(http:\/\/127\.0\.0\.1:\d+\/_fake)/),
    dojah: field(/Dojah\s+(http:\/\/127\.0\.0\.1:\d+\/_fake)/),
    termii: field(/Termii\s+(http:\/\/127\.0\.0\.1:\d+\/_fake)/),
  };
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (rehearsal && !closed) {
    try {
      process.kill(-rehearsal.pid!, 'SIGINT');
    } catch {
      // Its process group is already gone.
    }
    await new Promise((resolve) => rehearsal.once('close', resolve));
  }
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const headers = () => ({ 'content-type': 'application/json', 'X-API-Public-Key': printed.publicKey, 'X-API-Secret-Key': printed.secretKey });
async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${printed.baseUrl}${path}`, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data: any; error?: string } };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function shot(page: Page, name: string) {
  await screenshot(page, `rehearsal-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: no sideways scroll`).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
}

describe('npm run rehearse, as docs/rehearsal.md walks through it', () => {
  it('prints the live key pair, the fakes\' pages and the walk-through; the platform runs the production profile on loopback with live providers named', async () => {
    expect(output).toMatch(/live providers\s+rail_a Paystack direct debit, rail_b Mono Direct Debit, bureau Mono \(CRC and FirstCentral\)/);
    expect(output).toContain(`DATA_DIR=${printed.dataDir} npm run -s admin -- loan make-due --id LOAN_ID --json`);
    expect(fs.existsSync(`${printed.dataDir}/rehearsal.json`)).toBe(true);
    const log = fs.readFileSync(`${printed.dataDir}/server.log`, 'utf8');
    expect(log).toMatch(/"profile":"production"/);
    expect(log).toMatch(/"rehearsal":true/);
    // Production profile: no sandbox helpers.
    expect((await fetch(`${printed.baseUrl}/sandbox/rails`)).status).toBe(404);
    for (const url of [printed.paystack, printed.mono, printed.dojah, printed.termii]) expect((await fetch(url)).status).toBe(200);
    // The dashboard owner's one-time link opens the dashboard's set-password page.
    const link = field(/choose a password:\s+(http:\/\/127\.0\.0\.1:\d+\/dashboard\/reset-password\?token=\S+)/);
    expect((await fetch(link)).status).toBe(200);
  });

  it('a partner\'s plain-http receiver on this machine registers for live events (refused outside a rehearsal)', async () => {
    const { port } = receiver.address() as AddressInfo;
    const created = await api('POST', '/v1/webhook-endpoints', { url: `http://127.0.0.1:${port}/hooks` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.endpoint).toMatchObject({ mode: 'live', status: 'active' });
    const elsewhere = await api('POST', '/v1/webhook-endpoints', { url: 'https://partner.example/hooks' });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error).toBe('webhook_url_not_allowed');
  });

  it('push → live checkout on a phone (code on Termii\'s page, Paystack names the account, mandate approved on its page) → disburse → make-due → debit collected', async () => {
    // 1. A live pre-approval, with the printed live key.
    const pushed = await api('POST', '/v1/preapprovals', {
      borrower: REHEARSAL_BORROWER,
      decision: {
        metadata: { assessment_id: 'rehearsal-e2e-1', bvn: REHEARSAL_BVN },
        decision: { recommendation: 'APPROVE', approved_amount: 50000, conditions: { interest_rate: 3.5, tenor_days: 90, repayment_frequency: 'monthly' } },
      },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(202);
    // 2. Its offer: screened by the Dojah fake (clear), issued, a live checkout link.
    const issued = await api('POST', `/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const loan = issued.body.data;
    expect(loan.status).toBe('awaiting_acceptance');
    expect(loan.applicationUrl).toMatch(new RegExp(`^${printed.baseUrl}/checkout/c/cs_live_`));

    // 3. The borrower's checkout at 360×640.
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const phone = await context.newPage();
    try {
      await page.goto(loan.applicationUrl);
      await page.getByRole('button', { name: 'Send code' }).click();
      const input = page.getByLabel(/Code sent to/);
      await input.waitFor();
      await shot(page, '01-code');
      // The borrower's phone: the Termii fake's page of texts sent.
      const code = await until('the code on the Termii page', async () => {
        await phone.goto(printed.termii);
        return /#(\d{6})/.exec(await phone.locator('main').innerText())?.[1];
      });
      await shot(phone, '02-termii-texts');
      await input.fill(code);
      await page.getByRole('button', { name: 'Sign and accept' }).waitFor();
      await shot(page, '03-offer');
      await page.getByLabel('Your full name (your signature)').fill(`${REHEARSAL_BORROWER.firstName} ${REHEARSAL_BORROWER.lastName}`);
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
      await chooseBank(page, REHEARSAL_ACCOUNT.bankName, { typed: 'gtb' });
      await page.getByLabel('Account number').fill(REHEARSAL_ACCOUNT.number);
      await page.getByText(REHEARSAL_ACCOUNT.name).waitFor();
      await shot(page, '04-bank-named-by-paystack');
      await page.getByRole('button', { name: 'This is my account' }).click();
      await page.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL((url) => url.href.startsWith(printed.paystack.replace('/_fake', '/authorize/')));
      await shot(page, '05-paystack-authorise');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate&loan=[0-9a-f-]+&reference=/);
      await page.getByRole('heading', { name: "You're all set" }).waitFor();
      await shot(page, '06-done');
    } finally {
      await context.close();
    }

    // 4. Disbursement.
    const disbursed = await api('POST', `/v1/loans/${loan.id}/disburse`);
    expect(disbursed.status, JSON.stringify(disbursed.body)).toBe(200);
    expect(['disbursed', 'active']).toContain(disbursed.body.data.status);

    // 5. make-due on the live loan, as the walk-through prints it.
    const madeDue = spawnSync('npm', ['run', '-s', 'admin', '--', 'loan', 'make-due', '--id', loan.id, '--json'], { env: { ...process.env, DATA_DIR: printed.dataDir }, encoding: 'utf8' });
    expect(madeDue.status, `${madeDue.stdout}\n${madeDue.stderr}`).toBe(0);
    expect(JSON.parse(madeDue.stdout)).toMatchObject({ loanId: loan.id, installmentNumber: 1 });

    // 6. The collector debits it on the Paystack fake, which settles it; the repayment completes.
    const repayment = await until(
      'a completed mandate repayment',
      async () => (await api('GET', `/v1/loans/${loan.id}/repayments`)).body.data.find((r: { method: string; status: string }) => r.method === 'mandate' && r.status === 'completed'),
      60_000,
    );
    const schedule = (await api('GET', `/v1/loans/${loan.id}/schedule`)).body.data;
    expect(repayment.amountKobo).toBe(schedule[0].totalKobo);
    const paystackPage = await (await fetch(printed.paystack)).text();
    expect(paystackPage).toMatch(/<strong>success<\/strong>/);
    // The partner's receiver heard about it, signed.
    const heard = await until('the live loan events at the receiver', async () => received.find((r) => r.event.startsWith('loan.')));
    expect(heard).toMatchObject({ mode: 'live', signature: expect.any(String) });
  }, 300_000);

  it('the fakes\' own pages on a phone: Paystack lists the debit, Mono makes a bureau report bad, Dojah shows its BVN records', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    try {
      await page.goto(printed.paystack);
      await page.getByRole('button', { name: 'Fail the next debit' }).waitFor();
      await shot(page, '07-paystack-page');
      await page.getByRole('button', { name: 'Fail the next debit' }).click();
      await page.getByText('the next 1 will fail').waitFor();

      await page.goto(printed.mono);
      await page.getByLabel('BVN').fill('22299988877');
      await page.getByRole('button', { name: 'Bad report' }).click();
      await page.getByText('22299988877 · bad report (missed payments)').waitFor();
      await shot(page, '08-mono-page');

      await page.goto(printed.dojah);
      await page.getByText(`${REHEARSAL_BVN} · Ada Obi`).waitFor();
      await shot(page, '09-dojah-page');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('Ctrl-C stops it: the platform, the fakes, and its data directory are gone', async () => {
    // Every process of the group hears Ctrl-C (npm itself ends on it); the rehearsal stops in order and lets go of the terminal.
    const done = new Promise<void>((resolve) => rehearsal.once('close', () => resolve()));
    process.kill(-rehearsal.pid!, 'SIGINT');
    await done;
    closed = true;
    expect(output).toMatch(/Stopping the rehearsal \(Ctrl-C\)[\s\S]*Rehearsal stopped\./);
    expect(fs.existsSync(printed.dataDir)).toBe(false);
    await expect(fetch(printed.baseUrl)).rejects.toThrow();
    await expect(fetch(printed.paystack)).rejects.toThrow();
  }, 60_000);
});
