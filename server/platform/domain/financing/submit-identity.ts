import type { Db, Executor, Tx } from '../../db/database';
import { toJson } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import type { Services } from '../services';
import type { BureauReport, BvnMatchOutcome } from '../ports';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from '../checkout/checkout-session';
import { AppError } from '../errors';
import { newId } from '../ids';
import { getLoanRow, transitionLoan } from '../loans/loan';
import { BVN_HASH_PURPOSE } from '../preapprovals/push-preapproval';
import { decideFinancing, type CreditDecision } from './credit-policy';
import { getApplicationRow, transitionApplication } from './financing-application';
import { emitFinancingEvent } from './financing-events';
import { firstNameAgrees, splitFullName } from './names';
import { expireIfDue } from './expire-financing';
import { inUnitOfWork } from '../unit-of-work';

/** Failed identity matches allowed before the application is rejected (`identity_mismatch`). */
export const IDENTITY_ATTEMPTS = 3;

export interface IdentityInput {
  fullName: string;
  /** 11 digits; only its keyed hash is kept. */
  bvn: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  declaredMonthlyIncomeKobo: number;
  email?: string;
}

type FinancingPlatform = Pick<Services, 'secrets' | 'settings' | 'bvnIdentity' | 'bureau'>;

/** The application behind a checkout session of a financing loan (a lending loan's session: 409). */
export async function sessionApplication(db: Executor, scope: CheckoutScope): Promise<FinancingApplicationsTable> {
  requireOtpVerified(await getSessionRow(db, scope));
  const app = await db.selectFrom('financingApplications').selectAll().where('id', '=', scope.loanId).executeTakeFirst();
  if (!app) throw new AppError('checkout_step_required', 'This checkout is not a patient-financing application.');
  return app;
}

/**
 * The identity step of the hosted application, then the bureau check and the decision, as the spec orders them:
 * `loan.application.submitted`, then `loan.approved` (with the tenor options) or `loan.rejected`. The two providers
 * are asked first, outside any transaction; everything is then written in one transaction. A mismatch (BVN record,
 * or the first name the partner gave) is recorded and answers 422 `identity_mismatch` with the tries left; the
 * `IDENTITY_ATTEMPTS`-th rejects the application. Only a keyed hash of the BVN is stored.
 */
export async function submitFinancingIdentity(db: Db, platform: FinancingPlatform, scope: CheckoutScope, input: IdentityInput, now: Date): Promise<FinancingApplicationsTable> {
  let app = await sessionApplication(db, scope);
  await expireIfDue(db, app, now);
  if (app.status !== 'initiated') throw new AppError('invalid_loan_state', `The application is ${app.status}: identity is already done.`);
  // Live mode without a BVN or bureau provider: 503 before anything is recorded.
  const registry = platform.bvnIdentity.for(scope.mode);
  const bureau = platform.bureau.for(scope.mode);
  const names = splitFullName(input.fullName);
  if (!names) throw new AppError('invalid_request', 'body.fullName: give your first and last name as on your BVN.');
  const bvnHash = platform.secrets.hmac(BVN_HASH_PURPOSE, input.bvn);

  let identity: BvnMatchOutcome;
  if (!firstNameAgrees(app.firstName, input.fullName)) {
    identity = { outcome: 'mismatch', fields: ['name'] };
  } else {
    try {
      identity = await registry.match({ bvn: input.bvn, ...names, dateOfBirth: input.dateOfBirth, mode: scope.mode });
    } catch (error) {
      throw new AppError('identity_unavailable', 'Your identity could not be checked right now; try again shortly.', { reason: (error as Error).message });
    }
  }

  if (identity.outcome !== 'match') {
    const failures = await inUnitOfWork(db, async (trx) => {
      await trx
        .insertInto('kycSubmissions')
        .values({ id: newId(), loanId: app.id, bvnHash, outcome: 'failed', documents: toJson([{ type: 'bvn', status: identity.outcome === 'mismatch' ? `mismatch:${identity.fields.join(',')}` : 'not_found' }]), createdAt: now.toISOString() })
        .execute();
      const count = (await trx.selectFrom('kycSubmissions').select('id').where('loanId', '=', app.id).where('outcome', '=', 'failed').execute()).length;
      if (count >= IDENTITY_ATTEMPTS) await reject(trx, app, 'identity_mismatch', { fullName: input.fullName, dateOfBirth: input.dateOfBirth, bvnHash, identityOutcome: 'mismatch' }, now);
      return count;
    });
    if (failures >= IDENTITY_ATTEMPTS) return getApplicationRow(db, scope, app.id);
    const left = IDENTITY_ATTEMPTS - failures;
    throw new AppError(
      'identity_mismatch',
      `These details do not match your BVN record${identity.outcome === 'mismatch' && identity.fields.includes('name') ? ' (check your name is written as on your BVN, starting with your first name)' : ''}. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
    );
  }

  let report: BureauReport;
  try {
    report = await bureau.report({ bvn: input.bvn, mode: scope.mode });
  } catch (error) {
    throw new AppError('bureau_unavailable', 'The credit check could not be run right now; try again shortly.', { reason: (error as Error).message });
  }
  const policy = platform.settings.FINANCING_POLICY;
  const decision = decideFinancing(policy, { amountKobo: app.treatmentAmountKobo, riskBand: report.riskBand, declaredMonthlyIncomeKobo: input.declaredMonthlyIncomeKobo });

  await inUnitOfWork(db, async (trx) => {
    const at = now.toISOString();
    await trx.insertInto('kycSubmissions').values({ id: newId(), loanId: app.id, bvnHash, outcome: 'verified', documents: toJson([{ type: 'bvn', status: 'verified' }]), createdAt: at }).execute();
    const loan = await getLoanRow(trx, scope, app.id);
    await trx
      .updateTable('borrowers')
      .set({ firstName: names.firstName, lastName: names.lastName, email: input.email ?? null, updatedAt: at })
      .where('id', '=', loan.borrowerId)
      .execute();
    app = await transitionApplication(
      trx,
      app,
      ['initiated'],
      {
        status: 'application_submitted',
        fullName: `${names.firstName} ${names.lastName}`,
        dateOfBirth: input.dateOfBirth,
        bvnHash,
        declaredMonthlyIncomeKobo: input.declaredMonthlyIncomeKobo,
        identityOutcome: 'match',
        submittedAt: at,
      },
      now,
    );
    await emitFinancingEvent(trx, app, 'loan.application.submitted', now, { submittedAt: at });
    app = await decide(trx, app, report, decision, policy, now);
  });
  return app;
}

async function decide(
  db: Tx,
  app: FinancingApplicationsTable,
  report: BureauReport,
  decision: CreditDecision,
  policy: Services['settings']['FINANCING_POLICY'],
  now: Date,
): Promise<FinancingApplicationsTable> {
  const at = now.toISOString();
  const common = { bureauOutcome: report.outcome, riskBand: report.riskBand, decidedAt: at };
  if (!decision.approved) {
    return reject(db, app, decision.reason, { ...common, decision: toJson({ approved: false, reason: decision.reason, bureauReference: report.reference }) }, now, ['application_submitted']);
  }
  // The terms the options were priced with travel with the decision, so the offer prices exactly what was checked.
  const terms = { interestModel: policy.interestModel, processingFeeBps: policy.processingFeeBps, lateFeeBps: policy.lateFeeBps };
  const approved = await transitionApplication(
    db,
    app,
    ['application_submitted'],
    { status: 'approved', ...common, decision: toJson({ ...decision, terms, bureauReference: report.reference }) },
    now,
  );
  await emitFinancingEvent(db, approved, 'loan.approved', now, {
    riskBand: decision.riskBand,
    annualRateBps: decision.annualRateBps,
    tenorOptions: decision.options.map((o) => ({ tenorMonths: o.tenorMonths, instalmentKobo: o.instalmentKobo, totalRepayableKobo: o.totalRepayableKobo })),
    decidedAt: at,
  });
  return approved;
}

/** Rejects the application and its loan, with `loan.rejected` (terminal). */
async function reject(
  db: Tx,
  app: FinancingApplicationsTable,
  reason: string,
  changes: Partial<FinancingApplicationsTable>,
  now: Date,
  from: readonly ('initiated' | 'application_submitted')[] = ['initiated'],
): Promise<FinancingApplicationsTable> {
  const at = now.toISOString();
  const rejected = await transitionApplication(db, app, from, { ...changes, status: 'rejected', rejectionReason: reason, decidedAt: at }, now);
  const loan = await getLoanRow(db, { organisationId: app.organisationId, mode: app.mode }, app.id);
  await transitionLoan(db, loan, ['pending'], { status: 'rejected', rejectionReason: reason }, now);
  await emitFinancingEvent(db, rejected, 'loan.rejected', now, { reason, decidedAt: at });
  return rejected;
}
