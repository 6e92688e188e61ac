import crypto from 'node:crypto';
import type { Tx } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { FinancingApplicationsTable, Mode } from '../../db/schema';
import type { Services } from '../services';
import { mintApplicationSession } from '../checkout/checkout-session';
import { AppError } from '../errors';
import { newId } from '../ids';
import { insertLoan } from '../loans/create-loan-row';
import { koboToNaira } from '../money';
import { normaliseNigerianMobile } from '../users/phone';
import { amountWithinPolicy, DAYS_PER_MONTH, tenorMonthsFor } from './credit-policy';
import { toInitiation, type LoanInitiation } from './financing-application';
import { emitFinancingEvent, sealApplicationUrl } from './financing-events';
import { ensureFinancingLender } from './financing-lender';
import type { Scope } from '../scope';
import { newBorrowerRow } from '../borrowers/borrower';

export interface InitiateFinancingInput {
  clientReference: string;
  invoiceReference?: string | null;
  firstName: string;
  phoneNumber: string;
  treatment: string;
  /** Integer kobo (naira × 100). */
  treatmentAmount: number;
}

export interface InitiateFinancingContext {
  db: Tx;
  platform: Pick<Services, 'secrets' | 'settings' | 'baseUrl'>;
  now: Date;
  scope: Scope;
}

const naira = (kobo: number) => `₦${koboToNaira(kobo).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** What the replay rule compares: the body after normalisation (so `080…` and `+234…` are the same phone). */
function fingerprint(input: InitiateFinancingInput, phone: string): string {
  const canonical = [input.clientReference, input.invoiceReference ?? null, input.firstName, phone, input.treatment, input.treatmentAmount];
  return crypto.createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * `POST /sdk/loans/initiate`: checks the phone and the amount, then, in the request's transaction, creates the
 * patient (a borrower of the partner's), the loan (status `pending`: nothing decided; principal = the treatment
 * amount; funded later from the service's pool), the hosted-application session behind `applicationUrl`, the
 * initiation record, and `loan.initiated`. `clientReference` is the idempotency key: the same body returns the
 * existing initiation (`created: false`), another body answers 409 `client_reference_conflict`.
 */
export async function initiateFinancing(ctx: InitiateFinancingContext, input: InitiateFinancingInput): Promise<{ created: boolean; initiation: LoanInitiation }> {
  const { db, platform, now, scope } = ctx;
  const phone = normaliseNigerianMobile(input.phoneNumber);
  if (!phone) {
    throw new AppError('phone_number_invalid', 'phoneNumber: a Nigerian mobile number written 080…, 234… or +234… (11, 13 or 14 characters).');
  }
  const policy = platform.settings.FINANCING_POLICY;
  if (!amountWithinPolicy(policy, input.treatmentAmount)) {
    // The usual cause: a naira amount sent as kobo. Say what it would be × 100 when that is financeable.
    const hint = amountWithinPolicy(policy, input.treatmentAmount * 100)
      ? ` If you meant ${naira(input.treatmentAmount * 100)}, send ${input.treatmentAmount * 100} (kobo = naira × 100).`
      : '';
    throw new AppError(
      'treatment_amount_outside_policy',
      `treatmentAmount is in kobo: ${input.treatmentAmount} is ${naira(input.treatmentAmount)}, outside the financeable range ${naira(policy.minAmountKobo)} to ${naira(policy.maxAmountKobo)}.${hint}`,
    );
  }
  const requestFingerprint = fingerprint(input, phone);
  const existing = await db
    .selectFrom('financingApplications')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('clientReference', '=', input.clientReference)
    .executeTakeFirst();
  if (existing) return { created: false, initiation: await replay(ctx, existing, requestFingerprint) };

  const product = await ensureFinancingLender(db, policy, now);
  const at = now.toISOString();
  const borrower = newBorrowerRow(scope, { firstName: input.firstName, lastName: '', phone }, { clientReference: input.clientReference, now });
  const borrowerId = borrower.id;
  await db.insertInto('borrowers').values(borrower).execute();
  const tenorDays = Math.min(...tenorMonthsFor(policy, input.treatmentAmount)) * DAYS_PER_MONTH;
  const loan = await insertLoan(
    { db, now, scope, platform: platform as never, actor: 'sdk' },
    {
      borrowerId,
      product,
      amountKobo: input.treatmentAmount,
      tenorDays,
      interestRateBps: 0,
      repaymentFrequency: 'monthly',
      status: 'pending',
      clientReference: input.clientReference,
      metadata: { invoiceReference: input.invoiceReference ?? null, treatment: input.treatment },
    },
  );
  const lifetimeMinutes = platform.settings.FINANCING_APPLICATION_TTL_HOURS * 60;
  const application = await mintApplicationSession(db, {
    secrets: platform.secrets,
    lifetime: { ttlMinutes: lifetimeMinutes, maxLifetimeMinutes: lifetimeMinutes },
    baseUrl: platform.baseUrl,
    loan,
    now,
  });
  await db.updateTable('loans').set(application).where('id', '=', loan.id).execute();

  const row: FinancingApplicationsTable = {
    id: loan.id,
    organisationId: scope.organisationId,
    mode: scope.mode,
    clientReference: input.clientReference,
    requestFingerprint,
    invoiceReference: input.invoiceReference ?? null,
    treatment: input.treatment,
    treatmentAmountKobo: input.treatmentAmount,
    firstName: input.firstName,
    phone,
    status: 'initiated',
    expiresAt: new Date(now.getTime() + lifetimeMinutes * 60_000).toISOString(),
    fullName: null,
    dateOfBirth: null,
    bvnHash: null,
    declaredMonthlyIncomeKobo: null,
    identityOutcome: null,
    bureauOutcome: null,
    riskBand: null,
    decision: null,
    rejectionReason: null,
    submittedAt: null,
    decidedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.insertInto('financingApplications').values(row).execute();
  } catch (error) {
    // A concurrent initiation with this clientReference committed first: this one rolls back whole.
    if (isUniqueViolation(error)) {
      throw new AppError('client_reference_in_use', `An initiation with clientReference ${input.clientReference} was being created at the same moment; retry to read it.`);
    }
    throw error;
  }
  const initiation = toInitiation(row, application, platform.secrets);
  await emitFinancingEvent(db, row, 'loan.initiated', now, sealApplicationUrl(platform.secrets, initiation.applicationUrl));
  return { created: true, initiation };
}

async function replay(ctx: InitiateFinancingContext, existing: FinancingApplicationsTable, requestFingerprint: string): Promise<LoanInitiation> {
  if (existing.requestFingerprint !== requestFingerprint) {
    throw new AppError(
      'client_reference_conflict',
      `clientReference ${existing.clientReference} was already used for another initiation (different fields); use a new clientReference for a new initiation.`,
      undefined,
      { sdkReference: existing.id },
    );
  }
  const loan = await ctx.db.selectFrom('loans').select(['applicationUrl', 'applicationTokenSealed']).where('id', '=', existing.id).executeTakeFirstOrThrow();
  return toInitiation(existing, loan, ctx.platform.secrets);
}
