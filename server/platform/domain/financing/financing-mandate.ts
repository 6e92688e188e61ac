import type { Db } from '../../db/database';
import type { LoanMandatesTable, Mode } from '../../db/schema';
import { capturedBankAccount, isValidAccountNumber } from '../checkout/bank-account';
import { checkoutUrlPrefix } from '../checkout/checkout-session';
import { withdraw } from '../checkout/mandate-via-checkout';
import { bindReturnToLoan } from '../../../shared/mandate-return';
import { AppError } from '../errors';
import type { LoanContext } from '../loans/loan-context';
import { activateMandate, createMandate, type MandatePlatform } from '../mandates/manage-mandate';
import { disburseFinancingIfReady } from './disburse-financing';
import type { Services } from '../services';
import { getApplicationRow, type FinancingStatus } from './financing-application';
import type { Scope } from '../scope';

/**
 * The partner's view of the direct-debit set-up (`/sdk/loans/{loanId}/mandate`). The spec gives no response shape;
 * this is it. `stage` is where the patient is:
 *
 * - `awaiting_offer`: the offer is not signed yet (the mandate is set up for a signed loan only);
 * - `awaiting_bank_account`: signed, but no account to debit: the patient gives one in the hosted application, or the
 *   partner sends `bankCode` + `accountNumber` to POST;
 * - `ready`: signed and an account is known; POST (or the hosted application) creates the authorisation;
 * - `awaiting_authorisation`: the patient has an authorisation URL and has not approved at the provider yet;
 * - `awaiting_confirmation`: the patient approved; the provider has not confirmed the mandate live (this lags);
 * - `active`: live at the provider; the loan is disbursed to the partner (`loan.disbursed`);
 * - `failed`: refused, cancelled or expired at the provider; POST again for a new authorisation;
 * - `closed`: the application ended without a signed offer (rejected, offer rejected, cancelled, expired).
 */
export const MANDATE_STAGES = [
  'awaiting_offer',
  'awaiting_bank_account',
  'ready',
  'awaiting_authorisation',
  'awaiting_confirmation',
  'active',
  'failed',
  'closed',
] as const;
export type MandateStage = (typeof MANDATE_STAGES)[number];

export interface MandateProgress {
  sdkReference: string;
  applicationStatus: FinancingStatus;
  stage: MandateStage;
  /** Where the patient authorises the debit (send them there when `stage` is `awaiting_authorisation`). */
  authorizationUrl: string | null;
  mandate: {
    id: string;
    status: string;
    provider: string;
    bankCode: string | null;
    accountNumberLast4: string | null;
    activatedAt: string | null;
    createdAt: string;
  } | null;
}


const SIGNED: readonly FinancingStatus[] = ['offer_accepted', 'disbursed', 'completed', 'defaulted'];
const LIVE_MANDATE = ['initiated', 'pending', 'active'];

async function latestMandate(db: Db, loanId: string): Promise<LoanMandatesTable | undefined> {
  return db.selectFrom('loanMandates').selectAll().where('loanId', '=', loanId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

function stageOf(status: FinancingStatus, mandate: LoanMandatesTable | undefined, hasAccount: boolean): MandateStage {
  if (!SIGNED.includes(status)) return ['initiated', 'application_submitted', 'approved'].includes(status) ? 'awaiting_offer' : 'closed';
  if (!mandate) return hasAccount ? 'ready' : 'awaiting_bank_account';
  if (mandate.status === 'active') return 'active';
  if (['failed', 'cancelled', 'expired'].includes(mandate.status)) return 'failed';
  return mandate.providerStatus === 'approved' ? 'awaiting_confirmation' : 'awaiting_authorisation';
}

export async function mandateProgress(db: Db, scope: Scope, loanId: string): Promise<MandateProgress> {
  const app = await getApplicationRow(db, scope, loanId);
  const mandate = await latestMandate(db, loanId);
  const account = mandate ? undefined : await capturedBankAccount(db, loanId);
  const live = mandate && LIVE_MANDATE.includes(mandate.status) && mandate.status !== 'active';
  return {
    sdkReference: app.id,
    applicationStatus: app.status as FinancingStatus,
    stage: stageOf(app.status as FinancingStatus, mandate, Boolean(account)),
    authorizationUrl: live ? mandate.authorizationUrl : null,
    mandate: mandate
      ? {
          id: mandate.id,
          status: mandate.status,
          provider: mandate.provider,
          bankCode: mandate.bankCode,
          accountNumberLast4: mandate.accountNumber ? mandate.accountNumber.slice(-4) : null,
          activatedAt: mandate.activatedAt,
          createdAt: mandate.createdAt,
        }
      : null,
  };
}

/**
 * The rails a financing mandate may go on: `rail_a` (Paystack direct debit, the default) and `rail_b` (Mono Direct
 * Debit). The service is the lender and charges the mandate itself, so the partner-operated marker `rail_c` is not one.
 */
export const FINANCING_MANDATE_RAILS = ['rail_a', 'rail_b'] as const;
export type FinancingMandateRail = (typeof FINANCING_MANDATE_RAILS)[number];

export interface SetUpMandateInput {
  /** The rail the patient authorises on; `rail_a` when not given. */
  provider?: FinancingMandateRail;
  bankCode?: string;
  accountNumber?: string;
  accountName?: string;
  bankName?: string;
  email?: string;
}

/**
 * POST: an authorisation URL for the patient on the chosen rail (`provider`, `rail_a` by default). Bank details are
 * optional (both or neither; NUBAN-checked); without them the account the patient gave in the hosted application is
 * used. A mandate already in play is returned instead of a second one (`created: false`), unless new bank details are
 * sent, or another rail is asked for while the mandate still waits for the patient (that one is then withdrawn at its
 * rail first; a live mandate stays). The rails are called outside any transaction.
 */
export async function setUpFinancingMandate(
  db: Db,
  platform: MandatePlatform & Pick<Services, 'banks'>,
  scope: Scope,
  loanId: string,
  input: SetUpMandateInput,
  now: Date,
): Promise<{ created: boolean; progress: MandateProgress }> {
  const app = await getApplicationRow(db, scope, loanId);
  if ((input.bankCode === undefined) !== (input.accountNumber === undefined)) {
    throw new AppError('bank_details_incomplete', 'Send both bankCode and accountNumber, or neither (the account the patient gave is then used).');
  }
  if (input.bankCode !== undefined) {
    const bank = platform.banks.find((b) => b.code === input.bankCode);
    if (!bank) {
      throw new AppError('bank_not_found', `No bank with code ${input.bankCode}; use a CBN bank code from the bank list.`);
    }
    if (!isValidAccountNumber(bank, input.accountNumber!)) {
      throw new AppError('account_number_invalid', 'accountNumber is not a valid NUBAN for this bank code (check digit); check the 10 digits.');
    }
  }
  if (!SIGNED.includes(app.status as FinancingStatus)) {
    throw new AppError('invalid_loan_state', `The application is ${app.status}: the direct debit is set up once the patient has signed the offer.`);
  }
  const existing = await latestMandate(db, loanId);
  const provider = input.provider ?? 'rail_a';
  const inPlay = existing !== undefined && LIVE_MANDATE.includes(existing.status);
  // Another rail replaces a mandate still waiting for the patient, never a live one (the answer names its provider).
  const switchesRail = inPlay && input.provider !== undefined && existing.provider !== provider && existing.status !== 'active';
  if (inPlay && input.bankCode === undefined && !switchesRail) {
    return { created: false, progress: await mandateProgress(db, scope, loanId) };
  }
  // Without new details: the account the patient gave, else the one the latest mandate debits (a move to another rail).
  const inPlayAccount = existing?.bankCode && existing.accountNumber ? { bankCode: existing.bankCode, accountNumber: existing.accountNumber } : undefined;
  const account =
    input.bankCode !== undefined ? { bankCode: input.bankCode, accountNumber: input.accountNumber! } : ((await capturedBankAccount(db, loanId)) ?? inPlayAccount);
  if (!account) {
    throw new AppError('bank_account_required', 'The patient has not given a bank account yet: send bankCode and accountNumber, or wait for the hosted application.');
  }
  const borrower = await db
    .selectFrom('loans')
    .innerJoin('borrowers', 'borrowers.id', 'loans.borrowerId')
    .select('borrowers.email')
    .where('loans.id', '=', loanId)
    .executeTakeFirstOrThrow();
  const email = input.email ?? borrower.email;
  if (!email) throw new AppError('invalid_request', 'body.email: the patient has no e-mail on record and the payment provider needs one; send email.');
  if (switchesRail) await withdraw(db, platform, existing, now);
  await createMandate(
    db,
    platform,
    scope,
    {
      loanId,
      email,
      accountNumber: account.accountNumber,
      bankCode: account.bankCode,
      // The provider sends the patient back to the hosted application, which confirms the mandate from server state.
      callbackUrl: bindReturnToLoan(`${checkoutUrlPrefix(platform.baseUrl).replace(/c\/$/, '')}?return=mandate`, loanId),
      provider,
    },
    now,
  );
  return { created: true, progress: await mandateProgress(db, scope, loanId) };
}

/**
 * GET, for polling: a mandate still waiting for the provider is read back from it first (the patient may have approved
 * and closed the browser), and a mandate found live disburses the loan, so polling alone carries the loan to
 * `disbursed`. Provider errors leave the stored progress as it is (the next poll retries).
 */
export async function pollFinancingMandate(
  db: Db,
  platform: MandatePlatform & Pick<Services, 'logger'>,
  scope: Scope,
  loanId: string,
  now: Date,
): Promise<MandateProgress> {
  const app = await getApplicationRow(db, scope, loanId);
  const mandate = await latestMandate(db, loanId);
  if (app.status === 'offer_accepted' && mandate && ['initiated', 'pending'].includes(mandate.status)) {
    try {
      await activateMandate(db, platform, scope, mandate.id, now);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  if (app.status === 'offer_accepted') await disburseFinancingIfReady(db, platform, loanId, now);
  return mandateProgress(db, scope, loanId);
}
