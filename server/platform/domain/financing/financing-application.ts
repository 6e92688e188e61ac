import type { Executor } from '../../db/database';
import type { FinancingApplicationsTable, LoansTable, Mode } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { applicationUrlOf } from '../loans/loan';
import type { Secrets } from '../secrets';
import type { Scope } from '../scope';

/**
 * The initiation's status (the spec leaves the value set open; this is it). The loan underneath keeps the lending
 * API's statuses; this one is what the partner sees in responses and webhooks.
 *
 * | status                  | reached by                                                                 | event                        |
 * |-------------------------|----------------------------------------------------------------------------|------------------------------|
 * | `initiated`             | `POST /sdk/loans/initiate`                                                 | `loan.initiated`             |
 * | `application_submitted` | the patient's identity matched (OTP, full name, BVN, date of birth)       | `loan.application.submitted` |
 * | `approved`              | the bureau check and the credit policy approved; tenor options offered    | `loan.approved`              |
 * | `rejected`              | identity mismatch, delinquent bureau file, above the risk limit, unaffordable | `loan.rejected`          |
 * | `offer_accepted`        | the patient signed the offer for the tenor they chose                      | `loan.offer.accepted`        |
 * | `offer_rejected`        | the patient declined the offer                                             | `loan.offer.rejected`        |
 * | `disbursed`             | the mandate is live at the provider and the treatment amount settled to the partner | `loan.disbursed`   |
 * | `completed`             | the last instalment was collected                                          | `loan.completed`             |
 * | `defaulted`             | past the default threshold unpaid                                          | `loan.defaulted`             |
 * | `cancelled`             | the partner cancelled before disbursement                                  | `loan.cancelled`             |
 * | `expired`               | `expiresAt` passed before the offer was signed                             | `loan.cancelled` (reason `expired`) |
 *
 * `initiated` → `application_submitted` → `approved` | `rejected`; `approved` → `offer_accepted` | `offer_rejected`;
 * `offer_accepted` → `disbursed` → `completed` | `defaulted`. `cancelled` and `expired` from anything before `disbursed`
 * (expiry only before `offer_accepted`: a signed offer waits for its mandate).
 */
export { FINANCING_STATUSES, type FinancingStatus } from '../../../shared/checkout-contract';
import type { FinancingStatus } from '../../../shared/checkout-contract';

/** Where each move may start from (every move is one conditional UPDATE on the status). */
export const FINANCING_FROM = {
  submit: ['initiated'],
  decide: ['application_submitted'],
  respond: ['approved'],
  disburse: ['offer_accepted'],
  cancel: ['initiated', 'application_submitted', 'approved', 'offer_accepted'],
  expire: ['initiated', 'application_submitted', 'approved'],
} as const satisfies Record<string, readonly FinancingStatus[]>;

/** Statuses after which nothing more happens. */
export const FINANCING_FINAL: readonly FinancingStatus[] = ['rejected', 'offer_rejected', 'completed', 'defaulted', 'cancelled', 'expired'];


/** The initiation record of the spec: what `POST /sdk/loans/initiate` answers. */
export interface LoanInitiation {
  sdkReference: string;
  clientReference: string;
  applicationUrl: string;
  status: FinancingStatus;
  expiresAt: string;
}

export function toInitiation(row: FinancingApplicationsTable, loan: Pick<LoansTable, 'applicationUrl' | 'applicationTokenSealed'>, secrets: Pick<Secrets, 'decrypt'>): LoanInitiation {
  return {
    sdkReference: row.id,
    clientReference: row.clientReference,
    applicationUrl: applicationUrlOf(loan, secrets) ?? '',
    status: row.status as FinancingStatus,
    expiresAt: row.expiresAt,
  };
}

export async function findApplicationRow(db: Executor, scope: Scope, id: string): Promise<FinancingApplicationsTable | undefined> {
  return db
    .selectFrom('financingApplications')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
}

/** The organisation's own application (another organisation's, or the other mode's, is 404: never 403). */
export async function getApplicationRow(db: Executor, scope: Scope, id: string): Promise<FinancingApplicationsTable> {
  const row = await findApplicationRow(db, scope, id);
  if (!row) throw notFound('loan');
  return row;
}

/**
 * Moves an application from one of `from` to `to` with other column changes, as one conditional UPDATE; a
 * concurrent move that won first leaves nothing written and answers 409.
 */
export async function transitionApplication(
  db: Executor,
  row: FinancingApplicationsTable,
  from: readonly FinancingStatus[],
  changes: Partial<FinancingApplicationsTable> & { status: FinancingStatus },
  now: Date,
): Promise<FinancingApplicationsTable> {
  if (!from.includes(row.status as FinancingStatus)) {
    throw new AppError('invalid_loan_state', `The application is ${row.status}; it cannot move to ${changes.status}.`);
  }
  const updatedAt = now.toISOString();
  const result = await db
    .updateTable('financingApplications')
    .set({ ...changes, updatedAt })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('invalid_loan_state', `The application changed concurrently; it cannot move to ${changes.status}.`);
  return { ...row, ...changes, updatedAt };
}
