import type { Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { SmsSender } from '../ports';
import { applicationUrlOf } from '../loans/loan';
import type { Secrets } from '../secrets';
import { loanPhone } from './otp';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';

/**
 * The text that tells a borrower who was waiting in the checkout that the lender's offer is ready,
 * with the link to it. Only for a borrower who reached the checkout (a session of the loan with the
 * phone verified); null otherwise. The caller sends it after its transaction commits.
 */
export async function offerReadyText(
  db: Executor,
  secrets: Pick<Secrets, 'decrypt'>,
  loan: LoansTable,
): Promise<((sms: SmsSender) => Promise<void>) | null> {
  const waiting = await db
    .selectFrom('checkoutSessions')
    .select('id')
    .where('loanId', '=', loan.id)
    .where('otpVerifiedAt', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  const url = applicationUrlOf(loan, secrets);
  if (!waiting || !url) return null;
  const phone = await loanPhone(db, loan.id);
  if (!phone) return null;
  const organisation = await db.selectFrom('organisations').select('name').where('id', '=', loan.organisationId).executeTakeFirstOrThrow();
  const { locale } = await loanBorrowerLanguage(db, loan);
  const body = smsText('offerReady', locale, { lender: organisation.name, url });
  return (sms) => sms.send({ to: phone, body, mode: loan.mode });
}
