import { z } from 'zod';
import { CreditPolicySchema, DEFAULT_CREDIT_POLICY } from './platform/domain/financing/credit-policy';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/**
 * Every configuration key the service reads, parsed once at start-up.
 * `.env.example` and the table in docs/configuration.md list the same keys; keep the three in step.
 */
export const ConfigSchema = z.object({
  /**
   * Deployment profile. `production` (also chosen by NODE_ENV=production when APP_ENV is unset) turns off the sandbox
   * routes, the demo and the sandbox bootstrap, and refuses to start without MASTER_KEY, without an https
   * PUBLIC_BASE_URL, without an e-mail transport (SMTP_URL, or MAIL_TO_FILES=true), or with a development-only flag
   * switched on (see `loadConfig`).
   */
  APP_ENV: z.enum(['development', 'production']).default('development'),
  /**
   * What this process runs (`--role` on the command line wins). `all` (default): the API and every background job.
   * `api`: the HTTP API only, no job. `worker`: every job (dispatcher, collections, sweeps, settlements, summaries,
   * recordings) and, on PORT/HOST, only /healthz and /readyz. Any number of each may share one PostgreSQL.
   */
  PROCESS_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** HTTP port; 0 picks a free port (tests). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to bind. Loopback by default; set 0.0.0.0 behind a load balancer or in a container. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Public origin used in links the service hands out (offer letters, checkout URLs). */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Folder for the embedded SQLite database and the generated master key. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL connection string; when set, PostgreSQL replaces the embedded SQLite database. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /** Connections in the PostgreSQL pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Redis URL; when set, rate limits are shared between processes through Redis. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  /**
   * Master key (32+ chars) for HMAC of BVNs, signed links and encryption of stored secrets.
   * When absent one is generated once and kept in DATA_DIR/master.key (fine for a sandbox, not for production).
   */
  MASTER_KEY: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `json`: one JSON line per entry (for log collectors). `pretty`: human-readable lines (pino-pretty). Unset: pretty when
   * stdout is a terminal, JSON otherwise.
   */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /**
   * `each`: one line per request (method, path, status, time). `summary`: a request that went wrong (4xx, 5xx) gets its own
   * line, the others are counted into one line every LOG_REQUEST_SUMMARY_SECONDS. Unset: `summary` for human-readable
   * logs in the development profile (a terminal), `each` otherwise (JSON lines, and always in production).
   */
  LOG_REQUESTS: z.enum(['each', 'summary']).optional(),
  /** How often `LOG_REQUESTS=summary` writes its count of the requests that went right. */
  LOG_REQUEST_SUMMARY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Largest accepted JSON body. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(102_400),
  /** Rolling window of the per-key rate limits. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Read requests (GET/HEAD) allowed per key per window. */
  RATE_LIMIT_READS: z.coerce.number().int().min(1).default(6000),
  /** Write requests allowed per key per window. */
  RATE_LIMIT_WRITES: z.coerce.number().int().min(1).default(1200),
  /** Extra burst allowed per key over one window, on top of the steady limit. */
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(200),
  /** How long an authenticated key stays cached in the process. Revocations and organisation changes from any process still apply within ~250 ms (the credential epoch). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /** How long a process serves an organisation's product list from memory (0 disables the cache). */
  PRODUCT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** How often in-memory usage counters are written to the database. */
  USAGE_FLUSH_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(5_000),
  /** How long the webhook attempt log (each attempt's request and response, on the dashboard) is kept; deliveries stay. */
  WEBHOOK_ATTEMPT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How long idempotency keys are kept (never less than 24 hours). */
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().min(24).max(24 * 30).default(24),
  /** An idempotency key left "in flight" longer than this (a crashed request) may be executed again. */
  IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Lifetime of a signed offer-letter link. */
  OFFER_LETTER_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** Days after disbursement within which a borrower may cancel by repaying the principal (printed on the offer). */
  COOLING_OFF_DAYS: z.coerce.number().int().min(0).max(30).default(3),
  /** Complaints contact printed on every offer letter. */
  COMPLAINTS_EMAIL: z.email().default('complaints@lending.example'),
  /** The platform's share of each insurance premium, in basis points of the premium. */
  INSURANCE_COMMISSION_BPS: z.coerce.number().int().min(0).max(10_000).default(1_500),
  /**
   * The insurer live cover is bound with by hand (a short name, e.g. `leadway`): no Nigerian insurer publishes an API
   * the platform can call, so an insured live loan disburses with its policy `pending` and staff record the policy the
   * insurer issued in the operations console. Unset: live insured loans are refused (503 `provider_not_configured`).
   */
  INSURANCE_LIVE_INSURER: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{1,39}$/, 'a short name: lower-case letters, digits, - and _')
    .optional(),
  /** Days an instalment may stay overdue before the loan defaults, unless the tenant sets its own. */
  DEFAULT_AFTER_DAYS_OVERDUE: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often the overdue / default sweep runs. */
  ARREARS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
  /** Sandbox rails: how long after the borrower approves before the provider confirms the mandate. */
  RAIL_CONFIRMATION_LAG_MS: z.coerce.number().int().min(0).max(600_000).default(3_000),
  /** Sandbox rails: how long a charge stays "processing" before its result is notified. */
  RAIL_CHARGE_LAG_MS: z.coerce.number().int().min(0).max(600_000).default(1_000),
  /** How often the settlement worker looks for whole UTC days to settle. */
  SETTLEMENT_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /** How often the collector sends mandate charges, reads their results and collects due instalments. */
  COLLECTION_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** After a failed automatic mandate charge, wait this long before charging the loan again. */
  COLLECTION_RETRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /**
   * How long a borrower has to authorise a direct-debit mandate at the rail, from its set-up: the rail's own
   * authorisation window (set it to your provider's; 24 hours by default). Past it, the mandate sweep reads the
   * authorisation back and, still unauthorised, withdraws it at the rail, marks it `expired` (`mandate.expired`)
   * and texts the borrower; one authorised at the rail meanwhile becomes active instead.
   */
  MANDATE_AUTHORISATION_WINDOW_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** How often the mandate sweep looks for mandates past their authorisation window. */
  MANDATE_EXPIRY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /** How often the reminder worker texts borrowers (before a direct debit, after a failed one); quiet hours are the organisation's. */
  BORROWER_REMINDER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /** `POST /v1/borrower/sign-in/send` requests per client address per clock hour (429 `borrower_sign_in_rate_limited` beyond). */
  BORROWER_SIGN_IN_SENDS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** `POST /v1/borrower/sign-in/verify` requests per client address per clock hour. */
  BORROWER_SIGN_IN_VERIFIES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /** How often the sweep looks for pre-approvals past their lapse time. */
  EXPIRY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Create the sandbox organisation, keys, products and pool on first start. */
  BOOTSTRAP_SANDBOX: bool.default(true),
  /** E-mail of the sandbox organisation's dashboard owner, created on the first sandbox start (with a one-time set-password link). */
  DASHBOARD_SANDBOX_OWNER_EMAIL: z.email().default('owner@sandbox.example'),
  /** Run the webhook dispatcher in this process (several processes may run it side by side). */
  WEBHOOK_DISPATCHER_ENABLED: bool.default(true),
  /** How often an idle dispatcher looks for due deliveries (new events in this process wake it at once). */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  /** Per-attempt timeout of a webhook request (connect, send and response). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A claimed delivery whose worker died is claimed again after this long; must exceed the timeout. */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
  /**
   * Development only: let webhooks go to loopback targets (127.0.0.0/8, ::1, `localhost`), at registration and
   * delivery. Default false: every mode delivers only to globally routable addresses (the SSRF guard).
   */
  WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
  /**
   * A rehearsal of live mode on this machine (`npm run rehearse`, docs/rehearsal.md): the production profile with the
   * listening address, the public origin and every provider on loopback (local fakes of the providers' APIs), so plain
   * http and providers' test keys pass there; live webhook endpoints may be plain-http loopback receivers (and only
   * loopback ones); and `admin loan make-due` moves live loans while the rehearsal runs. Refused unless every address
   * is loopback and nothing (database server, e-mail, files) leaves the machine.
   */
  REHEARSAL: bool.default(false),
  /** Webhook requests in flight at once per process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  /** An endpoint is disabled after this many consecutive failed attempts… */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(10_000).default(10),
  /** …once its failures have lasted at least this many hours (the first failure of the streak to now). */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().int().min(0).max(24 * 30).default(24),
  /**
   * SMTP server for operational e-mail (smtp:// or smtps:// URL). Unset: messages go to MAIL_DIR, which the production
   * profile refuses unless MAIL_TO_FILES=true.
   */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  /**
   * Production only: start without SMTP_URL and write every e-mail (verification, password-reset and invitation links
   * among them) as a file under MAIL_DIR, owner-only. An explicit choice for a deployment that collects mail from the
   * folder itself; without it the production profile refuses to start with no e-mail transport. Ignored when SMTP_URL is set.
   */
  MAIL_TO_FILES: bool.default(false),
  /** Where the sandbox mailer writes messages (one JSON file each) when SMTP_URL is unset; default DATA_DIR/mail. */
  MAIL_DIR: z.string().min(1).optional(),
  /** Sender of operational e-mail. */
  MAIL_FROM: z.string().min(3).default('Lending Platform <no-reply@lending.example>'),
  /** Lifetime of a checkout session from minting or its last refresh (the browser's credential for one loan). */
  CHECKOUT_SESSION_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** Absolute cap on a checkout session's life: refreshes never extend it past minting + this. */
  CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: z.coerce.number().int().min(1).max(10_080).default(720),
  /**
   * `trust proxy` of the checkout server `npm start` mounts at /checkout: false (the socket address is the borrower), true,
   * a hop count, or a comma-separated list of proxy addresses/CIDRs (`loopback`, `uniquelocal` allowed). Decides the IP stored as consent evidence.
   */
  CHECKOUT_TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string[] => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((s) => s.trim()).filter(Boolean))),
  /** Offer passkeys (WebAuthn) in the checkout at /checkout; always optional for the borrower. */
  CHECKOUT_PASSKEYS_ENABLED: bool.default(true),
  /**
   * The operations console (/ops) asks every staff member a passkey after the password. Default: on in the production
   * profile (which refuses it off), off elsewhere (each staff member may still switch it on for their account).
   */
  OPS_PASSKEY_REQUIRED: bool.optional(),
  /** Origin the hosted checkout is served from (WebAuthn checks it). Default: the origin of PUBLIC_BASE_URL. */
  CHECKOUT_PASSKEY_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  /** WebAuthn relying party id (a host name; passkeys are bound to it). Default: the host of CHECKOUT_PASSKEY_ORIGIN. */
  CHECKOUT_PASSKEY_RP_ID: z.string().regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i, 'must be a host name').optional(),
  /** Name the browser's passkey prompt shows. */
  CHECKOUT_PASSKEY_RP_NAME: z.string().min(1).max(64).default('Loan checkout'),
  /** The platform's name in the checkout's footer ("Secured by …") and in the borrower's receipt text. */
  CHECKOUT_PLATFORM_NAME: z.string().trim().min(1).max(40).default('LoanCheckout'),
  /** Mount the sandbox helpers (/sandbox/rails, GET /sandbox/sms). They only ever hold test-mode data. */
  SANDBOX_ROUTES_ENABLED: bool.default(true),
  /** Sender id on texts (registered with Termii for live mode; the sandbox inbox shows it too). */
  SMS_SENDER: z.string().min(1).max(11).default('Lending'),
  /**
   * Live payment rail `rail_a` (Paystack Direct Debit) and live bank-account name lookup (Paystack
   * `/bank/resolve`). Unset: live mandates, charges and bank lookups answer 503 `provider_not_configured`.
   */
  PAYSTACK_SECRET_KEY: z.string().regex(/^sk_(live|test)_[A-Za-z0-9]+$/, 'must be a Paystack secret key (sk_live_… or sk_test_…)').optional(),
  /** Paystack's API origin (a local fake in tests). */
  PAYSTACK_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.paystack.co'),
  /** Live BVN matching, identity verification (BVN, NIN) and AML screening: Dojah. Unset: identity answers 503, AML leaves loans under_review. */
  DOJAH_APP_ID: z.string().min(1).optional(),
  DOJAH_SECRET_KEY: z.string().min(1).optional(),
  DOJAH_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.dojah.io'),
  /**
   * Live credit bureau (Mono Lookup credit history: CRC and FirstCentral) and live payment rail `rail_b` (Mono Direct
   * Debit). Unset: live bureau checks and `rail_b` mandates and charges answer 503 `provider_not_configured`.
   */
  MONO_SECRET_KEY: z.string().regex(/^(live|test)_sk_[A-Za-z0-9]+$/, 'must be a Mono secret key (live_sk_… or test_sk_…)').optional(),
  /** Mono's API origin (a local fake in tests). */
  MONO_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.withmono.com'),
  /** The secret Mono's dashboard shows for the webhook URL (`https://<host>/webhooks/mono`); unset: the route is not served and `rail_b` is read back by polling only. */
  MONO_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Which bureaus the live credit check asks through Mono: `crc`, `xds` (FirstCentral) or `all` (both). */
  MONO_BUREAU_PROVIDER: z.enum(['crc', 'xds', 'all']).default('all'),
  /** Ask Mono whether the account holds an instalment before debiting it (a short balance defers the debit to the collector's next try). */
  MONO_BALANCE_INQUIRY: bool.default(true),
  /** Live SMS (one-time codes, links, receipts): Termii. Unset: live texts answer 503 `provider_not_configured`. */
  TERMII_API_KEY: z.string().min(1).optional(),
  /** Termii's API origin (Termii shows each account its own on the dashboard). */
  TERMII_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.ng.termii.com'),
  /** `dnd` reaches numbers on Do-Not-Disturb and is the route Termii documents for codes (switched on by Termii support); `generic` is promotional. */
  TERMII_CHANNEL: z.enum(['dnd', 'generic']).default('dnd'),
  /** Every real provider adapter: per-attempt timeout, attempts for idempotent reads, consecutive faults that open the circuit, and how long it stays open. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  PROVIDER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  PROVIDER_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  PROVIDER_HALF_OPEN_AFTER_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Telemedicine: minutes before an appointment's start from which its meeting links open (they close at completion or cancellation). */
  /** A meeting participant's presence lasts this long after its process's last heartbeat (every third of it): how soon a crashed process's peers are seen to leave. */
  MEETING_PRESENCE_TTL_MS: z.coerce.number().int().min(300).max(600_000).default(30_000),
  APPOINTMENT_EARLY_JOIN_MINUTES: z.coerce.number().int().min(0).max(120).default(10),
  /** Telemedicine: an in-progress consultation still attended this long after its end time is completed anyway. */
  APPOINTMENT_OVERRUN_MINUTES: z.coerce.number().int().min(0).max(720).default(60),
  /** Telemedicine, live mode: seconds from the end of a consultation until its recordings are processed and listed (spec: about 30 minutes). */
  APPOINTMENT_RECORDING_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(1_800),
  /** Telemedicine, live mode: seconds from the end of a consultation until both summaries appear (spec: about 35 to 45 minutes). */
  APPOINTMENT_SUMMARY_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(2_400),
  /** Telemedicine, test mode (test keys): the recording processing delay. */
  APPOINTMENT_TEST_RECORDING_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(10),
  /** Telemedicine, test mode (test keys): the summary delay. */
  APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(20),
  /** How often the appointment sweep runs (unattended appointments, overruns, recording processing, summaries). */
  APPOINTMENT_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
  /** ICE servers for the meeting page's WebRTC (comma-separated stun:/turn: URLs). Empty: host candidates only (same network). */
  MEETING_ICE_SERVERS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(stun|turns?):/, 'each ICE server must be a stun:, turn: or turns: URL'))),
  /** Lifetime of signed links to recordings and prescription PDFs. */
  FILE_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** Local file store (recordings) when no S3 bucket is configured; default DATA_DIR/files. */
  FILE_STORAGE_DIR: z.string().min(1).optional(),
  /** S3-compatible bucket for files (recordings); when set, files go there instead of FILE_STORAGE_DIR. */
  S3_BUCKET: z.string().min(3).optional(),
  /** S3 region. */
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** S3-compatible endpoint (MinIO, R2, …); unset = AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** S3 credentials; unset = the AWS SDK's default credential chain. */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addressing (most S3-compatible servers need it). */
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** Largest recording chunk the meeting page may upload in one request. */
  RECORDING_CHUNK_MAX_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(2_097_152),
  /** Largest recording (the sum of its chunks; a chunk past it answers 413 `recording_too_large`). 256 MiB is some 18 hours of Opus audio at 32 kbit/s. */
  RECORDING_MAX_BYTES: z.coerce.number().int().min(1024).max(17_179_869_184).default(268_435_456),
  /** Largest total of one appointment's recordings (a chunk past it answers 413 `appointment_recordings_too_large`). */
  APPOINTMENT_RECORDINGS_MAX_BYTES: z.coerce.number().int().min(1024).max(68_719_476_736).default(1_073_741_824),
  /**
   * Patient financing: the service's credit policy as JSON (amount bands, rate and limit by risk band, tenor options,
   * affordability share, fees); see server/platform/domain/financing/credit-policy.ts. Unset: the documented default.
   */
  FINANCING_POLICY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return DEFAULT_CREDIT_POLICY;
      try {
        const parsed = CreditPolicySchema.safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: 'custom', message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join(', ') });
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      }
      return z.NEVER;
    }),
  /** Patient financing: how long an initiation's hosted application stays open (its `expiresAt`). */
  FINANCING_APPLICATION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  /** Grace period for in-flight requests on SIGTERM. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/**
 * Flags meant for a developer's machine that the production profile refuses when switched on, named here even when
 * the key is not (yet) part of the schema, so a flag added later cannot slip into production unnoticed.
 */
export const DEVELOPMENT_ONLY_FLAGS = ['WEBHOOK_ALLOW_LOOPBACK'] as const;

/** Keys the production profile switches off by default and refuses when they are explicitly switched on. */
const SANDBOX_SWITCHES = {
  SANDBOX_ROUTES_ENABLED: 'the sandbox helpers show one-time codes and approve mandates without a credential; they also carry the demo',
  BOOTSTRAP_SANDBOX: 'the sandbox organisation, its printed keys and the demo have no place in production',
} as const;

const isOn = (value: string | undefined) => value === 'true' || value === '1';

/** The effective profile of an environment: APP_ENV when set, else `production` when NODE_ENV=production. */
function profileOf(env: Record<string, string>): string {
  return env.APP_ENV ?? (env.NODE_ENV === 'production' ? 'production' : 'development');
}

/** Parses configuration from an environment-like object; throws one error naming every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
  const production = profileOf(present) === 'production';
  // Production turns the sandbox off unless a key says otherwise (which is then refused below, by name).
  const cleaned = production ? { SANDBOX_ROUTES_ENABLED: 'false', BOOTSTRAP_SANDBOX: 'false', ...present, APP_ENV: 'production' } : { ...present, APP_ENV: profileOf(present) };
  const result = ConfigSchema.superRefine((c, ctx) => {
    if (c.APP_ENV === 'production') {
      for (const [key, why] of Object.entries(SANDBOX_SWITCHES)) {
        if (c[key as keyof typeof SANDBOX_SWITCHES]) ctx.addIssue({ code: 'custom', path: [key], message: `must be false in production (${why})` });
      }
      if (!c.MASTER_KEY) {
        ctx.addIssue({ code: 'custom', path: ['MASTER_KEY'], message: 'is required in production: set it from your secret store (a key generated beside the database would travel with every copy of the data)' });
      }
      if (!c.PUBLIC_BASE_URL) {
        ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required in production: the https:// origin borrowers and partners reach' });
      } else if (new URL(c.PUBLIC_BASE_URL).protocol !== 'https:' && !c.REHEARSAL) {
        ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'must be an https:// URL in production (checkout tokens, cookies and offer links travel over it)' });
      }
      for (const key of ['PAYSTACK_BASE_URL', 'DOJAH_BASE_URL', 'TERMII_BASE_URL', 'MONO_BASE_URL'] as const) {
        if (new URL(c[key]).protocol !== 'https:' && !c.REHEARSAL) ctx.addIssue({ code: 'custom', path: [key], message: 'must be an https:// URL in production (provider keys travel over it)' });
      }
      if (c.MONO_SECRET_KEY?.startsWith('test_sk_') && !c.REHEARSAL) {
        ctx.addIssue({ code: 'custom', path: ['MONO_SECRET_KEY'], message: 'is a Mono test key; production live mode needs live_sk_…' });
      }
      if (c.PAYSTACK_SECRET_KEY?.startsWith('sk_test_') && !c.REHEARSAL) {
        ctx.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'is a Paystack test key; production live mode needs sk_live_…' });
      }
      if (!c.SMTP_URL && !c.MAIL_TO_FILES) {
        ctx.addIssue({
          code: 'custom',
          path: ['SMTP_URL'],
          message:
            'is required in production: without an e-mail transport, verification, password-reset and invitation links would be written as files under MAIL_DIR (default DATA_DIR/mail); set MAIL_TO_FILES=true to choose that deliberately',
        });
      }
      for (const flag of DEVELOPMENT_ONLY_FLAGS) {
        if (isOn(present[flag]) && !c.REHEARSAL) ctx.addIssue({ code: 'custom', path: [flag], message: 'is a development-only flag and is refused in production' });
      }
      if (c.OPS_PASSKEY_REQUIRED === false) ctx.addIssue({ code: 'custom', path: ['OPS_PASSKEY_REQUIRED'], message: 'must stay on in production (the operations console moves live money)' });
    }
    if (c.REHEARSAL) {
      for (const issue of rehearsalIssues(c)) ctx.addIssue({ code: 'custom', path: [issue.key], message: issue.message });
    }
    if (c.CHECKOUT_SESSION_MAX_LIFETIME_MINUTES < c.CHECKOUT_SESSION_TTL_MINUTES) {
      ctx.addIssue({ code: 'custom', path: ['CHECKOUT_SESSION_MAX_LIFETIME_MINUTES'], message: 'must be at least CHECKOUT_SESSION_TTL_MINUTES' });
    }
    if (Boolean(c.DOJAH_APP_ID) !== Boolean(c.DOJAH_SECRET_KEY)) {
      ctx.addIssue({ code: 'custom', path: [c.DOJAH_APP_ID ? 'DOJAH_SECRET_KEY' : 'DOJAH_APP_ID'], message: 'DOJAH_APP_ID and DOJAH_SECRET_KEY go together' });
    }
    if (c.RECORDING_MAX_BYTES < c.RECORDING_CHUNK_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['RECORDING_MAX_BYTES'], message: 'must be at least RECORDING_CHUNK_MAX_BYTES' });
    }
    if (c.APPOINTMENT_RECORDINGS_MAX_BYTES < c.RECORDING_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['APPOINTMENT_RECORDINGS_MAX_BYTES'], message: 'must be at least RECORDING_MAX_BYTES' });
    }
    // WEBHOOK_ALLOW_LOOPBACK opens loopback (this host's own services) to anyone who can register a webhook
    // endpoint, so the production profile refuses to start with it set (`DEVELOPMENT_ONLY_FLAGS` above).
    if (c.WEBHOOK_LEASE_MS <= c.WEBHOOK_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['WEBHOOK_LEASE_MS'], message: 'must exceed WEBHOOK_TIMEOUT_MS (a lease shorter than an attempt would let two workers send it)' });
    }
  }).safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return result.data;
}

/** 127.0.0.0/8, ::1 and `localhost`: this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * What keeps a rehearsal (REHEARSAL=true) on this machine: the production profile, loopback for the listening
 * address, the public origin and every provider, its own SQLite database, e-mail to files and files on disk. Its
 * relaxations (plain http, providers' test keys, loopback webhooks, live `make-due`) are safe only because of these.
 */
function rehearsalIssues(c: Config): { key: string; message: string }[] {
  const issues: { key: string; message: string }[] = [];
  const here = 'in a rehearsal (nothing leaves this machine)';
  if (c.APP_ENV !== 'production') issues.push({ key: 'REHEARSAL', message: 'a rehearsal runs the production profile: set APP_ENV=production' });
  if (!isLoopbackHost(c.HOST)) issues.push({ key: 'HOST', message: `must be a loopback address ${here}` });
  if (c.PUBLIC_BASE_URL && !isLoopbackHost(new URL(c.PUBLIC_BASE_URL).hostname)) issues.push({ key: 'PUBLIC_BASE_URL', message: `must be a loopback origin ${here}` });
  for (const key of ['PAYSTACK_BASE_URL', 'DOJAH_BASE_URL', 'TERMII_BASE_URL', 'MONO_BASE_URL'] as const) {
    if (!isLoopbackHost(new URL(c[key]).hostname)) issues.push({ key, message: `must be a loopback URL (a local fake of the provider) ${here}` });
  }
  if (c.DATABASE_URL) issues.push({ key: 'DATABASE_URL', message: 'must be unset in a rehearsal: it keeps its own SQLite database under DATA_DIR' });
  if (c.REDIS_URL && !isLoopbackHost(new URL(c.REDIS_URL).hostname)) issues.push({ key: 'REDIS_URL', message: `must be a loopback URL ${here}` });
  if (c.SMTP_URL) issues.push({ key: 'SMTP_URL', message: `must be unset ${here}: e-mail goes to files (MAIL_TO_FILES=true)` });
  if (c.S3_BUCKET) issues.push({ key: 'S3_BUCKET', message: `must be unset ${here}: files stay under DATA_DIR` });
  return issues;
}

/**
 * The effective security settings, logged as one structured line at start-up (`npm start`), so an operator
 * can see at a glance what a process is exposing. Never includes a secret.
 */
export function securitySettings(config: Config) {
  return {
    profile: config.APP_ENV,
    sandboxRoutes: config.SANDBOX_ROUTES_ENABLED,
    demo: config.SANDBOX_ROUTES_ENABLED && config.BOOTSTRAP_SANDBOX,
    bootstrapSandbox: config.BOOTSTRAP_SANDBOX,
    masterKeySource: config.MASTER_KEY ? 'environment' : 'data-dir file',
    publicUrlScheme: config.PUBLIC_BASE_URL ? new URL(config.PUBLIC_BASE_URL).protocol.replace(':', '') : 'http',
    trustProxy: config.CHECKOUT_TRUST_PROXY,
    ...(config.REHEARSAL ? { rehearsal: true } : {}),
  };
}

export function publicBaseUrl(config: Config, port: number): string {
  return (config.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
}

export type ProcessRole = Config['PROCESS_ROLE'];

/**
 * The role this process plays: `--role api|worker|all` (or `--role=…`) among the command-line arguments
 * wins over PROCESS_ROLE. An unknown role is a ConfigError (the process refuses to start).
 */
export function processRole(config: Pick<Config, 'PROCESS_ROLE'>, argv: readonly string[] = process.argv.slice(2)): ProcessRole {
  const index = argv.findIndex((a) => a === '--role' || a.startsWith('--role='));
  if (index === -1) return config.PROCESS_ROLE;
  const value = argv[index]!.startsWith('--role=') ? argv[index]!.slice('--role='.length) : argv[index + 1];
  const parsed = ConfigSchema.shape.PROCESS_ROLE.safeParse(value);
  if (!parsed.success || value === undefined) throw new ConfigError(`--role must be api, worker or all (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`);
  return parsed.data;
}
