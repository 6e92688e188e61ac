import { resetSecondFactor } from '../platform/domain/dashboard/reset-second-factor';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createLogger } from '../platform/log/create-logger';
import { loadConfig, type Config } from '../config';
import { createPlatform, type Platform } from '../platform/platform';
import { AppError } from '../platform/domain/errors';
import { isUuid } from '../platform/domain/ids';
import { bootstrapSandbox } from '../platform/domain/bootstrap';
import { ensureFinancingLender, FINANCING_LENDER_ID } from '../platform/domain/financing/financing-lender';
import { createApiKey, revokeApiKey } from '../platform/domain/api-keys/api-key';
import { TenantSettingsSchema, configureOrganisation, createOrganisation, getOrganisation } from '../platform/domain/organisations/organisation';
import { createProduct } from '../platform/domain/products/product';
import { fundPool } from '../platform/domain/pools/pool';
import { confirmPoolFunding } from '../platform/domain/pools/confirm-pool-funding';
import { createProvider } from '../platform/domain/providers/provider';
import { OperatorLoanInputSchema, createOperatorLoan } from '../platform/domain/loans/create-operator-loan';
import { toLoan } from '../platform/domain/loans/loan';
import { runSettlement } from '../platform/domain/settlements/run-settlement';
import { checkLedger } from '../platform/domain/ledger/check-ledger';
import { scopeBalances } from '../platform/domain/ledger/loan-books';
import { getStatement, statementCsv } from '../platform/domain/settlements/settlement';
import { creditWallet } from '../platform/domain/wallets/credit-wallet';
import { rejectPayout, settlePayout } from '../platform/domain/payouts/settle-payout';
import { inUnitOfWork } from '../platform/domain/unit-of-work';
import { backupSqlite, SqliteBackupRefused } from '../platform/db/sqlite-backup';

/**
 * Operator CLI: the dashboard actions the API does not offer (organisations, keys, products, pool
 * funding, the provider directory, sandbox wallet credits, settling or rejecting payouts). `npm run -s admin -- <group> <action> [options] --json` prints
 * exactly one JSON object on stdout; on bad input it prints `{error, message}`, explains on stderr
 * and exits 2 (1 for anything unexpected).
 */

const USAGE = `usage: npm run -s admin -- <command> [options] --json

  org create --name NAME [--no-loan-tenant] [--no-preapproved-lending]
  org configure --org ID --input FILE.json
  org enable-live --org ID        lets the organisation's live keys work (self-serve sign-ups start in test mode only)
  user reset-second-factor --email E   a dashboard member lost every passkey: no passkey after the password, sessions end
  key create --org ID --mode test|live
  key revoke --public-key PK
  product create --org ID --input FILE.json
  pool fund --org ID --pool CODE --amount-kobo N [--mode test|live]   (mode defaults to test)
  pool confirm-funding --reference REF   the transfer of a dashboard funding notice arrived: credits the pool once
  provider create --input FILE.json
  loan create --org ID --mode test|live --input FILE.json
  settlement run --org ID [--mode test|live] [--until ISO]   (mode defaults to test, until to now)
  wallet credit --borrower ID --amount-kobo N   (test-mode borrowers only)
  payout settle --id ID --reference REF   (the bank transfer happened off-platform)
  payout reject --id ID --reason TEXT     (the reservation goes back to the borrower)
  settlement statement --org ID --id STATEMENT [--mode test|live]   one statement with its CSV (the service's too: --org the financing lender)
  ledger check
  ledger balances --org ID --mode test|live   every account of that scope: kind, code, balance in kobo (docs/ledger.md)
  backup --to FILE [--force]   a consistent copy of the SQLite database while the server runs (PostgreSQL: pg_dump, see docs/scale/backups.md)
  bootstrap`;

class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 'invalid_request',
  ) {
    super(message);
  }
}

const BACKUP_DOC = 'docs/scale/backups.md';

/**
 * `backup --to FILE`: SQLite's online backup API, without building the platform (no migration, no
 * master key file created): a backup must never change the database it copies. The answer says
 * what the file does not hold and a restore needs.
 */
async function backup(config: Config, options: Options): Promise<unknown> {
  if (config.DATABASE_URL) {
    throw new UsageError(
      `admin backup copies the SQLite database; this deployment runs on PostgreSQL (DATABASE_URL is set). ` +
        `Back it up with pg_dump: pg_dump --format=custom --file=FILE "$DATABASE_URL", restore with pg_restore, as ${BACKUP_DOC} describes`,
      'BACKUP_USE_PG_DUMP',
    );
  }
  const to = required(options, 'to');
  let result;
  try {
    result = await backupSqlite(path.join(config.DATA_DIR, 'platform.sqlite'), to, { force: options.force === true });
  } catch (error) {
    if (error instanceof SqliteBackupRefused) throw new UsageError(error.message, error.code);
    throw error;
  }
  const keyFile = path.resolve(config.DATA_DIR, 'master.key');
  const masterKey = config.MASTER_KEY
    ? 'not in the backup: keep the MASTER_KEY this server runs with, stored apart from the backup; without it the sealed and hashed values in the file (API keys, webhook secrets, mandate codes, BVN/NIN look-ups, idempotent replies) are useless'
    : `not in the backup: this server's key is the file ${keyFile} (MASTER_KEY unset); keep a copy of it, stored apart from the backup; without it the sealed and hashed values in the file are useless`;
  const files = config.S3_BUCKET
    ? `recordings are in the S3 bucket ${config.S3_BUCKET}, not in the backup: back the bucket up on its own`
    : `not in the backup: recordings stored in ${path.resolve(config.FILE_STORAGE_DIR ?? path.join(config.DATA_DIR, 'files'))}; copy that folder too`;
  return { ...result, restore: { masterKey, files, procedure: BACKUP_DOC } };
}

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function uuidOption(options: Options, name: string): string {
  const value = required(options, name);
  if (!isUuid(value)) throw new UsageError(`--${name} must be a UUID`);
  return value;
}

function modeOption(options: Options, name: string, fallback?: 'test' | 'live'): 'test' | 'live' {
  const value = options[name] ?? fallback;
  if (value !== 'test' && value !== 'live') throw new UsageError(`--${name} must be test or live`);
  return value;
}

function readInput(options: Options): unknown {
  const file = required(options, 'input');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read --input file ${file}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input file ${file} is not valid JSON`);
  }
}

async function run(platform: Platform, command: string, options: Options): Promise<unknown> {
  const { db, secrets } = platform;
  const now = platform.clock.now();
  switch (command) {
    case 'org create':
      return createOrganisation(db, {
        name: required(options, 'name'),
        loanTenant: !options['no-loan-tenant'],
        preapprovedLending: !options['no-preapproved-lending'],
        now,
      });
    case 'org configure': {
      const parsed = TenantSettingsSchema.safeParse(readInput(options));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new UsageError(`input ${issue.path.join('.') || ''}: ${issue.message}`.replace('input : ', 'input: '));
      }
      return configureOrganisation(db, uuidOption(options, 'org'), parsed.data, now);
    }
    case 'org enable-live':
      // The credential epoch moves with the change, so every process sees it at once.
      return configureOrganisation(db, uuidOption(options, 'org'), { liveEnabled: true }, now);
    case 'user reset-second-factor':
      return resetSecondFactor(db, { email: required(options, 'email'), now });
    case 'key create': {
      const key = await createApiKey(db, secrets, { organisationId: uuidOption(options, 'org'), mode: modeOption(options, 'mode'), now });
      return { publicKey: key.publicKey, secretKey: key.secretKey, mode: key.mode, organisationId: key.organisationId, id: key.id };
    }
    case 'key revoke':
      return revokeApiKey(db, required(options, 'public-key'), now);
    case 'product create':
      return createProduct(db, { organisationId: uuidOption(options, 'org'), input: readInput(options), now });
    case 'pool fund': {
      const amount = required(options, 'amount-kobo');
      if (!/^\d+$/.test(amount)) throw new UsageError('--amount-kobo must be a positive whole number of kobo');
      return inUnitOfWork(db, async (trx) => {
        // The service's own financing pool: its lender organisation exists from first use; funding first is fine too.
        if (uuidOption(options, 'org') === FINANCING_LENDER_ID) await ensureFinancingLender(trx, platform.config.FINANCING_POLICY, now);
        return fundPool(trx, {
          organisationId: uuidOption(options, 'org'),
          mode: modeOption(options, 'mode', 'test'),
          code: required(options, 'pool'),
          amountKobo: Number(amount),
          now,
        });
      });
    }
    case 'pool confirm-funding': {
      const reference = required(options, 'reference');
      if (reference.length > 40) throw new UsageError('--reference must be at most 40 characters');
      const { notice, balance, changed } = await confirmPoolFunding(db, { reference, now });
      return { ...notice, balance, changed };
    }
    case 'provider create':
      return createProvider(db, readInput(options), now);
    case 'loan create': {
      const parsed = OperatorLoanInputSchema.safeParse(readInput(options));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new UsageError(`input ${issue.path.join('.')}: ${issue.message}`);
      }
      const scope = { organisationId: uuidOption(options, 'org'), mode: modeOption(options, 'mode') };
      await getOrganisation(db, scope.organisationId);
      const loan = await inUnitOfWork(db, (trx) =>
        createOperatorLoan({ db: trx, platform, now, scope, actor: 'operator' }, parsed.data),
      );
      return toLoan(loan, platform.secrets);
    }
    case 'settlement run': {
      const until = options.until === undefined ? now : new Date(String(options.until));
      if (Number.isNaN(until.getTime())) throw new UsageError('--until must be an ISO 8601 date-time');
      const { statement, created } = await runSettlement(db, {
        organisationId: uuidOption(options, 'org'),
        mode: modeOption(options, 'mode', 'test'),
        until,
        now,
      });
      return { ...statement, created };
    }
    case 'wallet credit': {
      const amount = required(options, 'amount-kobo');
      if (!/^\d+$/.test(amount)) throw new UsageError('--amount-kobo must be a positive whole number of kobo');
      const borrowerId = uuidOption(options, 'borrower');
      return inUnitOfWork(db, (trx) => creditWallet(trx, { borrowerId, amountKobo: Number(amount), now }));
    }
    case 'payout settle': {
      const id = uuidOption(options, 'id');
      const reference = required(options, 'reference');
      if (reference.length > 160) throw new UsageError('--reference must be at most 160 characters');
      const { payout, changed } = await inUnitOfWork(db, (trx) => settlePayout(trx, { id, reference, now }));
      return { ...payout, changed };
    }
    case 'payout reject': {
      const id = uuidOption(options, 'id');
      const reason = required(options, 'reason');
      if (reason.length > 500) throw new UsageError('--reason must be at most 500 characters');
      const { payout, changed } = await inUnitOfWork(db, (trx) => rejectPayout(trx, { id, reason, now }));
      return { ...payout, changed };
    }
    case 'settlement statement': {
      const scope = { organisationId: uuidOption(options, 'org'), mode: modeOption(options, 'mode', 'test') };
      const statement = await getStatement(db, scope, uuidOption(options, 'id'));
      return { ...statement, csv: statementCsv(statement) };
    }
    case 'ledger check':
      return checkLedger(db);
    case 'ledger balances': {
      const scope = { organisationId: uuidOption(options, 'org'), mode: modeOption(options, 'mode') };
      await getOrganisation(db, scope.organisationId);
      return { ...scope, accounts: await scopeBalances(db, scope) };
    }
    case 'bootstrap':
      if (platform.config.APP_ENV === 'production') throw new UsageError('bootstrap creates the sandbox organisation; it is refused in production (APP_ENV=production)');
      return (await bootstrapSandbox(db, secrets, now)).result;
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        name: { type: 'string' },
        org: { type: 'string' },
        mode: { type: 'string' },
        input: { type: 'string' },
        pool: { type: 'string' },
        'amount-kobo': { type: 'string' },
        'public-key': { type: 'string' },
        until: { type: 'string' },
        borrower: { type: 'string' },
        id: { type: 'string' },
        reference: { type: 'string' },
        reason: { type: 'string' },
        email: { type: 'string' },
        to: { type: 'string' },
        force: { type: 'boolean' },
        'no-loan-tenant': { type: 'boolean' },
        'no-preapproved-lending': { type: 'boolean' },
      },
    });
  } catch (error) {
    return fail(new UsageError(`${(error as Error).message}\n${USAGE}`), true);
  }
  const json = Boolean(parsed.values.json);
  const command = parsed.positionals.join(' ');
  if (!command) return fail(new UsageError(USAGE), json);

  const config = loadConfig({ ...process.env, BOOTSTRAP_SANDBOX: 'false' });
  if (command === 'backup') {
    try {
      process.stdout.write(`${JSON.stringify(await backup(config, parsed.values), null, json ? undefined : 2)}\n`);
      return 0;
    } catch (error) {
      return fail(error, json);
    }
  }
  // Logs go to stderr so stdout holds only the result.
  const logger = createLogger('warn', pino.destination(2));
  const platform = await createPlatform(config, { logger });
  try {
    const result = await run(platform, command, parsed.values);
    process.stdout.write(`${JSON.stringify(result, null, json ? undefined : 2)}\n`);
    return 0;
  } catch (error) {
    return fail(error, json);
  } finally {
    await platform.close();
  }
}

function fail(error: unknown, json: boolean): number {
  const known = error instanceof UsageError || error instanceof AppError;
  const code = error instanceof AppError ? error.code : error instanceof UsageError ? error.code : 'INTERNAL_ERROR';
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`admin: ${message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: code, message: message.split('\n')[0] })}\n`);
  return known ? 2 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => process.exit(fail(error, process.argv.includes('--json'))),
);
