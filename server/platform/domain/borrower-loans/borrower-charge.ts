import type { Tx } from '../../db/database';
import type { LoanMandatesTable, LoanRepaymentsTable, LoansTable } from '../../db/schema';
import type { Services } from '../services';
import type { PaymentRail, RailName } from '../ports';
import { isOutcomeUnknown } from '../ports';
import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { isChargeable } from '../mandates/mandate';
import { authorisationCodeOf } from '../mandates/manage-mandate';
import { pendingMandateCharge } from '../repayments/record-repayment';
import { CHARGE_OUTCOME_UNKNOWN, CHARGE_SENDING, settleCharge } from '../repayments/collect-mandates';
import { lenderContact } from '../checkout/lender-contact';
import { invalidState } from '../loans/loan';
import type { BorrowerScope } from './borrower-session';
import { borrowerLoanRow } from './borrower-loans';

/**
 * A borrower's own debit on their loan's direct-debit mandate (pay now, pay off): charged once, through the rail port,
 * the way the collector charges (`collect-mandates.ts`), but at the borrower's request.
 *
 * 1. One transaction locks the loan's row, refuses when a mandate charge is already pending on the loan (two tabs, or
 *    the collector's scheduled debit: `payment_in_progress`), and records a pending mandate repayment already claimed
 *    for sending, so no collector sends it too. Two requests at once therefore never both charge.
 * 2. The charge is sent outside any transaction. A refusal (the rail says no now, or the read-back says `failed`)
 *    removes the pending repayment and answers 422 `payment_refused`: nothing was taken, nothing changed. An unknown
 *    outcome stays pending for the collector to look up by reference; so does a charge the rail has not decided yet.
 * 3. A charge the rail has decided is applied like every mandate repayment (`settleCharge`).
 */

export type ChargePlatform = Pick<Services, 'db' | 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings' | 'baseUrl' | 'logger' | 'rails' | 'sms'>;

/** Loans a borrower can pay: lent and still owing (a defaulted loan is the lender's to recover). */
const PAYABLE = ['active', 'disbursed'];

export interface StartedCharge {
  loan: LoansTable;
  mandate: LoanMandatesTable;
  rail: PaymentRail;
  repayment: LoanRepaymentsTable;
}

/** The loan's chargeable mandate and its rail, or a refusal that says what to do instead. */
async function chargeableMandate(trx: Tx, platform: ChargePlatform, loan: LoansTable): Promise<{ mandate: LoanMandatesTable; rail: PaymentRail }> {
  const mandate = loan.activeMandateId ? await trx.selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId).executeTakeFirst() : undefined;
  if (!mandate || !isChargeable(mandate)) {
    const lender = await lenderContact(trx, { organisationId: loan.organisationId, mode: loan.mode });
    throw new AppError('repayment_method_unavailable', `This loan has no active direct debit to pay from; contact ${lender.name} to pay another way.`, undefined, { lender });
  }
  const rail = platform.rails.railFor(loan.mode, mandate.provider as RailName);
  if (!rail) throw new AppError('provider_not_configured', `No payment rail is configured for ${mandate.provider} in ${loan.mode} mode.`, undefined, { provider: mandate.provider });
  return { mandate, rail };
}

/**
 * Step 1: records the pending charge. `amountOf` decides the amount on the locked loan (and refuses what it must);
 * `alongside` writes what goes with it in the same transaction.
 */
export async function startBorrowerCharge(
  platform: ChargePlatform,
  scope: BorrowerScope,
  loanId: string,
  now: Date,
  amountOf: (trx: Tx, loan: LoansTable) => Promise<number>,
  alongside?: (trx: Tx, loan: LoansTable, repayment: LoanRepaymentsTable) => Promise<void>,
): Promise<StartedCharge> {
  return inUnitOfWork(platform.db, async (trx) => {
    const owned = await borrowerLoanRow(trx, scope, loanId);
    // The loan's row lock: a second request (another tab) waits here, then sees this one's pending charge.
    await trx.updateTable('loans').set((eb) => ({ updatedAt: eb.ref('updatedAt') })).where('id', '=', owned.id).execute();
    const loan = await trx.selectFrom('loans').selectAll().where('id', '=', owned.id).executeTakeFirstOrThrow();
    if (!PAYABLE.includes(loan.status)) throw invalidState(loan.status, 'paid by the borrower');
    const pending = await trx.selectFrom('loanRepayments').select('id').where('loanId', '=', loan.id).where('method', '=', 'mandate').where('status', '=', 'pending').executeTakeFirst();
    if (pending) throw new AppError('payment_in_progress', 'A payment on this loan is still being collected; wait for it to finish, then try again if something is still owed.');
    const { mandate, rail } = await chargeableMandate(trx, platform, loan);
    const amountKobo = await amountOf(trx, loan);
    const repayment = { ...pendingMandateCharge({ loan, mandateId: mandate.id, amountKobo, now, initiatedBy: 'borrower' }), failureReason: CHARGE_SENDING };
    await trx.insertInto('loanRepayments').values(repayment).execute();
    await alongside?.(trx, loan, repayment);
    return { loan, mandate, rail, repayment };
  });
}

/**
 * Steps 2 and 3: sends the charge and settles it if the rail has decided. `undo` reverses what `alongside` wrote when
 * the rail refuses (in the transaction that removes the pending repayment).
 */
export async function sendBorrowerCharge(
  platform: ChargePlatform,
  started: StartedCharge,
  now: Date,
  undo?: (trx: Tx) => Promise<void>,
): Promise<'completed' | 'pending'> {
  const { db } = platform;
  const { repayment, rail, mandate, loan } = started;
  const at = now.toISOString();
  const refuse = async (reason: string): Promise<never> => {
    await inUnitOfWork(db, async (trx) => {
      await undo?.(trx);
      // Only what took nothing: refused before it was sent, or read back as failed. A charge the rail holds is never removed.
      await trx
        .deleteFrom('loanRepayments')
        .where('id', '=', repayment.id)
        .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('chargeReference', 'is', null)])]))
        .execute();
    });
    platform.logger.info({ loanId: loan.id, reason }, 'borrower payment refused by the rail');
    const lender = await lenderContact(db, { organisationId: loan.organisationId, mode: loan.mode });
    throw new AppError(
      'payment_refused',
      `Your bank did not allow the debit (${reason}); nothing was taken. Fund the account and try again, try a smaller amount, or contact ${lender.name} to pay another way.`,
      undefined,
      { reason, lender },
    );
  };
  let chargeReference: string;
  try {
    ({ chargeReference } = await rail.charge({ authorizationCode: authorisationCodeOf(platform, mandate), amountKobo: repayment.amountKobo, reference: repayment.reference, email: mandate.email }));
  } catch (error) {
    if (isOutcomeUnknown(error)) {
      await db.updateTable('loanRepayments').set({ failureReason: CHARGE_OUTCOME_UNKNOWN, updatedAt: at }).where('id', '=', repayment.id).where('status', '=', 'pending').execute();
      platform.logger.warn({ err: error, repaymentId: repayment.id }, 'borrower charge outcome unknown; the collector looks it up by its reference');
      return 'pending';
    }
    const code = (error as { code?: unknown }).code;
    return refuse(typeof code === 'string' ? code : (error as Error).message);
  }
  await db.updateTable('loanRepayments').set({ chargeReference, failureReason: null, updatedAt: at }).where('id', '=', repayment.id).where('chargeReference', 'is', null).execute();
  // The request texts its own receipt when this applies the charge (the caller knows the session's phone).
  const outcome = await settleCharge(platform, rail, { ...repayment, chargeReference, failureReason: null }, now, { textReceipt: false });
  if (outcome === 'failed') {
    const failed = await db.selectFrom('loanRepayments').select('failureReason').where('id', '=', repayment.id).executeTakeFirst();
    // Taken by the rail but not applied (marked for a refund by `settleCharge`): not a refusal; the operators see it.
    if (failed?.failureReason?.startsWith('collected_but_not_applied')) return 'pending';
    return refuse(failed?.failureReason ?? 'failed');
  }
  return outcome;
}
