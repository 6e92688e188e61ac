import type { Db, Executor } from '../../db/database';
import type { LoanMandatesTable, LoansTable, MandateReplacementsTable } from '../../db/schema';
import type { RailName } from '../ports';
import type { Services } from '../services';
import { AppError } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation } from '../../../shared/unique-violation';
import { bindReturnToLoan } from '../../../shared/mandate-return';
import { checkAccountOwnership, type CheckedBankAccount } from '../checkout/bank-account';
import { lenderContact } from '../checkout/lender-contact';
import { invalidState } from '../loans/loan';
import { isChargeable, mandateFailure } from '../mandates/mandate';
import { activateMandate, createMandate, type MandatePlatform } from '../mandates/manage-mandate';
import { railFor } from '../mandates/rail-for';
import { cancelLeftBehind, completeReplacement } from '../mandates/take-over-mandate';
import { inUnitOfWork } from '../unit-of-work';
import type { BorrowerScope } from './borrower-session';
import { borrowerLoanRow } from './borrower-loans';

/**
 * "Change my bank account": the borrower moves their loan's direct debit to another account of theirs, from the loan
 * page. The account is checked as at checkout (bank list, NUBAN check digit, name enquiry, the name compared with the
 * borrower's on record: a `mismatch` is refused, there is no review after lending), then a new mandate is set up on the
 * loan's rail and the borrower authorises it on the rail's page. It takes over only once active (`take-over-mandate.ts`);
 * until then, and if the rail refuses it, the old mandate keeps collecting.
 *
 * One pending replacement per loan: the same account again answers the pending one (read back from the rail first, so a
 * refused one is not handed out again); another account withdraws the pending one (at the rail and here) and sets up a
 * fresh one, as the checkout's "Use another bank account" does. Two requests at once: one wins, the other is 409
 * `mandate_replacement_pending`.
 */

export type ReplacementPlatform = MandatePlatform & Pick<Services, 'db' | 'bankLookup' | 'banks' | 'logger'>;

/** Loans whose debit account can change: lent, still owing, with an active direct debit the service charges. */
const REPLACEABLE = ['active', 'disbursed'];
const IN_PLAY = ['initiated', 'pending', 'active'];
/** The query parameter the rail's return carries the replacement's id in (besides the loan's, `mandate-return.ts`). */
export const RETURNED_REPLACEMENT_PARAM = 'replacement';

export interface MandateReplacement {
  id: string;
  loanId: string;
  /** `pending`: waiting for the borrower at the bank, or for a debit in flight to finish; `active`: the loan is debited from it now; `failed`; `cancelled`. */
  status: MandateReplacementsTable['status'];
  /** While pending: `awaiting_authorisation` (the borrower has not approved at the bank yet) or `awaiting_charge` (approved; takes over once the debit in flight is decided). */
  stage: 'awaiting_authorisation' | 'awaiting_charge' | null;
  authorizationUrl: string | null;
  bankCode: string;
  bankName: string;
  accountNumberLast4: string;
  accountName: string;
  /** `declined` (refused at the bank), `failed`, `cancelled`, `expired`, `withdrawn` (another account was given), `nothing_owed`. */
  failureReason: string | null;
  mandateId: string;
  previousMandateId: string;
  createdAt: string;
  replacedAt: string | null;
}

/** The mandate the loan is debited from, as the borrower sees it. */
export interface BorrowerMandate {
  id: string;
  status: string;
  bankCode: string | null;
  bankName: string | null;
  accountNumberLast4: string | null;
  activatedAt: string | null;
}

const last4 = (accountNumber: string | null) => (accountNumber ? accountNumber.slice(-4) : null);

export function toBorrowerMandate(row: LoanMandatesTable, banks: Services['banks']): BorrowerMandate {
  return {
    id: row.id,
    status: row.status,
    bankCode: row.bankCode,
    bankName: banks.find((b) => b.code === row.bankCode)?.name ?? null,
    accountNumberLast4: last4(row.accountNumber),
    activatedAt: row.activatedAt,
  };
}

function toReplacement(row: MandateReplacementsTable, mandate: Pick<LoanMandatesTable, 'status' | 'authorizationUrl'>): MandateReplacement {
  const pending = row.status === 'pending';
  return {
    id: row.id,
    loanId: row.loanId,
    status: row.status,
    stage: pending ? (mandate.status === 'active' ? 'awaiting_charge' : 'awaiting_authorisation') : null,
    authorizationUrl: pending && mandate.status !== 'active' ? mandate.authorizationUrl : null,
    bankCode: row.bankCode,
    bankName: row.bankName,
    accountNumberLast4: row.accountNumber.slice(-4),
    accountName: row.accountName,
    failureReason: row.failureReason,
    mandateId: row.mandateId,
    previousMandateId: row.previousMandateId,
    createdAt: row.createdAt,
    replacedAt: row.replacedAt,
  };
}

async function view(db: Executor, row: MandateReplacementsTable): Promise<MandateReplacement> {
  const mandate = await db.selectFrom('loanMandates').select(['status', 'authorizationUrl']).where('id', '=', row.mandateId).executeTakeFirstOrThrow();
  return toReplacement(row, mandate);
}

/** The loan's latest change of account (any status), for the loan page. */
export async function latestReplacement(db: Executor, loanId: string): Promise<MandateReplacement | null> {
  const row = await db.selectFrom('mandateReplacements').selectAll().where('loanId', '=', loanId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? view(db, row) : null;
}

/** The loan's chargeable mandate, or why its account cannot change now. */
async function currentMandate(db: Executor, loan: LoansTable): Promise<LoanMandatesTable> {
  if (!REPLACEABLE.includes(loan.status) || loan.outstandingKobo <= 0) throw invalidState(loan.status, 'given another debit account (it owes nothing, or is not being repaid)');
  const mandate = loan.activeMandateId ? await db.selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId).executeTakeFirst() : undefined;
  if (!mandate || !isChargeable(mandate)) {
    const lender = await lenderContact(db, { organisationId: loan.organisationId, mode: loan.mode });
    throw new AppError('repayment_method_unavailable', `This loan has no active direct debit to move; contact ${lender.name} to change how it is repaid.`, undefined, { lender });
  }
  return mandate;
}

/** The account the borrower typed, with its name compared with theirs (nothing stored): the loan page's account check. */
export async function resolveReplacementAccount(platform: ReplacementPlatform, scope: BorrowerScope, loanId: string, request: { bankCode: string; accountNumber: string }): Promise<CheckedBankAccount> {
  const loan = await borrowerLoanRow(platform.db, scope, loanId);
  return checkAccountOwnership(platform.db, platform.bankLookup.for(loan.mode), { borrowerId: loan.borrowerId, mode: loan.mode }, request);
}

const sameAccount = (row: { accountNumber: string | null; bankCode: string | null }, account: { accountNumber: string; bankCode: string }) =>
  row.accountNumber === account.accountNumber && row.bankCode === account.bankCode;

async function railStatus(platform: ReplacementPlatform, mandate: LoanMandatesTable) {
  const rail = railFor(platform, mandate.mode, mandate.provider as RailName);
  try {
    return (await rail.readAuthorisation(mandate.providerReference!)).status;
  } catch (error) {
    throw new AppError('rail_unavailable', `The payment rail did not accept the request: ${(error as Error).message}`);
  }
}

/** Another account replaces a pending change: its mandate is withdrawn at the rail, then here. */
async function withdraw(db: Db, platform: ReplacementPlatform, pending: MandateReplacementsTable, mandate: LoanMandatesTable, now: Date): Promise<void> {
  if (mandate.providerReference && IN_PLAY.includes(mandate.status)) {
    try {
      await railFor(platform, mandate.mode, mandate.provider as RailName).cancel(mandate.providerReference);
    } catch (error) {
      throw new AppError('rail_unavailable', `The payment rail did not accept the request: ${(error as Error).message}`);
    }
  }
  const at = now.toISOString();
  await inUnitOfWork(db, async (trx) => {
    const moved = await trx.updateTable('mandateReplacements').set({ status: 'cancelled', failureReason: 'withdrawn', updatedAt: at }).where('id', '=', pending.id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1) await trx.updateTable('loanMandates').set({ status: 'cancelled', updatedAt: at }).where('id', '=', mandate.id).where('status', 'in', IN_PLAY).execute();
  });
}

export interface StartReplacementOptions {
  loanId: string;
  bankCode: string;
  accountNumber: string;
  email?: string;
  /** Where the rail sends the borrower back (the loan page); the loan's and the replacement's ids are added to it. */
  returnUrl?: string;
  now: Date;
}

/** Sets up the new mandate (or answers the pending one for this account). `created` false: the pending one. */
export async function startMandateReplacement(platform: ReplacementPlatform, scope: BorrowerScope, options: StartReplacementOptions): Promise<{ replacement: MandateReplacement; created: boolean }> {
  const { db } = platform;
  const { now } = options;
  const owned = await borrowerLoanRow(db, scope, options.loanId);
  const current = await currentMandate(db, owned);
  const loanScope = { organisationId: owned.organisationId, mode: owned.mode };
  const account = await checkAccountOwnership(db, platform.bankLookup.for(owned.mode), { borrowerId: owned.borrowerId, mode: owned.mode }, options);
  if (account.nameMatch.status === 'mismatch') {
    throw new AppError(
      'account_name_mismatch',
      `This account is in the name ${account.accountName}, not ${account.nameMatch.nameOnRecord}. A loan is collected only from the borrower's own account: give an account in that name.`,
      undefined,
      { accountName: account.accountName, bankName: account.bankName, nameMatch: account.nameMatch, policy: 'refuse' },
    );
  }
  if (sameAccount(current, account)) throw new AppError('bank_account_unchanged', `Your debit already comes from this ${account.bankName} account; give another account to change it.`);

  const pending = await db.selectFrom('mandateReplacements').selectAll().where('loanId', '=', owned.id).where('status', '=', 'pending').executeTakeFirst();
  if (pending) {
    const mandate = await db.selectFrom('loanMandates').selectAll().where('id', '=', pending.mandateId).executeTakeFirstOrThrow();
    if (!sameAccount(pending, account)) await withdraw(db, platform, pending, mandate, now);
    else if (mandate.status === 'active' || !['refused', 'cancelled'].includes(await railStatus(platform, mandate))) {
      return { replacement: await view(db, pending), created: false };
    }
    // Refused or cancelled at the rail: record it (the replacement fails as activation records it), then a fresh one.
    else await activateMandate(db, platform, loanScope, mandate.id, now);
  }

  const provider = current.provider as RailName;
  railFor(platform, owned.mode, provider);
  const id = newId();
  const callbackUrl = options.returnUrl ? withReplacement(bindReturnToLoan(options.returnUrl, owned.id), id) : null;
  let row: MandateReplacementsTable | undefined;
  try {
    await createMandate(
      db,
      platform,
      loanScope,
      { loanId: owned.id, email: options.email ?? current.email, accountNumber: account.accountNumber, bankCode: account.bankCode, callbackUrl, provider },
      now,
      async (trx, mandate) => {
        row = {
          id,
          organisationId: owned.organisationId,
          mode: owned.mode,
          loanId: owned.id,
          sessionId: scope.sessionId,
          mandateId: mandate.id,
          previousMandateId: current.id,
          status: 'pending',
          bankCode: account.bankCode,
          bankName: account.bankName,
          accountNumber: account.accountNumber,
          accountName: account.accountName,
          nameMatch: account.nameMatch.status,
          failureReason: null,
          cancelAtRail: null,
          replacedAt: null,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        };
        await trx.insertInto('mandateReplacements').values(row).execute();
      },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('mandate_replacement_pending', 'Another change of bank account for this loan was started at the same time; reload the loan and continue with that one.');
    throw error;
  }
  return { replacement: await view(db, row!), created: true };
}

function withReplacement(url: string, replacementId: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(RETURNED_REPLACEMENT_PARAM, replacementId);
  return parsed.href;
}

/** The machine-readable answer for a replacement whose mandate ended without becoming active (as the checkout's activation words it). */
function endedError(row: MandateReplacementsTable, mandate: LoanMandatesTable): AppError | undefined {
  if (row.status !== 'failed') return undefined;
  const failure = mandateFailure(mandate) ?? 'failed';
  const code = failure === 'declined' ? 'mandate_declined' : failure === 'expired' ? 'mandate_expired' : 'mandate_failed';
  return new AppError(
    code,
    'The new direct debit was not set up (refused, failed or expired at the bank); your loan is still debited from the account it was. Start again to try once more.',
    { replacementId: row.id, mandateId: mandate.id },
    { replacementId: row.id, status: row.status, reason: failure },
  );
}

/**
 * Reads the new mandate back from the rail (the borrower is back from its page), as the checkout's activation does.
 * Active: it takes over (or waits for a debit in flight, `stage: awaiting_charge`), and the rail is told to cancel the old
 * one. Refused, failed or expired: 409 `mandate_declined` / `mandate_failed` / `mandate_expired`; the old mandate stays.
 */
export async function activateMandateReplacement(platform: ReplacementPlatform, scope: BorrowerScope, options: { loanId: string; replacementId: string; now: Date }): Promise<MandateReplacement> {
  const { db } = platform;
  const { now } = options;
  const loan = await borrowerLoanRow(db, scope, options.loanId);
  const replacementRow = () => db.selectFrom('mandateReplacements').selectAll().where('id', '=', options.replacementId).where('loanId', '=', loan.id).executeTakeFirst();
  let row = await replacementRow();
  if (!row) throw new AppError('NOT_FOUND', 'No such change of bank account on this loan.');
  if (row.status === 'pending') {
    await activateMandate(db, platform, { organisationId: loan.organisationId, mode: loan.mode }, row.mandateId, now);
    await completeReplacement(db, platform, row.id, now);
    row = (await replacementRow())!;
  }
  const mandate = await db.selectFrom('loanMandates').selectAll().where('id', '=', row.mandateId).executeTakeFirstOrThrow();
  const ended = endedError(row, mandate);
  if (ended) throw ended;
  if (row.cancelAtRail) await cancelLeftBehind(db, platform, row, now);
  return toReplacement(row, mandate);
}
