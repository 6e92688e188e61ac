import type { LoanInsurancePoliciesTable, LoansTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { checkpoint, writeBehind } from '../../db/precompiled';
import { ensureAccount, newAccount, postTransaction } from '../ledger/ledger';
import { roundHalfEvenDiv } from '../pricing/rounding';
import { getLoanRow, invalidState } from './loan';
import type { LoanContext } from './loan-context';
import { loadSnapshot, type PricingSnapshot } from './pricing-snapshot';

export interface LoanInsurancePolicy {
  id: string;
  organisationId: string;
  loanId: string;
  provider: string;
  status: 'pending' | 'active' | 'failed';
  triggeredBy: 'automatic' | 'manual';
  premiumBearer: 'borrower' | 'tenant';
  premiumKobo: number;
  commissionKobo: number;
  policyReference: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the policy became `active`: at once for an insurer that answers, when staff record it for cover bound by hand. */
  activatedAt: string | null;
}

export function toPolicy(row: LoanInsurancePoliciesTable): LoanInsurancePolicy {
  return {
    id: row.id,
    organisationId: row.organisationId,
    loanId: row.loanId,
    provider: row.provider,
    status: row.status as LoanInsurancePolicy['status'],
    triggeredBy: row.triggeredBy as LoanInsurancePolicy['triggeredBy'],
    premiumBearer: row.premiumBearer as LoanInsurancePolicy['premiumBearer'],
    premiumKobo: row.premiumKobo,
    commissionKobo: row.commissionKobo,
    policyReference: row.policyReference,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    activatedAt: row.activatedAt,
  };
}

/**
 * Buys the cover through the insurer port and books it: the premium is owed by the borrower
 * (recovered through the loan's fees) or charged to the organisation (tenant-borne); the insurer
 * is owed the premium less the platform's commission. A `pending` policy (cover bound by hand, live:
 * `StaffRecordedInsurer`) is booked the same way at once: the premium is owed to the insurer from
 * disbursement, whether or not staff have recorded the policy yet (`ops/insurance-policies.ts`).
 */
export async function insureLoan(
  ctx: LoanContext,
  loan: LoansTable,
  triggeredBy: 'automatic' | 'manual',
  snapshot: PricingSnapshot,
): Promise<LoanInsurancePolicy> {
  // Live mode without an insurance provider: 503 before anything is recorded (the caller's transaction rolls back).
  const provider = ctx.platform.insurer.for(loan.mode);
  const premium = snapshot.priced.insurancePremiumKobo;
  const bearer = snapshot.terms.insurancePremiumBearer;
  const commission = Number(roundHalfEvenDiv(BigInt(premium) * BigInt(ctx.platform.settings.INSURANCE_COMMISSION_BPS), 10_000n));
  // Nothing is asked of the insurer for a change already refused (a check travelling with the commit: `checkpoint`).
  await checkpoint(ctx.db);
  const result = await provider.issuePolicy({ loanId: loan.id, premiumKobo: premium, principalKobo: loan.principalKobo, tenorDays: loan.tenorDays, mode: loan.mode });
  const at = ctx.now.toISOString();
  const row: LoanInsurancePoliciesTable = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    provider: provider.name,
    status: result.status,
    triggeredBy,
    premiumBearer: bearer,
    premiumKobo: premium,
    commissionKobo: commission,
    policyReference: result.policyReference,
    errorMessage: result.errorMessage,
    createdAt: at,
    updatedAt: at,
    documentKey: null,
    documentBytes: null,
    documentSha256: null,
    activatedAt: result.status === 'active' ? at : null,
  };
  await insertPolicy(ctx.db, row);
  if (result.status !== 'failed' && premium > 0) {
    const owner = { organisationId: loan.organisationId, mode: loan.mode };
    const payer =
      bearer === 'tenant'
        ? await ensureAccount(ctx.db, { ...owner, kind: 'organisation_wallet', code: loan.organisationId }, ctx.now)
        : newAccount({ ...owner, kind: 'insurance_receivable', code: loan.id }, ctx.now);
    const insurer = await ensureAccount(ctx.db, { ...owner, kind: 'insurance_payable', code: provider.name }, ctx.now);
    const revenue = await ensureAccount(ctx.db, { ...owner, kind: 'platform_revenue', code: 'insurance_commission' }, ctx.now);
    await postTransaction(ctx.db, {
      ...owner,
      reference: `insurance-${row.id}`,
      kind: 'insurance_premium',
      description: `${bearer}-borne premium for loan ${loan.id}`,
      postings: [
        { account: payer, amountKobo: premium },
        { account: insurer, amountKobo: -(premium - commission) },
        ...(commission > 0 ? [{ account: revenue, amountKobo: -commission }] : []),
      ].filter((p) => p.amountKobo !== 0),
      now: ctx.now,
    });
  }
  return toPolicy(row);
}

const insertPolicy = writeBehind((db, row: LoanInsurancePoliciesTable) => db.insertInto('loanInsurancePolicies').values(row));

export async function getInsurance(ctx: Pick<LoanContext, 'db' | 'scope'>, loanId: string): Promise<LoanInsurancePolicy> {
  await getLoanRow(ctx.db, ctx.scope, loanId);
  const row = await ctx.db.selectFrom('loanInsurancePolicies').selectAll().where('loanId', '=', loanId).executeTakeFirst();
  if (!row) throw notFound('insurance policy');
  return toPolicy(row);
}

/** Manual-mode products: the tenant triggers the cover once the loan is disbursed. Idempotent. */
export async function triggerInsurance(ctx: LoanContext, loanId: string): Promise<{ policy: LoanInsurancePolicy; created: boolean }> {
  const loan = await getLoanRow(ctx.db, ctx.scope, loanId);
  const existing = await ctx.db.selectFrom('loanInsurancePolicies').selectAll().where('loanId', '=', loanId).executeTakeFirst();
  if (existing) return { policy: toPolicy(existing), created: false };
  const snapshot = loan.pricingSnapshotId ? await loadSnapshot(ctx.db, loan.pricingSnapshotId) : undefined;
  if (!snapshot || snapshot.terms.insuranceMode !== 'manual') {
    throw new AppError('product_not_usable', 'Insurance is triggered by hand only for loans of manual-insurance products.');
  }
  if (!['disbursed', 'active'].includes(loan.status)) throw invalidState(loan.status, 'insured');
  return { policy: await insureLoan(ctx, loan, 'manual', snapshot), created: true };
}
