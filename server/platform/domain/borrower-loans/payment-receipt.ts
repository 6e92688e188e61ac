import type { LoansTable, LoanRepaymentsTable } from '../../db/schema';
import type { Services } from '../services';
import { lenderContact } from '../checkout/lender-contact';
import { loanPhone } from '../checkout/otp';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import { formatNairaPdf } from '../offer-letter/format-offer-letter';
import type { BorrowerScope } from './borrower-session';
import { myLoanLink } from './reminders';

/** What a receipt text needs. */
export type ReceiptPlatform = Pick<Services, 'db' | 'baseUrl' | 'sms' | 'logger'>;

/**
 * The text the borrower gets when a payment of theirs (pay now, pay off) is applied: the amount and its reference,
 * then what is still owed with the loan page's link, or that the loan is fully paid. In the borrower's language
 * (as for every text about the loan), amounts as "NGN" so English and Pidgin stay one GSM-7 part. Best effort: the
 * payment stands whether or not the text goes.
 */
export function textPaymentReceipt(
  platform: ReceiptPlatform,
  /** The lender and mode of the loan, and the phone to text. */
  scope: Pick<BorrowerScope, 'organisationId' | 'mode' | 'phone'>,
  loan: Pick<LoansTable, 'id' | 'borrowerId'>,
  repayment: Pick<LoanRepaymentsTable, 'amountKobo' | 'reference'>,
  outstandingKobo: number,
): void {
  void (async () => {
    const [{ locale }, lender] = await Promise.all([loanBorrowerLanguage(platform.db, loan), lenderContact(platform.db, scope)]);
    const values = { lender: lender.name, amount: formatNairaPdf(repayment.amountKobo), reference: repayment.reference };
    const body =
      outstandingKobo > 0
        ? smsText('paymentReceived', locale, { ...values, outstanding: formatNairaPdf(outstandingKobo), url: myLoanLink(platform.baseUrl, scope.mode) })
        : smsText('loanPaidOff', locale, values);
    await platform.sms.for(scope.mode).send({ to: scope.phone, body, mode: scope.mode });
  })().catch((error: unknown) => platform.logger.warn({ err: error, loanId: loan.id }, 'payment receipt not texted'));
}

/**
 * The receipt of a borrower's payment that the bank decided after their request answered (202 `pending`): the
 * collector's read-back or the rail's notification applied it, once (`settleCharge`), after its transaction committed.
 * Texted to the loan's phone on record (the phone the borrower signs in with), with what the loan owes now. Best
 * effort, like every receipt: nothing is retried and the payment stands either way.
 */
export async function textLaterPaymentReceipt(
  platform: ReceiptPlatform,
  repayment: Pick<LoanRepaymentsTable, 'id' | 'loanId' | 'organisationId' | 'mode' | 'amountKobo' | 'reference'>,
): Promise<void> {
  try {
    const loan = await platform.db.selectFrom('loans').select(['id', 'borrowerId', 'outstandingKobo']).where('id', '=', repayment.loanId).executeTakeFirstOrThrow();
    const phone = await loanPhone(platform.db, loan.id);
    if (!phone) {
      platform.logger.warn({ loanId: loan.id, repaymentId: repayment.id }, 'payment receipt not texted: no phone on record takes texts');
      return;
    }
    textPaymentReceipt(platform, { organisationId: repayment.organisationId, mode: repayment.mode, phone }, loan, repayment, loan.outstandingKobo);
  } catch (error) {
    platform.logger.warn({ err: error, loanId: repayment.loanId, repaymentId: repayment.id }, 'payment receipt not texted');
  }
}
