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
import { loanMakeDue } from './loan-make-due';
import { clearReview, rejectReview } from '../platform/domain/reviews/decide-review';
import { runSettlement } from '../platform/domain/settlements/run-settlement';
import { checkLedger } from '../platform/domain/ledger/check-ledger';
import { scopeBalances } from '../platform/domain/ledger/loan-books';
import { getStatement, statementCsv } from '../platform/domain/settlements/settlement';
import { creditWallet } from '../platform/domain/wallets/credit-wallet';
import { rejectPayout, settlePayout } from '../platform/domain/payouts/settle-payout';
import { inUnitOfWork } from '../platform/domain/unit-of-work';
import { backupSqlite, SqliteBackupRefused } from '../platform/db/sqlite-backup';
import { inviteStaff, staffByEmail, CLI_ORIGIN } from '../platform/domain/ops/staff-accounts';
import { STAFF_ROLES } from '../platform/domain/ops/staff-permissions';
import { OPS_COMMANDS, OPS_USAGE, runOpsCommand, type OpsCommand } from './admin-ops';
import { approveProposal, listProposals, refuseProposal, requestLiveMoneyAction, type LiveMoneyRequest, type StaffActor } from '../platform/domain/ops/four-eyes';
import { POLICY_DOCUMENT_MAX_BYTES, policiesToRecord } from '../platform/domain/ops/insurance-policies';
import { recordInsurancePolicy } from '../platform/domain/ops/record-insurance-policy';

/**
 * Operator CLI: the dashboard actions the API does not offer (organisations, keys, products, pool
 * funding, the provider directory, sandbox wallet credits, settling or rejecting payouts). `npm run -s admin -- <group> <action> [options] --json` prints
 * exactly one JSON object on stdout; on bad input it prints `{error, message}`, explains on stderr
 * and exits 2 (1 for anything unexpected).
 */

const USAGE = `usage: npm run -s admin -- <command> [options] --json

  org create --name NAME [--no-loan-tenant] [--no-preapproved-lending]
  org configure --org ID --input FILE.json
  org enable-live --org ID --staff E --reason TEXT   proposes live mode for the organisation; another staff member approves
  staff invite --email E --role compliance|finance|support|admin   prints a one-time link to the operations console (/ops)
  proposal list [--status open|approved|refused]
  proposal approve --id ID --staff E     four eyes: a staff member other than the proposer; the action takes effect
  proposal refuse --id ID --staff E --reason TEXT
  user reset-second-factor --email E   a dashboard member lost every passkey: no passkey after the password, sessions end
  key create --org ID --mode test|live
  key revoke --public-key PK
  product create --org ID --input FILE.json
  pool fund --org ID --pool CODE --amount-kobo N [--mode test|live]   (mode defaults to test)
  pool confirm-funding --reference REF [--staff E]   the transfer of a dashboard funding notice arrived: credits the pool once
                                   (live: --staff proposes it; another staff member approves with proposal approve)
  provider create --input FILE.json
  loan create --org ID --mode test|live --input FILE.json
  loan review --id LOAN_ID --decision clear|reject --reason TEXT   decides the loan's open review (the service's own loans too)
  loan make-due --id LOAN_ID   test-mode loans (and live ones while a rehearsal runs: npm run rehearse): the next unpaid
                               instalment falls due now (nothing else moves)
  settlement run --org ID [--mode test|live] [--until ISO]   (mode defaults to test, until to now)
  wallet credit --borrower ID --amount-kobo N   (test-mode borrowers only)
  payout settle --id ID --reference REF [--staff E]   (the bank transfer happened off-platform; live: a proposal, see proposal approve)
  loan write-off --id LOAN_ID --staff E --reason TEXT   an active loan in arrears; live: a proposal
  insurance list                         insurance policies bound by hand still to record (pending)
  insurance record --id POLICY_ID --policy-number N --document FILE.pdf --staff E   the policy the insurer issued
                                   (PDF, at most 5 MiB; live: a proposal, see proposal approve; test: active at once)
  payout reject --id ID --reason TEXT     (the reservation goes back to the borrower)
  settlement statement --org ID --id STATEMENT [--mode test|live]   one statement with its CSV (the service's too: --org the financing lender)
${OPS_USAGE}
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

function reasonOption(options: Options): string {
  const reason = required(options, 'reason');
  if (reason.length < 3 || reason.length > 500) throw new UsageError('--reason must be 3 to 500 characters');
  return reason;
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

/** The staff member `--staff E` names (the console's rules apply to the shell: who acts is always a person). */
async function staffActor(platform: Platform, options: Options): Promise<StaffActor> {
  const account = await staffByEmail(platform, required(options, 'staff'));
  return { staffId: account.id, email: account.email, role: account.role, origin: CLI_ORIGIN };
}

/**
 * Live money from the shell goes through the console's four-eyes rule: with `--staff E`, done at once in test mode,
 * a proposal in live mode (`proposal approve` by another staff member makes it happen).
 */
async function liveMoney(platform: Platform, options: Options, request: LiveMoneyRequest): Promise<unknown> {
  const outcome = await requestLiveMoneyAction(platform, await staffActor(platform, options), request);
  return outcome.outcome === 'done' ? outcome.result : { proposed: true, proposal: outcome.proposal };
}

/** Whether a record is live: live money without `--staff` is refused before anything is read or written further. */
function liveNeedsStaff(mode: string | undefined, options: Options): void {
  if (mode === 'live' && typeof options.staff !== 'string') {
    throw new AppError('four_eyes_required', 'live money needs two staff members: name yourself with --staff E (a proposal), then another staff member runs proposal approve');
  }
}

async function run(platform: Platform, command: string, options: Options): Promise<unknown> {
  const { db, secrets } = platform;
  const now = platform.clock.now();
  if ((OPS_COMMANDS as readonly string[]).includes(command)) return runOpsCommand(platform, command as OpsCommand, options);
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
    case 'org enable-live': {
      // Always four eyes (live enablement has no test mode): a proposal, approved by another staff member.
      const organisationId = uuidOption(options, 'org');
      return liveMoney(platform, options, { kind: 'live_enable', organisationId, reason: reasonOption(options) });
    }
    case 'staff invite': {
      const role = required(options, 'role');
      if (!(STAFF_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${STAFF_ROLES.join(', ')}`);
      const email = required(options, 'email');
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) throw new UsageError('--email must be an e-mail address');
      const by = typeof options.staff === 'string' ? await staffActor(platform, options) : undefined;
      return inviteStaff(
        { db, clock: platform.clock, baseUrl: platform.baseUrl, passkeyAlways: platform.config.OPS_PASSKEY_REQUIRED ?? platform.config.APP_ENV === 'production' },
        { email, role: role as (typeof STAFF_ROLES)[number], invitedBy: { staffId: by?.staffId ?? null, origin: CLI_ORIGIN } },
      );
    }
    case 'proposal list': {
      const status = options.status ?? 'open';
      if (status !== 'open' && status !== 'approved' && status !== 'refused') throw new UsageError('--status must be open, approved or refused');
      return { data: await listProposals(platform, { status, limit: 100 }) };
    }
    case 'proposal approve':
      return approveProposal(platform, await staffActor(platform, options), uuidOption(options, 'id'));
    case 'proposal refuse':
      return refuseProposal(platform, await staffActor(platform, options), uuidOption(options, 'id'), reasonOption(options));
    case 'insurance list':
      return { data: await policiesToRecord(db, { limit: 100 }) };
    case 'insurance record': {
      const file = required(options, 'document');
      const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
      if (size === undefined) throw new UsageError(`--document file ${file} does not exist`);
      if (size > POLICY_DOCUMENT_MAX_BYTES) throw new AppError('policy_document_size', `The policy document is ${size} bytes; the limit is ${POLICY_DOCUMENT_MAX_BYTES}.`, undefined, { maxBytes: POLICY_DOCUMENT_MAX_BYTES });
      // Always a person, as in the console: the staff member records; in live mode another one approves.
      const outcome = await recordInsurancePolicy(platform, await staffActor(platform, options), {
        policyId: uuidOption(options, 'id'),
        policyNumber: required(options, 'policy-number'),
        document: fs.readFileSync(file),
      });
      return outcome.outcome === 'done' ? outcome.result : { proposed: true, proposal: outcome.proposal };
    }
    case 'loan write-off':
      return liveMoney(platform, options, { kind: 'loan_write_off', loanId: uuidOption(options, 'id'), reason: reasonOption(options) });
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
      const notice_ = await db.selectFrom('poolFundingNotices').select('mode').where('reference', '=', reference.toUpperCase()).executeTakeFirst();
      liveNeedsStaff(notice_?.mode, options);
      if (typeof options.staff === 'string') return liveMoney(platform, options, { kind: 'pool_funding_confirm', reference });
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
    case 'loan make-due':
      return loanMakeDue(platform, uuidOption(options, 'id'));
    case 'loan review': {
      const loanId = uuidOption(options, 'id');
      const decision = required(options, 'decision');
      if (decision !== 'clear' && decision !== 'reject') throw new UsageError('--decision must be clear or reject');
      const reason = required(options, 'reason');
      if (reason.length < 3 || reason.length > 500) throw new UsageError('--reason must be 3 to 500 characters');
      const texts: Array<(services: Platform) => Promise<void>> = [];
      const decided = await inUnitOfWork(db, async (trx) => {
        const loan = await trx.selectFrom('loans').select(['organisationId', 'mode']).where('id', '=', loanId).executeTakeFirst();
        if (!loan) throw new UsageError(`no loan ${loanId}`, 'NOT_FOUND');
        const review = await trx.selectFrom('loanReviews').select(['id', 'decidedBy']).where('loanId', '=', loanId).where('status', '=', 'open').executeTakeFirst();
        if (!review) throw new UsageError(`loan ${loanId} has no open review`, 'NOT_FOUND');
        const ctx = { db: trx, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'operator CLI', afterCommit: (work: (services: Platform) => Promise<void>) => void texts.push(work) };
        const input = { reviewId: review.id, decidedBy: review.decidedBy, reason, by: 'operator CLI' };
        return decision === 'clear' ? clearReview(ctx, input) : rejectReview(ctx, input);
      });
      // The borrower waiting in the checkout hears about the offer once it is committed, as from the API.
      for (const text of texts) {
        await text(platform).catch((error: unknown) => process.stderr.write(`admin: the decision is recorded, but the borrower's text was not sent: ${(error as Error).message}\n`));
      }
      return { review: decided.review, loan: toLoan(decided.loan, platform.secrets) };
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
      const payout_ = await db.selectFrom('payoutRequests').select('mode').where('id', '=', id).executeTakeFirst();
      liveNeedsStaff(payout_?.mode, options);
      if (typeof options.staff === 'string') return liveMoney(platform, options, { kind: 'payout_settle', payoutId: id, reference });
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
  // As `npm start`: what the operator's commands create beside the data (backups) is owner-only.
  process.umask(0o077);
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
        decision: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
        staff: { type: 'string' },
        'policy-number': { type: 'string' },
        document: { type: 'string' },
        status: { type: 'string' },
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
