import type { Db, Executor, Tx } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import type { Services } from '../services';
import type { AmlScreenResult, BureauReport, BvnMatchOutcome } from '../ports';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from '../checkout/checkout-session';
import { AppError } from '../errors';
import { newId } from '../ids';
import { getLoanRow, transitionLoan } from '../loans/loan';
import { attestAndScreen } from '../loans/attestation';
import type { LoanWriteContext } from '../loans/loan-context';
import { openAmlReview } from '../reviews/open-review';
import { BVN_HASH_PURPOSE } from '../preapprovals/push-preapproval';
import { decideFinancing, gradeBureauFacts, type BureauGrade, type CreditDecision } from './credit-policy';
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

type FinancingPlatform = Pick<Services, 'secrets' | 'settings' | 'bvnIdentity' | 'bureau'> & LoanWriteContext['platform'];

/** Who screened, on the attestation record: the service's own decision, not a partner's key. */
const FINANCING_DECIDER = 'service:financing-decision';

/** The application behind a checkout session of a financing loan (a lending loan's session: 409). */
export async function sessionApplication(db: Executor, scope: CheckoutScope): Promise<FinancingApplicationsTable> {
  requireOtpVerified(await getSessionRow(db, scope));
  const app = await db.selectFrom('financingApplications').selectAll().where('id', '=', scope.loanId).executeTakeFirst();
  if (!app) throw new AppError('checkout_step_required', 'This checkout is not a patient-financing application.');
  return app;
}

/**
 * The identity step of the hosted application, then the bureau check and the decision, as the spec orders them:
 * `loan.application.submitted`, then `loan.approved` (with the tenor options) or `loan.rejected`. An approval is
 * screened (AML) first, as a lending approval is: a hit, or no screen at all (`pending`: live mode without a provider),
 * parks the loan `under_review` with a review the service's staff decide (never the partner), the application staying
 * `application_submitted`; nothing is approved unscreened. The providers are asked first, outside any transaction;
 * everything is then written in one transaction. A mismatch (BVN record,
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

  // A bureau outage or timeout records nothing: the application stays `initiated`, waiting for the patient to retry (never an approval).
  let report: BureauReport;
  try {
    report = await bureau.report({ bvn: input.bvn, mode: scope.mode });
  } catch (error) {
    throw new AppError('bureau_unavailable', 'The credit check could not be run right now; try again shortly.', { reason: (error as Error).message });
  }
  const policy = platform.settings.FINANCING_POLICY;
  const grade = gradeBureauFacts(report.facts);
  const decision = decideFinancing(policy, {
    amountKobo: app.treatmentAmountKobo,
    riskBand: grade.riskBand,
    declaredMonthlyIncomeKobo: input.declaredMonthlyIncomeKobo,
    existingDebtKobo: report.facts.totalOutstandingKobo,
  });
  // Only an approval is screened: a refusal moves no money to anyone.
  const screen = decision.approved ? await platform.aml.screen({ ...names, mode: scope.mode }) : null;

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
    const ctx: LoanWriteContext = { db: trx, platform, now, scope: { organisationId: app.organisationId, mode: app.mode }, actor: FINANCING_DECIDER };
    app = await decide(ctx, app, report, grade, decision, screen, policy);
  });
  return app;
}

async function decide(
  ctx: LoanWriteContext,
  app: FinancingApplicationsTable,
  report: BureauReport,
  grade: BureauGrade,
  decision: CreditDecision,
  screen: AmlScreenResult | null,
  policy: Services['settings']['FINANCING_POLICY'],
): Promise<FinancingApplicationsTable> {
  const { db, now } = ctx;
  const at = now.toISOString();
  const common = { bureauOutcome: grade.outcome, riskBand: grade.riskBand, decidedAt: at };
  // Only the normalised facts and the bureau's reference are kept with the decision (never the raw report).
  const bureau = { bureauReference: report.reference, bureauProvider: report.provider, bureauFacts: report.facts };
  if (!decision.approved) {
    return reject(db, app, decision.reason, { ...common, decision: toJson({ approved: false, reason: decision.reason, ...bureau }) }, now, ['application_submitted']);
  }
  // The terms the options were priced with travel with the decision, so the offer prices exactly what was checked.
  const terms = { interestModel: policy.interestModel, processingFeeBps: policy.processingFeeBps, lateFeeBps: policy.lateFeeBps };
  const stored = toJson({ ...decision, terms, ...bureau });
  // The screen is kept with the loan's KYC evidence either way (the live offer checks for a clear one).
  const loan = await getLoanRow(db, ctx.scope, app.id);
  const attestation = await attestAndScreen(ctx, loan, { schemaVersion: 1, attestedChecks: { source: 'financing_decision', bvnMatch: 'match' } }, screen ?? undefined);
  if (attestation.amlScreenStatus !== 'clear') {
    // Parked: the decision waits with the application (not shown to the patient) until a person clears or rejects it.
    const parked = await transitionApplication(db, app, ['application_submitted'], { status: 'application_submitted', bureauOutcome: grade.outcome, riskBand: grade.riskBand, decision: stored }, now);
    const underReview = await transitionLoan(db, loan, ['pending'], { status: 'under_review' }, now);
    await openAmlReview(ctx, underReview, attestation, 'pending');
    return parked;
  }
  return approveApplication(db, app, stored, now, { bureauOutcome: grade.outcome, riskBand: grade.riskBand });
}

/**
 * The credit decision's approval (stored with its terms and bureau facts): the application becomes `approved` and
 * `loan.approved` goes out with the tenor options. Also how a cleared review moves a parked application on.
 */
export async function approveApplication(
  db: Tx,
  app: FinancingApplicationsTable,
  storedDecision: FinancingApplicationsTable['decision'],
  now: Date,
  changes: Partial<FinancingApplicationsTable> = {},
): Promise<FinancingApplicationsTable> {
  const at = now.toISOString();
  const decision = fromJson<Extract<CreditDecision, { approved: true }>>(storedDecision)!;
  const approved = await transitionApplication(db, app, ['application_submitted'], { ...changes, status: 'approved', decidedAt: at, decision: storedDecision }, now);
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
