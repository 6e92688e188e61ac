import type { Db, Tx } from '../../db/database';
import type { LoanMandatesTable } from '../../db/schema';
import type { Services } from '../services';
import type { RailName } from '../ports';
import { AppError } from '../errors';
import { newId } from '../ids';
import { getLoanRow, invalidState, type Scope } from '../loans/loan';
import { emitLoanEvent } from '../loans/loan-events';
import type { LoanContext, LoanWriteContext } from '../loans/loan-context';
import { getMandateRow, toMandate, type LoanMandate, type MandateProvider } from './mandate';
import { railFor } from './rail-for';
import { inUnitOfWork } from '../unit-of-work';
import { endReplacementOf, pendingReplacementOf, takeOverMandate } from './take-over-mandate';

const SEAL_PURPOSE = 'rail-authorisation-code';
/** Where a mandate can be set up: from the offer until the loan is repaid. */
const MANDATE_LOAN_STATES = ['awaiting_acceptance', 'terms_accepted', 'disbursed', 'active'];

/** What mandate code needs of the platform: the loan context's, plus the rails chosen per mode. */
export type MandatePlatform = LoanContext['platform'] & Pick<Services, 'rails'>;

async function railCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('rail_unavailable', `The payment rail did not accept the request: ${(error as Error).message}`);
  }
}

export interface CreateMandateOptions {
  loanId: string;
  email: string;
  accountNumber?: string | null;
  bankCode?: string | null;
  callbackUrl?: string | null;
  provider?: MandateProvider;
}

/**
 * Sets up a direct-debit mandate for a loan. `rail_a`/`rail_b`: the provider is asked for an
 * authorisation first (outside any transaction), then the mandate is stored `initiated` with the
 * provider's URL. `rail_c`: a partner-operated marker, `active` at once, never charged.
 * In live mode with no live rail for the provider: 503 `provider_not_configured`, nothing written.
 */
export async function createMandate(
  db: Db,
  platform: MandatePlatform,
  scope: Scope,
  options: CreateMandateOptions,
  now: Date,
  /** Written in the mandate's own transaction (a borrower's change of account records its replacement with it). */
  alongside?: (trx: Tx, mandate: LoanMandatesTable) => Promise<void>,
): Promise<LoanMandate> {
  const loan = await getLoanRow(db, scope, options.loanId);
  if (!MANDATE_LOAN_STATES.includes(loan.status)) throw invalidState(loan.status, 'with a mandate');
  const provider = options.provider ?? 'rail_a';
  const rail = provider === 'rail_c' ? undefined : railFor(platform, loan.mode, provider);
  const reference = `MDT-${newId()}`;
  const amountKobo = loan.outstandingKobo;
  const authorisation =
    rail === undefined
      ? undefined
      : await railCall(() =>
          rail.initialiseAuthorisation({
            reference,
            email: options.email,
            accountNumber: options.accountNumber ?? null,
            bankCode: options.bankCode ?? null,
            amountKobo,
            callbackUrl: options.callbackUrl ?? null,
          }),
        );
  const at = now.toISOString();
  const row: LoanMandatesTable = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    borrowerId: loan.borrowerId,
    loanId: loan.id,
    provider,
    status: provider === 'rail_c' ? 'active' : 'initiated',
    reference,
    email: options.email,
    accountNumber: options.accountNumber ?? null,
    bankCode: options.bankCode ?? null,
    amountKobo,
    authorizationUrl: authorisation?.authorizationUrl ?? null,
    callbackUrl: options.callbackUrl ?? null,
    providerReference: authorisation?.providerReference ?? null,
    providerStatus: provider === 'rail_c' ? null : 'pending',
    authorizationCodeSealed: null,
    activatedAt: provider === 'rail_c' ? at : null,
    createdAt: at,
    updatedAt: at,
  };
  await inUnitOfWork(db, async (trx) => {
    await trx.insertInto('loanMandates').values(row).execute();
    await alongside?.(trx, row);
    if (provider === 'rail_c') await markActive(trx, platform, row, now);
  });
  return toMandate(row);
}

/**
 * Points the loan at its active mandate and emits `mandate.active` (once: only on the move to active). A borrower's
 * replacement mandate instead takes over from the loan's current one (`take-over-mandate.ts`), whoever read it back.
 */
async function markActive(db: Tx, platform: MandatePlatform, mandate: LoanMandatesTable, now: Date): Promise<void> {
  const replacement = await pendingReplacementOf(db, mandate.id);
  if (replacement) {
    await takeOverMandate(db, platform, replacement, mandate, now);
    return;
  }
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', mandate.loanId).executeTakeFirstOrThrow();
  await db.updateTable('loans').set({ activeMandateId: mandate.id, hasActiveMandate: true, updatedAt: now.toISOString() }).where('id', '=', loan.id).execute();
  const ctx: LoanWriteContext = { db, platform, now, scope: { organisationId: mandate.organisationId, mode: mandate.mode }, actor: 'mandate' };
  await emitLoanEvent(ctx, 'mandate.active', loan, { mandateId: mandate.id, provider: mandate.provider, status: 'active' });
}

/**
 * Reads the authorisation back from the provider (the caller sends no code). `active` only when
 * the provider has confirmed and a code exists; an `approved` authorisation (the borrower said
 * yes, the provider has not confirmed) stays `pending` and is not chargeable.
 */
export async function activateMandate(db: Db, platform: MandatePlatform, scope: Scope, mandateId: string, now: Date): Promise<{ mandate: LoanMandate; message: string }> {
  const row = await getMandateRow(db, scope, mandateId);
  if (row.status === 'active' || row.provider === 'rail_c') return { mandate: toMandate(row), message: 'Mandate is active' };
  if (['failed', 'cancelled', 'expired'].includes(row.status)) throw new AppError('invalid_loan_state', `The mandate is ${row.status}; create a new one.`);
  const rail = railFor(platform, row.mode, row.provider as RailName);
  const read = await railCall(() => rail.readAuthorisation(row.providerReference!));
  const at = now.toISOString();
  const next =
    read.status === 'active' && read.authorizationCode
      ? 'active'
      : read.status === 'refused'
        ? 'failed'
        : read.status === 'cancelled'
          ? 'cancelled'
          : 'pending';
  const changes = {
    status: next,
    providerStatus: read.status,
    authorizationCodeSealed: next === 'active' ? platform.secrets.encrypt(SEAL_PURPOSE, read.authorizationCode!) : row.authorizationCodeSealed,
    activatedAt: next === 'active' ? at : row.activatedAt,
    updatedAt: at,
  };
  const updated = { ...row, ...changes };
  await inUnitOfWork(db, async (trx) => {
    const moved = await trx.updateTable('loanMandates').set(changes).where('id', '=', row.id).where('status', '=', row.status).executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1 && next === 'active') await markActive(trx, platform, updated, now);
    // A borrower's change of account that the rail refused or cancelled: the replacement failed, the old mandate stays.
    if (Number(moved.numUpdatedRows) === 1 && (next === 'failed' || next === 'cancelled')) await endReplacementOf(trx, row.id, read.status === 'refused' ? 'declined' : read.status, now);
  });
  const message =
    next === 'active'
      ? 'Mandate is active'
      : next === 'pending'
        ? `The provider has not confirmed the authorisation yet (provider status: ${read.status}); it is not chargeable. Try again shortly or wait for mandate.active.`
        : `The authorisation was ${read.status} at the provider.`;
  return { mandate: toMandate(updated), message };
}

/**
 * Test mode only: the sandbox provider approves and confirms the authorisation at once, then the
 * mandate is activated the normal way (read back from the provider), so it holds a real,
 * chargeable authorisation code.
 */
export async function simulateActivation(
  db: Db,
  platform: MandatePlatform,
  scope: Scope,
  mandateId: string,
  now: Date,
): Promise<LoanMandate> {
  if (scope.mode !== 'test') throw new AppError('SANDBOX_ONLY', 'Simulated activation is a sandbox tool for test-mode mandates.');
  const row = await getMandateRow(db, scope, mandateId);
  if (row.status === 'active') return toMandate(row);
  if (['failed', 'cancelled', 'expired'].includes(row.status)) throw new AppError('invalid_loan_state', `The mandate is ${row.status}; create a new one.`);
  await platform.rails.approveInSandbox(row.mode, row.provider as RailName, row.providerReference!);
  return (await activateMandate(db, platform, scope, mandateId, now)).mandate;
}

/** The decrypted authorisation code of a chargeable mandate (for the collector only). */
export function authorisationCodeOf(platform: Pick<Services, 'secrets'>, row: LoanMandatesTable): string {
  return platform.secrets.decrypt(SEAL_PURPOSE, row.authorizationCodeSealed!);
}
