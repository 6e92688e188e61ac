import type { LoansTable, LoanRepaymentsTable } from '../../db/schema';
import { lenderContact } from '../checkout/lender-contact';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import { formatNairaPdf } from '../offer-letter/format-offer-letter';
import type { BorrowerScope } from './borrower-session';
import type { ChargePlatform } from './borrower-charge';
import { myLoanLink } from './reminders';

/**
 * The text the borrower gets when a payment of theirs (pay now, pay off) is applied: the amount and its reference,
 * then what is still owed with the loan page's link, or that the loan is fully paid. In the borrower's language
 * (as for every text about the loan), amounts as "NGN" so English and Pidgin stay one GSM-7 part. Best effort: the
 * payment stands whether or not the text goes.
 */
export function textPaymentReceipt(
  platform: ChargePlatform,
  scope: BorrowerScope,
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
