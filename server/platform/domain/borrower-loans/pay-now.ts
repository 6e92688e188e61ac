import { AppError } from '../errors';
import { formatNaira } from '../offer-letter/format-offer-letter';
import type { BorrowerScope } from './borrower-session';
import { sendBorrowerCharge, startBorrowerCharge, type ChargePlatform } from './borrower-charge';
import { paymentRange } from './pay-now-rules';
import { textPaymentReceipt } from './payment-receipt';

export interface BorrowerPayment {
  repaymentId: string;
  reference: string;
  amountKobo: number;
  /** `completed`: taken and applied; `pending`: sent, the rail has not decided yet (the loan shows it when it has). */
  status: 'completed' | 'pending';
  /** What the loan still owes after it (before it, while pending). */
  outstandingKobo: number;
  loanStatus: string;
}

/**
 * Pay now: the borrower pays `amountKobo` (₦100, or the whole outstanding when that is less, up to the outstanding)
 * from the loan's direct debit, once (`borrower-charge.ts`), allocated by the repayment rules (oldest instalment first,
 * fee → interest → principal). A receipt is texted once the payment is applied.
 */
export async function payNow(platform: ChargePlatform, scope: BorrowerScope, options: { loanId: string; amountKobo: number; now: Date }): Promise<BorrowerPayment> {
  const { now } = options;
  const started = await startBorrowerCharge(platform, scope, options.loanId, now, async (_trx, loan) => {
    const range = paymentRange(loan.outstandingKobo);
    if (options.amountKobo < range.minKobo || options.amountKobo > range.maxKobo) {
      throw new AppError('payment_amount_out_of_range', `Pay between ${formatNaira(range.minKobo)} and ${formatNaira(range.maxKobo)}.`, undefined, range);
    }
    return options.amountKobo;
  });
  const status = await sendBorrowerCharge(platform, started, now);
  const loan = await platform.db.selectFrom('loans').select(['outstandingKobo', 'status']).where('id', '=', started.loan.id).executeTakeFirstOrThrow();
  if (status === 'completed') textPaymentReceipt(platform, scope, started.loan, started.repayment, loan.outstandingKobo);
  return {
    repaymentId: started.repayment.id,
    reference: started.repayment.reference,
    amountKobo: started.repayment.amountKobo,
    status,
    outstandingKobo: loan.outstandingKobo,
    loanStatus: loan.status,
  };
}
