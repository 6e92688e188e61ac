import type { Db } from '../../db/database';
import { AppError } from '../errors';
import { getLoanRow, type LoanStatus } from '../loans/loan';
import { activateMandate, createMandate } from '../mandates/manage-mandate';
import { toMandate, type LoanMandate } from '../mandates/mandate';
import type { LoanContext } from '../loans/loan-context';
import { capturedBankAccount } from './bank-account';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from './checkout-session';
import { sendCheckoutReceipt, type ReceiptPlatform } from './send-checkout-receipt';

const SIGNED: readonly LoanStatus[] = ['terms_accepted', 'disbursed', 'active'];
const LIVE_MANDATE = ['initiated', 'pending', 'active'];

type MandatePlatform = LoanContext['platform'];

async function latestMandate(db: Db, loanId: string) {
  return db.selectFrom('loanMandates').selectAll().where('loanId', '=', loanId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/**
 * The mandate step: after the offer is signed and the bank account captured, a mandate on the
 * default rail with the captured account. A mandate still in play (initiated, pending or active)
 * is returned instead of a second one, so a retry or a reload never sets up two.
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
  const existing = await latestMandate(db, loan.id);
  if (existing && LIVE_MANDATE.includes(existing.status)) return { mandate: toMandate(existing), created: false };
  const bank = await capturedBankAccount(db, loan.id);
  if (!bank) throw new AppError('checkout_step_required', 'Give the bank account first: POST /v1/checkout/bank-account.');
  const borrower = await db.selectFrom('borrowers').select('email').where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  const email = options.email ?? borrower.email;
  if (!email) throw new AppError('email_required', 'The direct-debit rail needs an e-mail address and the borrower has none on record: send `email`.');
  const mandate = await createMandate(
    db,
    platform,
    scope,
    { loanId: loan.id, email, accountNumber: bank.accountNumber, bankCode: bank.bankCode, callbackUrl: options.callbackUrl ?? null, provider: 'rail_a' },
    now,
  );
  return { mandate, created: true };
}

/**
 * Reads the loan's latest mandate back from the rail (after the borrower returns from its page).
 * Active means the checkout is complete: the borrower's receipt goes out by text (once per loan).
 */
export async function activateMandateViaCheckout(db: Db, platform: MandatePlatform & Pick<ReceiptPlatform, 'sms' | 'logger'>, scope: CheckoutScope, now: Date) {
  requireOtpVerified(await getSessionRow(db, scope));
  const latest = await latestMandate(db, scope.loanId);
  if (!latest) throw new AppError('checkout_step_required', 'There is no mandate to confirm yet: POST /v1/checkout/mandate first.');
  const activated = await activateMandate(db, platform, scope, latest.id, now);
  if (activated.mandate.status === 'active') await sendCheckoutReceipt({ ...platform, db }, scope, now);
  return activated;
}
