import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { createLogger } from './log/create-logger';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { systemClock, type Clock } from '../integrations/clock';
import { openDatabase, type Db, type Dialect } from './db/database';
import { migrateToLatest, pendingMigrations } from './db/migrate';
import { Secrets } from './domain/secrets';
import { PerMode } from './domain/per-mode';
import { fileLinkSigner } from './domain/appointments/signed-link';
import type { Services } from './domain/services';
import { hashLegacyNins } from './domain/borrowers/nin';
import { UsageMeter } from './domain/usage/usage-meter';
import { ProductCatalogue } from './domain/products/product-catalogue';
import { registerLoanFollower } from './domain/events/followers';
import { financingLoanFollower } from './domain/financing/sync-financing';
import { Authenticator } from './http/authenticate';
import { RateLimits } from './http/rate-limit';
import { sealLegacyIdempotencyResponses } from './http/idempotency';
import { AmlScreens } from '../integrations/aml';
import { RailRegistry } from '../integrations/rails/rail-registry';
import { SandboxIdentityVerifier, type IdentityVerifier } from '../integrations/identity';
import { SandboxInsurer, StaffRecordedInsurer, type Insurer } from '../integrations/insurance';
import { SandboxMailer, SmtpMailer, type Mailer } from '../integrations/mailer';
import { SandboxSms, type SmsSender } from '../integrations/sms';
import { PaystackHttp } from '../integrations/paystack/paystack-http';
import { PaystackRail } from '../integrations/paystack/paystack-rail';
import { PaystackBankLookup } from '../integrations/paystack/paystack-bank-lookup';
import { DojahClient } from '../integrations/dojah/dojah-http';
import { DojahAmlScreen } from '../integrations/dojah/dojah-aml-screen';
import { DojahBvnIdentity } from '../integrations/dojah/dojah-bvn-identity';
import { DojahIdentityVerifier } from '../integrations/dojah/dojah-identity-verifier';
import { TermiiSms } from '../integrations/termii/termii-sms';
import { MonoHttp } from '../integrations/mono/mono-http';
import { MonoCreditBureau } from '../integrations/mono/mono-credit-bureau';
import { MonoRail } from '../integrations/mono/mono-rail';
import { authorisationCodeOf } from './domain/mandates/manage-mandate';
import type { PaymentRail, RailName, RoomBus } from './domain/ports';
import { InProcessRoomBus } from '../integrations/room-bus/in-process';
import { PostgresRoomBus } from '../integrations/room-bus/postgres';
import { SandboxBankLookup, type BankLookup } from '../integrations/bank-lookup';
import { NIGERIAN_BANKS } from '../integrations/banks';
import { LocalFileStorage, S3FileStorage, type FileStorage } from '../integrations/file-storage';
import { ensurePrivateDirectory, makeFilesPrivate, PRIVATE_FILE_MODE } from '../shared/private-files';
import { TemplateSummariser, type SpeechToText, type Summariser } from '../integrations/summariser';
import { SandboxBvnIdentity, type BvnIdentity } from '../integrations/bvn-identity';
import { SandboxCreditBureau, type CreditBureau } from '../integrations/credit-bureau';

/** Everything a request or a worker needs, built once at start-up (the composition root). */
export interface Platform extends Services {
  config: Config;
  dialect: Dialect;
  usage: UsageMeter;
  products: ProductCatalogue;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  /** Operational e-mail to organisations: SMTP when SMTP_URL is set, else JSON files in MAIL_DIR. */
  mailer: Mailer;
  /** Meeting rooms across processes: Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY, else in-process (SQLite). */
  roomBus: RoomBus;
  /** Readiness (`/readyz`): the database answers (within 2 s) and every known migration is applied. */
  readiness(): Promise<Readiness>;
  close(): Promise<void>;
}

export type Readiness =
  | { ready: true }
  | { ready: false; reason: 'database_unavailable'; message: string }
  | { ready: false; reason: 'migrations_pending'; message: string; pending: string[] };

const READINESS_TIMEOUT_MS = 2_000;

async function checkReadiness(db: Db, pgSchema: string | undefined): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
  });
  let pending: string[];
  try {
    pending = await Promise.race([pendingMigrations(db, pgSchema), timeout]);
  } catch (error) {
    return { ready: false, reason: 'database_unavailable', message: `The database does not answer: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
  if (pending.length > 0) return { ready: false, reason: 'migrations_pending', message: `${pending.length} migration(s) not applied.`, pending };
  return { ready: true };
}

export interface PlatformOverrides {
  clock?: Clock;
  logger?: Logger;
  /** PostgreSQL schema to use (tests isolate each app in its own schema). */
  pgSchema?: string;
  /** SQLite file; defaults to DATA_DIR/platform.sqlite. */
  sqliteFile?: string;
}

/** The master key from config, or one generated once and kept beside the SQLite file. */
function resolveMasterKey(config: Config, logger: Logger): string {
  if (config.MASTER_KEY) return config.MASTER_KEY;
  // loadConfig refuses this already; kept here so no other way of building a Config can reach the file in production.
  if (config.APP_ENV === 'production') throw new Error('MASTER_KEY is required in production');
  const file = path.join(config.DATA_DIR, 'master.key');
  if (fs.existsSync(file)) {
    makeFilesPrivate(file);
    return fs.readFileSync(file, 'utf8').trim();
  }
  ensurePrivateDirectory(config.DATA_DIR);
  const key = crypto.randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    makeFilesPrivate(file);
    logger.warn({ file }, 'MASTER_KEY not set: generated one for this data directory (set MASTER_KEY in production)');
    return key;
  } catch {
    // Another process created it first.
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/**
 * The live adapters the configuration names (live mode never falls back to a sandbox):
 * Paystack for the `rail_a` direct debit and
 * bank-account lookup, Dojah for BVN matching, identity and AML, Termii for texts. A port left out
 * refuses live calls with 503 `provider_not_configured` (AML: `pending` → `under_review`). Each
 * provider client has its own circuit breaker; the rail and the bank lookup get separate Paystack
 * clients, so a burst of failed lookups never stops collections.
 */
export function liveAdapters(
  config: Config,
  /** The database and master key, so the Mono `rail_b` can find the mandate of a debit whose outcome was unknown; Mono also serves the live credit bureau. */
  records?: { db: Db; secrets: Secrets; clock: Clock },
) {
  const resilience = {
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
    maxAttempts: config.PROVIDER_MAX_ATTEMPTS,
    breakerThreshold: config.PROVIDER_BREAKER_THRESHOLD,
    halfOpenAfterMs: config.PROVIDER_HALF_OPEN_AFTER_MS,
  };
  const paystackKey = config.PAYSTACK_SECRET_KEY;
  const paystack = () => new PaystackHttp({ secretKey: paystackKey!, baseUrl: config.PAYSTACK_BASE_URL, ...resilience });
  const dojah =
    config.DOJAH_APP_ID && config.DOJAH_SECRET_KEY
      ? new DojahClient({ appId: config.DOJAH_APP_ID, secretKey: config.DOJAH_SECRET_KEY, mode: 'live', baseUrl: config.DOJAH_BASE_URL, ...resilience })
      : undefined;
  const monoKey = config.MONO_SECRET_KEY;
  const mono = () => new MonoHttp({ secretKey: monoKey!, baseUrl: config.MONO_BASE_URL, ...resilience });
  const now = () => (records?.clock ?? systemClock).now();
  const rails: Partial<Record<RailName, PaymentRail>> = {
    ...(paystackKey ? { rail_a: new PaystackRail('rail_a', paystack()) } : {}),
    ...(monoKey
      ? { rail_b: new MonoRail('rail_b', mono(), { balanceInquiry: config.MONO_BALANCE_INQUIRY, now, mandateOfCharge: records ? (reference) => mandateOfCharge(records, reference) : undefined }) }
      : {}),
  };
  return {
    rails,
    // The bureau gets a Mono client of its own: a burst of failed credit checks never opens the rail's circuit.
    bureau: monoKey ? { provider: `mono:${config.MONO_BUREAU_PROVIDER}`, adapter: new MonoCreditBureau(mono(), { provider: config.MONO_BUREAU_PROVIDER, now }) } : undefined,
    bankLookup: paystackKey ? { provider: 'paystack', adapter: new PaystackBankLookup(paystack()) } : undefined,
    bvnIdentity: dojah ? { provider: 'dojah', adapter: new DojahBvnIdentity(dojah) } : undefined,
    identity: dojah ? { provider: 'dojah', adapter: new DojahIdentityVerifier(dojah) } : undefined,
    aml: dojah ? { provider: 'dojah', adapter: new DojahAmlScreen(dojah) } : undefined,
    sms: config.TERMII_API_KEY
      ? {
          provider: 'termii',
          adapter: new TermiiSms({
            apiKey: config.TERMII_API_KEY,
            senderId: config.SMS_SENDER,
            baseUrl: config.TERMII_BASE_URL,
            channel: config.TERMII_CHANNEL,
            timeoutMs: resilience.timeoutMs,
            breakerThreshold: resilience.breakerThreshold,
            halfOpenAfterMs: resilience.halfOpenAfterMs,
          }),
        }
      : undefined,
    // Bound by hand: a pending policy that staff record in the operations console (no insurer API to call).
    insurer: config.INSURANCE_LIVE_INSURER
      ? { provider: `staff_recorded:${config.INSURANCE_LIVE_INSURER}`, adapter: new StaffRecordedInsurer(config.INSURANCE_LIVE_INSURER) }
      : undefined,
  };
}

/** The Mono mandate id a live `rail_b` debit was sent on, from the platform's own records (null: not ours, or not active). */
async function mandateOfCharge(records: { db: Db; secrets: Secrets }, reference: string): Promise<string | null> {
  const mandate = await records.db
    .selectFrom('loanRepayments as r')
    .innerJoin('loanMandates as m', 'm.id', 'r.mandateId')
    .selectAll('m')
    .where('r.reference', '=', reference)
    .where('r.mode', '=', 'live')
    .where('m.provider', '=', 'rail_b')
    .executeTakeFirst();
  return mandate?.authorizationCodeSealed ? authorisationCodeOf(records, mandate) : null;
}

/** The meeting rooms' bus: Redis wins over PostgreSQL when both are configured; one process on SQLite. */
async function meetingRoomBus(config: Config, pgSchema: string | undefined, logger: Logger): Promise<RoomBus> {
  if (config.REDIS_URL) return new (await import('../integrations/room-bus/redis')).RedisRoomBus(config.REDIS_URL, logger);
  if (config.DATABASE_URL) {
    const url = pgSchema && !config.DATABASE_URL.includes('options=') ? `${config.DATABASE_URL}${config.DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${pgSchema}`)}` : config.DATABASE_URL;
    return new PostgresRoomBus(url, logger);
  }
  return new InProcessRoomBus();
}

/** Waits for Redis so the first requests already share the budget; carries on without it after `ms`. */
async function waitUntilReady(redis: Redis, ms: number, logger: Logger): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      logger.warn('redis not ready in time; rate limits use memory until it is');
      resolve();
    }, ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function createPlatform(config: Config, overrides: PlatformOverrides = {}): Promise<Platform> {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
  const clock = overrides.clock ?? systemClock;
  // DATA_DIR is the server's own (database, master key, mail, recordings): an existing one is made
  // owner-only; each writer creates what it needs owner-only (`server/shared/private-files.ts`).
  if (fs.existsSync(config.DATA_DIR)) ensurePrivateDirectory(config.DATA_DIR);
  const handle = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: overrides.sqliteFile ?? path.join(config.DATA_DIR, 'platform.sqlite'),
    poolSize: config.DATABASE_POOL_SIZE,
    pgSchema: overrides.pgSchema,
  });
  await migrateToLatest(handle, overrides.pgSchema);
  const secrets = new Secrets(resolveMasterKey(config, logger));
  // Values stored in clear before they were sealed (migrations cannot: they have no master key).
  await sealLegacyIdempotencyResponses(handle.db, secrets);
  await hashLegacyNins(handle.db, secrets);
  // ioredis is loaded only when Redis is configured.
  const redis = config.REDIS_URL ? new (await import('ioredis')).Redis(config.REDIS_URL, { enableOfflineQueue: false, lazyConnect: false }) : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis unavailable; rate limits fall back to memory'));
  if (redis) await waitUntilReady(redis, 5_000, logger);
  const live = liveAdapters(config, { db: handle.db, secrets, clock });
  const roomBus = await meetingRoomBus(config, overrides.pgSchema, logger);
  logger.info({ roomBus: roomBus.kind }, `meeting rooms: ${roomBus.kind} bus`);
  // Patient financing follows lending loans through their events; lending never asks after it.
  registerLoanFollower(financingLoanFollower);
  const usage = new UsageMeter(handle.db, clock);
  usage.start(config.USAGE_FLUSH_INTERVAL_MS);
  const platform: Platform = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    clock,
    secrets,
    logger,
    usage,
    products: new ProductCatalogue(handle.db, clock, config.PRODUCT_CACHE_TTL_MS),
    authenticator: new Authenticator(handle.db, secrets, clock, config.AUTH_CACHE_TTL_MS),
    rateLimits: new RateLimits(
      {
        windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
        reads: config.RATE_LIMIT_READS,
        writes: config.RATE_LIMIT_WRITES,
        burst: config.RATE_LIMIT_BURST,
      },
      redis,
    ),
    settings: config,
    // Live AML screens answer `pending` without a provider; every other port refuses live calls (503) without one.
    aml: new AmlScreens(live.aml),
    rails: new RailRegistry({
      baseUrl: () => platform.baseUrl,
      sandbox: { db: handle.db, clock, confirmationLagMs: config.RAIL_CONFIRMATION_LAG_MS, chargeLagMs: config.RAIL_CHARGE_LAG_MS },
      live: live.rails,
    }),
    identity: new PerMode<IdentityVerifier>('identity', new SandboxIdentityVerifier(), live.identity),
    insurer: new PerMode<Insurer>('insurance', new SandboxInsurer(), live.insurer),
    mailer: config.SMTP_URL
      ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
      : new SandboxMailer(config.MAIL_DIR ?? path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM),
    sms: new PerMode<SmsSender>(
      'sms',
      new SandboxSms(handle.db, config.SMS_SENDER, () => clock.now()),
      live.sms,
    ),
    bankLookup: new PerMode<BankLookup>('bank_lookup', new SandboxBankLookup(), live.bankLookup),
    banks: NIGERIAN_BANKS,
    files: config.S3_BUCKET
      ? new S3FileStorage({
          bucket: config.S3_BUCKET,
          region: config.S3_REGION,
          endpoint: config.S3_ENDPOINT,
          accessKeyId: config.S3_ACCESS_KEY_ID,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          forcePathStyle: config.S3_FORCE_PATH_STYLE,
        })
      : new LocalFileStorage(config.FILE_STORAGE_DIR ?? path.join(config.DATA_DIR, 'files'), fileLinkSigner(secrets)),
    summariser: new TemplateSummariser(),
    bvnIdentity: new PerMode<BvnIdentity>('bvn_identity', new SandboxBvnIdentity(), live.bvnIdentity),
    bureau: new PerMode<CreditBureau>('credit_bureau', new SandboxCreditBureau(), live.bureau),
    baseUrl: config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`,
    roomBus,
    readiness: () => checkReadiness(handle.db, overrides.pgSchema),
    async close() {
      await usage.stop();
      await roomBus.close();
      redis?.disconnect();
      await handle.close();
    },
  };
  return platform;
}

/**
 * Which provider live mode uses for each port (`none` = not configured: live calls are refused, or
 * fail safe). Logged once at start-up, so an operator sees at a glance what live mode can reach.
 */
export function liveProviders(platform: Pick<Platform, 'config' | 'aml' | 'rails' | 'identity' | 'bvnIdentity' | 'bureau' | 'bankLookup' | 'sms' | 'insurer'>): Record<string, string> {
  const rails = platform.rails.liveRails();
  const of = (port: PerMode<unknown>) => port.liveProvider ?? 'none';
  return {
    rail: rails.length ? rails.map((rail) => `${rail}:${railProvider(platform.rails.railFor('live', rail))}`).join('+') : 'none',
    aml: platform.aml.liveProvider ?? 'none',
    identity: of(platform.identity),
    bvnIdentity: of(platform.bvnIdentity),
    bureau: of(platform.bureau),
    bankLookup: of(platform.bankLookup),
    sms: of(platform.sms),
    insurance: of(platform.insurer),
    email: platform.config.SMTP_URL ? 'smtp' : 'files',
    storage: platform.config.S3_BUCKET ? 's3' : 'local',
  };
}

/** The provider behind a live rail adapter, for the start-up line. */
function railProvider(rail: PaymentRail | undefined): string {
  if (rail instanceof MonoRail) return 'mono';
  if (rail instanceof PaystackRail) return 'paystack';
  return 'unknown';
}

/** The one start-up line: `live providers: rail none, aml none, …`. */
export function liveProvidersLine(providers: Record<string, string>): string {
  return `live providers: ${Object.entries(providers)
    .map(([port, provider]) => `${port} ${provider}`)
    .join(', ')}`;
}
