import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigSchema, loadConfig } from '../../server/config';
import { createPlatform, liveProviders } from '../../server/platform/platform';
import { createOrganisation, configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { createProduct } from '../../server/platform/domain/products/product';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { ensureSandboxOwner } from '../../server/platform/domain/dashboard/ensure-sandbox-owner';
import { ensureFinancingLender, FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { nubanCheckDigit } from '../../server/shared/nuban';
import { PRIVATE_FILE_MODE } from '../../server/shared/private-files';
import { productInput } from '../support/factories';
import { startFakePaystack, type FakePaystack } from '../support/fakes/paystack-fake';
import { goodCreditHistory, startFakeMono, type FakeMono } from '../support/fakes/mono-fake';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';
import { startFakeTermii, type FakeTermii } from '../support/fakes/termii-fake';
import { describeLiveProviders } from '../../server/start-banner';

/**
 * A rehearsal of live mode on this machine (`npm run rehearse`, docs/rehearsal.md): the local fakes of every live
 * provider the tests use (Paystack, Dojah, Termii, Mono; loopback only), a fresh data directory, an organisation
 * enabled for live mode with a live key pair, a funded live pool and a product, then the platform itself, started as
 * `npm start` starts it (the production profile, `REHEARSAL=true`, listening on loopback), pointed at the fakes.
 */
export const REHEARSAL_BORROWER = { firstName: 'Ada', lastName: 'Obi', phone: '+2348031234567', email: 'ada@example.com' };
/** The GTBank account the fake Paystack names ADA OBI (the borrower's own: the names match). */
export const REHEARSAL_ACCOUNT = { bankCode: '058', bankName: 'Guaranty Trust Bank', number: `012345678${nubanCheckDigit('058', '012345678')}`, name: 'ADA OBI' };
/** The BVN the fake Dojah holds for Ada Obi and the fake Mono has a good report for (patient financing). */
export const REHEARSAL_BVN = '22212345678';
const POOL_KOBO = 1_000_000_000;

export interface RehearsalOptions {
  /** The platform's port; 0 (default) picks a free loopback port. */
  port?: number;
  /** Where the platform's output goes besides the log file (its start-up block); default nothing. */
  onPeopleText?: (text: string) => void;
  /** More platform settings (a benchmark's faster collector); the rehearsal's own rules still apply. */
  env?: Record<string, string>;
}

export interface Rehearsal {
  baseUrl: string;
  dataDir: string;
  logFile: string;
  organisationId: string;
  productCode: string;
  liveKeys: { publicKey: string; secretKey: string };
  /** The organisation's dashboard owner and the one-time link that sets their password. */
  dashboardOwner: { email: string; setPasswordUrl: string };
  liveProviders: string;
  fakes: { paystack: FakePaystack; mono: FakeMono; dojah: FakeDojah; termii: FakeTermii };
  /** The environment the platform runs with (secrets included: for this process only, never printed). */
  env: Record<string, string>;
  server: ChildProcess;
  /** Ends when the platform's process exits (its exit code). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const random = (bytes: number) => crypto.randomBytes(bytes).toString('hex');

export async function startRehearsal(options: RehearsalOptions = {}): Promise<Rehearsal> {
  const port = options.port || (await freeLoopbackPort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-rehearsal-'));
  const logFile = path.join(dataDir, 'server.log');
  const paystackSecret = `sk_test_rehearsal${random(8)}`;
  const monoSecret = `test_sk_rehearsal${random(8)}`;
  const monoWebhookSecret = `rehearsal-${random(12)}`;
  const dojah = { appId: 'rehearsal_app', secretKey: `dojah_${random(8)}` };
  const termiiKey = `termii_${random(8)}`;
  const masterKey = crypto.randomBytes(32).toString('base64url');

  // Charges and debits settle by themselves as a bank would, unless a person fails one on the fake's page.
  const paystack = await startFakePaystack({
    secretKey: paystackSecret,
    webhookUrl: `${baseUrl}/webhooks/paystack`,
    autoSettleCharges: true,
    accounts: { [`${REHEARSAL_ACCOUNT.bankCode}:${REHEARSAL_ACCOUNT.number}`]: REHEARSAL_ACCOUNT.name },
  });
  const mono = await startFakeMono({ secretKey: monoSecret, webhookSecret: monoWebhookSecret, webhookUrl: `${baseUrl}/webhooks/mono`, autoSettleDebits: true });
  const dojahFake = await startFakeDojah(dojah);
  const termii = await startFakeTermii({ apiKey: termiiKey, senderIds: ['Lending'], balance: 10_000 });
  dojahFake.seedBvn(REHEARSAL_BVN, { firstName: REHEARSAL_BORROWER.firstName, lastName: REHEARSAL_BORROWER.lastName, dob: '1990-04-01' });
  mono.seedCreditHistory(REHEARSAL_BVN, goodCreditHistory());
  const closeFakes = () => Promise.all([paystack.close(), mono.close(), dojahFake.close(), termii.close()]).then(() => undefined);

  const env: Record<string, string> = {
    APP_ENV: 'production',
    REHEARSAL: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    MASTER_KEY: masterKey,
    MAIL_TO_FILES: 'true',
    LOG_FORMAT: 'json',
    LOG_REQUESTS: 'each',
    PAYSTACK_SECRET_KEY: paystackSecret,
    PAYSTACK_BASE_URL: paystack.url,
    MONO_SECRET_KEY: monoSecret,
    MONO_BASE_URL: mono.url,
    MONO_WEBHOOK_SECRET: monoWebhookSecret,
    DOJAH_APP_ID: dojah.appId,
    DOJAH_SECRET_KEY: dojah.secretKey,
    DOJAH_BASE_URL: dojahFake.url,
    TERMII_API_KEY: termiiKey,
    TERMII_BASE_URL: termii.url,
    // The collector looks for due instalments every two seconds, so a debit follows `make-due` at once.
    COLLECTION_INTERVAL_MS: '2000',
    ...options.env,
  };

  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    // The operator CLI on this data directory (`admin loan make-due`) finds the same master key beside the database.
    fs.writeFileSync(path.join(dataDir, 'master.key'), `${masterKey}\n`, { mode: PRIVATE_FILE_MODE });
    seeded = await seed(env);
  } catch (error) {
    await closeFakes();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  // The platform as `npm start` runs it, with nothing of this shell's own platform settings (a DATABASE_URL, an SMTP_URL…).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !(key in ConfigSchema.shape) && key !== 'NODE_ENV'));
  const server = spawn(process.execPath, ['scripts/build-changed.mjs', '--then', 'dist/server/main.js'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logFile, { mode: PRIVATE_FILE_MODE });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the platform did not start within 180 s; its output is in ${logFile}`)), 180_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      log.write(text);
      output += text;
      // JSON lines are the log; anything else is the start-up block for people.
      const people = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{')).join('\n');
      if (people) options.onPeopleText?.(`${people}\n`);
      if (/listening on http/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the platform stopped during start-up (exit ${code}):\n${output.slice(-4000)}`));
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGTERM');
        const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
      await closeFakes();
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());

  try {
    await listening;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    logFile,
    organisationId: seeded.organisationId,
    productCode: seeded.productCode,
    liveKeys: seeded.liveKeys,
    dashboardOwner: { email: seeded.owner.email, setPasswordUrl: `${baseUrl}/dashboard/reset-password?token=${encodeURIComponent(seeded.owner.setPasswordToken)}` },
    liveProviders: seeded.providers,
    fakes: { paystack, mono, dojah: dojahFake, termii },
    env,
    server,
    exited,
    stop,
  };
}

/**
 * The rehearsal's organisation, through the platform's own domain code on its fresh database (before the server
 * starts): enabled for live mode, a live key pair, a live product without insurance (no live insurer is configured),
 * pre-approvals issued on it, a funded live pool; and the service's own financing pool funded for patient financing.
 */
async function seed(env: Record<string, string>) {
  // Quiet: the platform's own start-up logs what matters.
  const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
  const platform = await createPlatform(config);
  try {
    const now = platform.clock.now();
    const organisation = await createOrganisation(platform.db, { name: 'Rehearsal Lending', loanTenant: true, preapprovedLending: true, liveEnabled: true, now });
    const product = await createProduct(platform.db, {
      organisationId: organisation.id,
      input: productInput({ code: 'REHEARSAL', name: 'Rehearsal loan', insuranceMode: 'off', insurancePremiumBps: 0, processingFeeBps: 100 }),
      now,
    });
    await configureOrganisation(platform.db, organisation.id, { defaultPreapprovalProductId: product.id, maxInterestRateBps: 6000, autoIssueOffers: false }, now);
    const keys = await createApiKey(platform.db, platform.secrets, { organisationId: organisation.id, mode: 'live', now });
    await platform.db.transaction().execute(async (trx) => {
      await fundPool(trx, { organisationId: organisation.id, mode: 'live', code: 'MAIN', amountKobo: POOL_KOBO, now });
    });
    await ensureFinancingLender(platform.db, config.FINANCING_POLICY, now);
    await platform.db.transaction().execute((trx) => fundPool(trx, { organisationId: FINANCING_LENDER_ID, mode: 'live', code: FINANCING_POOL_CODE, amountKobo: POOL_KOBO, now }));
    // An owner for the dashboard, as the sandbox has one: a one-time link chooses the password.
    const owner = await ensureSandboxOwner(platform.db, { organisationId: organisation.id, email: 'owner@rehearsal.example', now, by: 'live rehearsal' });
    if (!owner) throw new Error('the rehearsal organisation already had an owner with a password');
    return {
      owner,
      organisationId: organisation.id,
      productCode: product.code,
      liveKeys: { publicKey: keys.publicKey, secretKey: keys.secretKey },
      providers: describeLiveProviders(liveProviders(platform)),
    };
  } finally {
    await platform.close();
  }
}

export const REHEARSAL_POOL_KOBO = POOL_KOBO;
