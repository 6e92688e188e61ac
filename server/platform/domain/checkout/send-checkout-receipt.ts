import type { Db } from '../../db/database';
import type { SmsSender } from '../ports';
import type { PerMode } from '../per-mode';
import type { Logger } from 'pino';
import { formatDueDate, formatNairaPdf } from '../offer-letter/format-offer-letter';
import { loanPhone } from './otp';
import { capturedBankAccount } from './bank-account';
import type { CheckoutScope } from './checkout-session';
import { getCheckoutSettings } from './checkout-settings';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import type { Locale } from '../../../shared/locales';
import { loanReference } from '../../../shared/loan-reference';
import { myLoanLink } from '../borrower-loans/reminders';

export interface ReceiptPlatform {
  db: Db;
  sms: PerMode<SmsSender>;
  logger: Pick<Logger, 'warn'>;
  settings: { CHECKOUT_PLATFORM_NAME: string };
  /** The platform's public URL: the receipt links to the borrower's loan page under its checkout (`/checkout/my-loan`). */
  baseUrl: string;
}


/**
 * The receipt's text: what the done screen shows (no full account number, nothing secret), in the
 * GSM 7-bit alphabet ("NGN", not "₦"; "ending 0007", not "••••0007"): one character outside it
 * makes the whole text UCS-2, 70 characters a part instead of 160, and the borrower's lender pays
 * for three parts instead of two.
 */
export function receiptText(facts: {
  lender: string;
  principalKobo: number;
  firstDue?: { dueDate: string; totalKobo: number };
  bank?: { bankName: string; accountNumber: string };
  loanId: string;
  locale?: Locale;
  /** The borrower's loan page, where they sign in with their phone to see the loan and pay early (`receiptLink`). */
  myLoanUrl?: string;
}): string {
  const link = facts.myLoanUrl ? smsText('receiptLink', facts.locale ?? 'en', { url: facts.myLoanUrl }) : '';
  if (facts.locale && facts.locale !== 'en') {
    const amount = formatNairaPdf(facts.principalKobo);
    const debit =
      facts.firstDue && facts.bank
        ? smsText('receiptDebit', facts.locale, {
            amount: formatNairaPdf(facts.firstDue.totalKobo),
            date: formatDueDate(facts.firstDue.dueDate),
            bank: facts.bank.bankName,
            last4: facts.bank.accountNumber.slice(-4),
          })
        : '';
    return smsText('receipt', facts.locale, { lender: facts.lender, amount, debit, loanId: loanReference(facts.loanId) }) + link;
  }
  const debit = facts.firstDue
    ? ` First repayment ${formatNairaPdf(facts.firstDue.totalKobo)} on ${formatDueDate(facts.firstDue.dueDate)}` +
      `${facts.bank ? ` by direct debit from your ${facts.bank.bankName} account ending ${facts.bank.accountNumber.slice(-4)}` : ''}.`
    : '';
  return `${facts.lender}: your loan of ${formatNairaPdf(facts.principalKobo)} is confirmed.${debit} Ref ${loanReference(facts.loanId)}.${link}`;
}

/**
 * "We have texted you a copy": once the checkout is complete (the mandate is active), the borrower
 * gets the receipt by SMS on the phone on record, once per loan. The loan's
 * `checkout_receipt_sent_at` is claimed by one conditional UPDATE before sending, so two requests
 * (two tabs, a retry) never send twice; a failed send releases the claim, so the next confirmation
 * tries again. A failure never fails the borrower's step: the direct debit is set up either way.
 */
export async function sendCheckoutReceipt(platform: ReceiptPlatform, scope: CheckoutScope, now: Date): Promise<boolean> {
  const { db } = platform;
  const claimed = await db
    .updateTable('loans')
    .set({ checkoutReceiptSentAt: now.toISOString() })
    .where('id', '=', scope.loanId)
    .where('hasActiveMandate', '=', true as never)
    .where('checkoutReceiptSentAt', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  try {
    const loan = await db.selectFrom('loans').select(['id', 'principalKobo', 'borrowerId']).where('id', '=', scope.loanId).executeTakeFirstOrThrow();
    const organisation = await db.selectFrom('organisations').select('name').where('id', '=', scope.organisationId).executeTakeFirstOrThrow();
    const settings = await getCheckoutSettings(db, scope);
    const firstDue = await db
      .selectFrom('loanScheduleItems')
      .select(['dueDate', 'totalKobo'])
      .where('loanId', '=', loan.id)
      .orderBy('installmentNumber')
      .limit(1)
      .executeTakeFirst();
    const phone = await loanPhone(db, loan.id);
    if (!phone) throw new Error('the phone on record cannot receive texts');
    const body = receiptText({
      lender: settings.displayName ?? organisation.name,
      principalKobo: loan.principalKobo,
      firstDue,
      bank: await capturedBankAccount(db, loan.id),
      loanId: loan.id,
      locale: (await loanBorrowerLanguage(db, loan)).locale,
      myLoanUrl: myLoanLink(platform.baseUrl, scope.mode),
    });
    await platform.sms.for(scope.mode).send({ to: phone, body, mode: scope.mode });
    return true;
  } catch (error) {
    await db.updateTable('loans').set({ checkoutReceiptSentAt: null }).where('id', '=', scope.loanId).execute();
    platform.logger.warn({ err: error, loanId: scope.loanId }, 'checkout receipt text not sent; the next confirmation retries');
    return false;
  }
}
