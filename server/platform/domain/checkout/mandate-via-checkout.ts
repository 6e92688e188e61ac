import type { Db } from '../../db/database';
import type { LoanMandatesTable } from '../../db/schema';
import type { RailName } from '../ports';
import { AppError, type ErrorCode } from '../errors';
import { getLoanRow, type LoanStatus } from '../loans/loan';
import { activateMandate, createMandate, type MandatePlatform } from '../mandates/manage-mandate';
import { railFor } from '../mandates/rail-for';
import { currentMandateRow, mandateFailure, toMandate, type LoanMandate, type MandateFailure } from '../mandates/mandate';
import { capturedBankAccount, type BankAccount } from './bank-account';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from './checkout-session';
import { sendCheckoutReceipt, type ReceiptPlatform } from './send-checkout-receipt';
import { disburseFinancingIfReady } from '../financing/disburse-financing';
import type { Services } from '../services';
import { bindReturnToLoan } from '../../../shared/mandate-return';

const SIGNED: readonly LoanStatus[] = ['terms_accepted', 'disbursed', 'active'];
const IN_PLAY = ['initiated', 'pending'];

/** The loan's active mandate, else its latest (a borrower's pending change of account after lending is not the checkout's). */
const latestMandate = (db: Db, loanId: string) => currentMandateRow(db, loanId);

const mandateRow = (db: Db, id: string) => db.selectFrom('loanMandates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The machine-readable answer for a mandate that ended without becoming active (the widget words each one). */
const FAILURE_ERRORS: Record<MandateFailure, { code: ErrorCode; message: string }> = {
  declined: { code: 'mandate_declined', message: 'The borrower refused the direct debit at their bank; POST /v1/checkout/mandate sets up a fresh one.' },
  failed: { code: 'mandate_failed', message: 'The bank could not set up the direct debit; POST /v1/checkout/mandate sets up a fresh one.' },
  expired: { code: 'mandate_expired', message: 'The direct-debit authorisation expired; POST /v1/checkout/mandate sets up a fresh one.' },
};

function mandateEnded(row: LoanMandatesTable): AppError | undefined {
  const failure = mandateFailure(row);
  if (!failure) return undefined;
  const { code, message } = FAILURE_ERRORS[failure];
  return new AppError(code, message, { mandateId: row.id, status: row.status, providerStatus: row.providerStatus }, { mandateId: row.id, status: row.status, reason: failure });
}

const sameAccount = (row: LoanMandatesTable, bank: BankAccount) => row.accountNumber === bank.accountNumber && row.bankCode === bank.bankCode;

/**
 * The borrower gave another account (or, for patient financing, the partner chose another rail) while a mandate was
 * still in play: that one is withdrawn at the rail and here, so only one can turn active.
 */
export async function withdraw(db: Db, platform: MandatePlatform, row: LoanMandatesTable, now: Date): Promise<void> {
  if (row.providerReference && row.provider !== 'rail_c') {
    const rail = railFor(platform, row.mode, row.provider as RailName);
    try {
      await rail.cancel(row.providerReference);
    } catch (error) {
      throw new AppError('rail_unavailable', `The payment rail did not accept the request: ${(error as Error).message}`);
    }
  }
  await db.updateTable('loanMandates').set({ status: 'cancelled', updatedAt: now.toISOString() }).where('id', '=', row.id).where('status', 'in', IN_PLAY).execute();
}

/** Whether the rail has refused or cancelled a mandate the platform still has in play (the borrower may not have come back to say so). */
async function endedAtRail(platform: MandatePlatform, row: LoanMandatesTable): Promise<boolean> {
  if (!row.providerReference || row.provider === 'rail_c') return false;
  const rail = railFor(platform, row.mode, row.provider as RailName);
  try {
    const read = await rail.readAuthorisation(row.providerReference);
    return read.status === 'refused' || read.status === 'cancelled';
  } catch (error) {
    throw new AppError('rail_unavailable', `The payment rail did not accept the request: ${(error as Error).message}`);
  }
}

/**
 * The mandate step: after the offer is signed and the bank account captured, a mandate on the
 * default rail with the captured account. A mandate still in play on that account is returned
 * instead of a second one (after reading it back from the rail, so one the borrower refused is
 * not handed out again), so a retry or a reload never sets up two. A mandate that failed, was
 * cancelled or expired — or one in play on an account the borrower has since replaced — is
 * followed by a fresh one: "Try again" always has somewhere to go.
 *
 * In live mode with no live rail configured: 503 `provider_not_configured`, nothing written.
 *
 * The e-mail the borrower types is kept on their record when it has none, so a reload or a later
 * attempt does not ask again (the partner's own e-mail, when there is one, is never overwritten).
 */
export async function createMandateViaCheckout(
  db: Db,
  platform: MandatePlatform,
  scope: CheckoutScope,
  options: { email?: string; callbackUrl?: string },
  now: Date,
): Promise<{ mandate: LoanMandate; created: boolean }> {
  requireOtpVerified(await getSessionRow(db, scope));
  const loan = await getLoanRow(db, scope, scope.loanId);
  if (!SIGNED.includes(loan.status as LoanStatus)) {
    throw new AppError('checkout_step_required', 'Sign the offer first: the direct debit is set up for an accepted loan.');
  }
  let existing = await latestMandate(db, loan.id);
  if (existing?.status === 'active') return { mandate: toMandate(existing), created: false };
  // Live mode without a live rail: refused here, before anything (the borrower's e-mail included) is written.
  railFor(platform, loan.mode, 'rail_a');
  const bank = await capturedBankAccount(db, loan.id);
  if (!bank) throw new AppError('checkout_step_required', 'Give the bank account first: POST /v1/checkout/bank-account.');
  const borrower = await db.selectFrom('borrowers').select('email').where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  const email = options.email ?? borrower.email;
  if (!email) throw new AppError('email_required', 'The direct-debit rail needs an e-mail address and the borrower has none on record: send `email`.');
  if (options.email && !borrower.email) {
    await db.updateTable('borrowers').set({ email: options.email, updatedAt: now.toISOString() }).where('id', '=', scope.borrowerId).where('email', 'is', null).execute();
  }
  if (existing && IN_PLAY.includes(existing.status)) {
    if (!sameAccount(existing, bank)) await withdraw(db, platform, existing, now);
    else if (!(await endedAtRail(platform, existing))) return { mandate: toMandate(existing), created: false };
    // Refused or cancelled at the rail: record it (as activation does), then set up the fresh one.
    else await activateMandate(db, platform, scope, existing.id, now);
  }
  const mandate = await createMandate(
    db,
    platform,
    scope,
    {
      loanId: loan.id,
      email,
      accountNumber: bank.accountNumber,
      bankCode: bank.bankCode,
      // The page the rail returns to shows this loan only (not whatever session the browser's cookie holds).
      callbackUrl: options.callbackUrl ? bindReturnToLoan(options.callbackUrl, loan.id) : null,
      provider: 'rail_a',
    },
    now,
  );
  return { mandate, created: true };
}

/**
 * Reads the loan's latest mandate back from the rail (after the borrower returns from its page).
 * A mandate that ended without becoming active — found so now or earlier — answers 409 with
 * `mandate_declined`, `mandate_failed` or `mandate_expired` (the status read from the rail is kept).
 *
 * Active means the checkout is complete: the borrower's receipt goes out, and a patient-financing
 * loan is disbursed to the partner (its own transaction, after the activation's; a no-op for any
 * other loan, and an empty pool leaves it for the housekeeping sweep).
 */
export async function activateMandateViaCheckout(
  db: Db,
  platform: MandatePlatform & Pick<ReceiptPlatform, 'sms' | 'baseUrl'> & Pick<Services, 'logger'>,
  scope: CheckoutScope,
  now: Date,
) {
  requireOtpVerified(await getSessionRow(db, scope));
  const latest = await latestMandate(db, scope.loanId);
  if (!latest) throw new AppError('checkout_step_required', 'There is no mandate to confirm yet: POST /v1/checkout/mandate first.');
  const ended = mandateEnded(latest);
  if (ended) throw ended;
  const result = await activateMandate(db, platform, scope, latest.id, now);
  const after = mandateEnded(await mandateRow(db, latest.id));
  if (after) throw after;
  if (result.mandate.status === 'active') {
    // The receipt goes out by text once per loan.
    await sendCheckoutReceipt({ ...platform, db }, scope, now);
    // Patient financing: a live mandate is what releases the loan to the partner.
    await disburseFinancingIfReady(db, platform, result.mandate.loanId, now);
  }
  return result;
}
