import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { nubanCheckDigit } from '../../server/shared/nuban';
import { freeLoopbackPort, REHEARSAL_ACCOUNT, REHEARSAL_BVN, startRehearsal } from '../rehearsal/rehearsal';

/**
 * `npm run bench -- lifecycle live`: one patient-financing lifecycle in live mode on the providers' local fakes (the
 * rehearsal of docs/rehearsal.md: Termii, Dojah, Mono's bureau, Paystack's rail through the real adapters) next to the
 * same lifecycle in the sandbox (test mode, the sandbox adapters), each on its own `npm start` process, in the same run,
 * step by step side by side. The lifecycle: initiate → code sent and verified → identity (BVN and bureau) → plan →
 * sign → bank account → mandate approved at the rail → disbursed → first instalment made due (`admin loan make-due`)
 * → collected. Both servers run with RAIL_CONFIRMATION_LAG_MS=0 (the sandbox rail's pretend lag) and the collector
 * every 500 ms, so the figures are the platform's and the providers' work, not a timer's.
 */
const STEPS = ['initiate', 'otp', 'identity', 'plan', 'sign', 'bank account', 'mandate', 'disbursed', 'make-due', 'collected'] as const;
type Step = (typeof STEPS)[number];

interface Target {
  label: string;
  baseUrl: string;
  dataDir: string;
  keys: { publicKey: string; secretKey: string };
  code(phone: string): Promise<string>;
  bvn: string;
  account: { bankCode: string; accountNumber: string };
  approve(authorizationUrl: string): Promise<void>;
}

const FAST = { RAIL_CONFIRMATION_LAG_MS: '0', COLLECTION_INTERVAL_MS: '500' };

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function call(target: Target, method: string, url: string, body?: unknown, auth?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(auth ? { authorization: auth } : { 'X-API-Public-Key': target.keys.publicKey, 'X-API-Secret-Key': target.keys.secretKey }) };
  const res = await fetch(`${target.baseUrl}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as { data: any };
  if (res.status >= 300) throw new Error(`${target.label} ${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** One lifecycle; the milliseconds of each step. */
async function lifecycle(target: Target): Promise<Record<Step, number>> {
  const timings = {} as Record<Step, number>;
  const timed = async <T>(step: Step, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await work();
    timings[step] = performance.now() - started;
    return value;
  };
  const phone = `0803${String(crypto.randomInt(1_000_000, 9_999_999))}`;
  const initiation = await timed('initiate', () =>
    call(target, 'POST', '/api/v1/sdk/loans/initiate', {
      clientReference: `bench-${crypto.randomUUID()}`,
      invoiceReference: 'INV-BENCH',
      firstName: 'Ada',
      phoneNumber: phone,
      treatment: 'Knee arthroscopy',
      treatmentAmount: 15_000_000,
    }),
  );
  const token = `CheckoutSession ${initiation.applicationUrl.slice(initiation.applicationUrl.lastIndexOf('/') + 1)}`;
  const session = (method: string, url: string, body?: unknown) => call(target, method, url, body ?? (method === 'POST' ? {} : undefined), token);
  await timed('otp', async () => {
    await session('POST', '/v1/checkout/otp/send');
    await session('POST', '/v1/checkout/otp/verify', { code: await target.code(phone) });
  });
  const decided = await timed('identity', () =>
    session('POST', '/v1/checkout/financing/identity', { fullName: 'Ada Obi', bvn: target.bvn, dateOfBirth: '1990-04-01', declaredMonthlyIncomeKobo: 20_000_000, email: 'ada@example.com' }),
  );
  if (decided.status !== 'approved') throw new Error(`${target.label}: not approved: ${JSON.stringify(decided)}`);
  await timed('plan', () => session('POST', '/v1/checkout/financing/tenor', { tenorMonths: 3 }));
  await timed('sign', async () => {
    const { documentReference } = (await session('GET', '/v1/checkout/session')).offer;
    await session('POST', '/v1/checkout/accept', { signatureFullName: 'Ada Obi', signatureEmail: 'ada@example.com', documentReference, ipAddress: '102.89.34.7', userAgent: 'bench' });
  });
  await timed('bank account', () => session('POST', '/v1/checkout/bank-account', target.account));
  await timed('mandate', async () => {
    const mandate = await session('POST', '/v1/checkout/mandate', {});
    await target.approve(mandate.authorizationUrl);
  });
  const loanId = initiation.sdkReference as string;
  await timed('disbursed', () =>
    until(`${target.label}: disbursement`, async () => {
      // Reading the mandate back is what the partner's poll does; the housekeeping job disburses a signed loan whose mandate is live.
      await call(target, 'GET', `/api/v1/sdk/loans/${loanId}/mandate`);
      const status = (await call(target, 'GET', `/api/v1/sdk/loans/${loanId}`)).status as string;
      return ['disbursed', 'active', 'repaying'].includes(status) || status.includes('disburs') ? status : undefined;
    }),
  );
  await timed('make-due', async () => {
    const made = spawnSync(process.execPath, ['dist/server/cli/admin.js', 'loan', 'make-due', '--id', loanId, '--json'], { env: { ...process.env, DATA_DIR: target.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`${target.label}: make-due: ${made.stdout}${made.stderr}`);
  });
  const db = new SQLite(path.join(target.dataDir, 'platform.sqlite'), { readonly: true, fileMustExist: true });
  try {
    await timed('collected', () =>
      until(`${target.label}: the collected instalment`, () =>
        db.prepare("select id from loan_repayments where loan_id = ? and method = 'mandate' and status = 'completed' limit 1").get(loanId) ? true : undefined,
      ),
    );
  } finally {
    db.close();
  }
  return timings;
}

/** The sandbox: `npm start`'s bundle in the development profile on a fresh data directory; its printed test key pair. */
async function startSandbox(): Promise<{ target: Target; stop(): Promise<void> }> {
  const port = await freeLoopbackPort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-bench-sandbox-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(DATABASE_URL|REDIS_URL|APP_ENV|NODE_ENV|PAYSTACK_|MONO_|DOJAH_|TERMII_)/.test(key)));
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...inherited, ...FAST, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: baseUrl, DATA_DIR: dataDir, LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keys = await new Promise<Target['keys']>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const publicKey = /public key\s+(pk_test_\S+)/.exec(output)?.[1];
      const secretKey = /secret key\s+(sk_test_\S+)/.exec(output)?.[1];
      if (publicKey && secretKey && /Ready at /.test(output)) {
        clearTimeout(timer);
        resolve({ publicKey, secretKey });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  const target: Target = {
    label: 'sandbox',
    baseUrl,
    dataDir,
    keys,
    bvn: `${String(crypto.randomInt(1_000_000_000, 9_999_999_999))}6`,
    account: { bankCode: '058', accountNumber: `200000007${nubanCheckDigit('058', '200000007')}` },
    code: (phone) =>
      until('the sandbox text', async () => {
        const inbox = (await (await fetch(`${baseUrl}/sandbox/sms?phone=${encodeURIComponent(phone)}`)).json()) as { data: { messages: { body: string }[] } };
        return inbox.data.messages[0]?.body.match(/^(\d{6}) /)?.[1];
      }),
    approve: async (authorizationUrl) => {
      await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    },
  };
  return {
    target,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function liveLifecycle(): Promise<void> {
  // Builds what changed (the rehearsal runs `npm start`'s build step), so the sandbox below runs the same bundle.
  const rehearsal = await startRehearsal({ env: FAST });
  const sandbox = await startSandbox();
  const live: Target = {
    label: 'live on the fakes',
    baseUrl: rehearsal.baseUrl,
    dataDir: rehearsal.dataDir,
    keys: rehearsal.liveKeys,
    bvn: REHEARSAL_BVN,
    account: { bankCode: REHEARSAL_ACCOUNT.bankCode, accountNumber: REHEARSAL_ACCOUNT.number },
    code: (phone) => until('the Termii text', () => rehearsal.fakes.termii.messages.filter((m) => m.to === `234${phone.slice(1)}`).at(-1)?.sms.match(/^(\d{6}) /)?.[1]),
    approve: async (authorizationUrl) => {
      const res = await fetch(`${authorizationUrl}/approve`, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
      if (res.status !== 303 && res.status !== 200) throw new Error(`the Paystack fake's page answered ${res.status}`);
    },
  };
  try {
    const results: { label: string; timings: Record<Step, number> }[] = [];
    // Sandbox first, then live, then each once more: the second round is warm (JIT, connections), the one to compare.
    for (const round of [1, 2]) {
      for (const target of [sandbox.target, live]) {
        const timings = await lifecycle(target);
        if (round === 2) results.push({ label: target.label, timings });
      }
    }
    const [s, l] = results as [(typeof results)[number], (typeof results)[number]];
    const width = Math.max(...STEPS.map((step) => step.length));
    console.log(`\nOne patient-financing lifecycle, warm (second of two each), same run; ms per step\n`);
    console.log(`  ${'step'.padEnd(width)}  ${'sandbox'.padStart(10)}  ${'live on the fakes'.padStart(18)}`);
    for (const step of STEPS) console.log(`  ${step.padEnd(width)}  ${s.timings[step].toFixed(1).padStart(10)}  ${l.timings[step].toFixed(1).padStart(18)}`);
    const total = (t: Record<Step, number>) => STEPS.reduce((sum, step) => sum + t[step], 0);
    console.log(`  ${'total'.padEnd(width)}  ${total(s.timings).toFixed(1).padStart(10)}  ${total(l.timings).toFixed(1).padStart(18)}`);
    console.log(`\n"collected" includes the wait for the collector's next run (every ${FAST.COLLECTION_INTERVAL_MS} ms); "make-due" is the operator CLI's own process start.`);
  } finally {
    await sandbox.stop();
    await rehearsal.stop();
  }
}
