import type { Executor } from '../../db/database';
import type { LoanProductsTable } from '../../db/schema';
import { SERVICE_APPROVAL_MODE } from '../products/product';
import type { CreditPolicy } from './credit-policy';
import { DAYS_PER_MONTH } from './credit-policy';
import { newOrganisationRow } from '../organisations/organisation';

/**
 * The service as lender. Patient-financing loans are the partner's records (its organisation id, its tenancy, its
 * webhooks) but the money is the service's: the principal comes out of the lender organisation's `FINANCING`
 * capital pool, which only the operator funds (`admin pool fund --org <FINANCING_LENDER_ID> --pool FINANCING`).
 * The lender organisation has no API keys and no Loan Tenant permission: nobody reaches it over the API.
 * It and its one product are created on first use (fixed ids, insert-if-absent, safe under races).
 */
export const FINANCING_LENDER_ID = '0f1a0000-0000-4000-8000-000000000001';
export const FINANCING_PRODUCT_ID = '0f1a0000-0000-4000-8000-000000000002';
export const FINANCING_POOL_CODE = 'FINANCING';

export function isFinancingLoan(loan: { loanProductId: string }): boolean {
  return loan.loanProductId === FINANCING_PRODUCT_ID;
}

function productRow(policy: CreditPolicy, at: string): LoanProductsTable {
  const maxMonths = Math.max(...policy.amountBands.flatMap((b) => b.tenorMonths));
  return {
    id: FINANCING_PRODUCT_ID,
    organisationId: FINANCING_LENDER_ID,
    code: 'PATIENT_FINANCING',
    name: 'Patient financing',
    description: 'The service lends to patients of partner clinics, pharmacies and labs; the principal settles to the partner.',
    currency: 'NGN',
    isActive: true,
    kycTier: 'managed',
    // The lending API's approve, reject and disburse refuse its loans: the service decides and disburses them.
    approvalMode: SERVICE_APPROVAL_MODE,
    interestModel: policy.interestModel,
    rateDisplay: 'annual',
    nameMismatchPolicy: 'allow',
    earlySettlementInterest: 'to_date',
    earlySettlementFeeBps: 0,
    remindersEnabled: true,
    reminderLeadDays: 3,
    interestRateBps: 0,
    lateFeeBps: policy.lateFeeBps,
    processingFeeBps: policy.processingFeeBps,
    processingFeeFlatKobo: 0,
    minAmountKobo: policy.minAmountKobo,
    maxAmountKobo: policy.maxAmountKobo,
    minTenorDays: DAYS_PER_MONTH,
    maxTenorDays: maxMonths * DAYS_PER_MONTH,
    repaymentFrequency: 'monthly',
    insuranceMode: 'off',
    insurancePremiumBearer: 'borrower',
    insurancePremiumBps: 0,
    settlementDestination: 'tenant_wallet',
    settlementCatalogEnabled: false,
    capitalPoolCode: FINANCING_POOL_CODE,
    recoveryEnabled: false,
    recoveryPolicyId: null,
    recoveryDefaultAfterDaysOverdue: null,
    guarantorsRequired: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Makes sure the lender organisation and its product exist, and returns the product. The product's terms
 * follow the configured policy; the terms each loan was priced with are frozen in its pricing snapshot.
 */
export async function ensureFinancingLender(db: Executor, policy: CreditPolicy, now: Date): Promise<LoanProductsTable> {
  const existing = await db.selectFrom('loanProducts').selectAll().where('id', '=', FINANCING_PRODUCT_ID).executeTakeFirst();
  if (existing) return existing;
  const at = now.toISOString();
  await db
    .insertInto('organisations')
    .values(
      newOrganisationRow({
        id: FINANCING_LENDER_ID,
        name: 'Patient financing (the service as lender)',
        loanTenant: false,
        preapprovedLending: false,
        preapprovalsEnabled: false,
        preapprovalTtlSeconds: 0,
        now,
      }),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = productRow(policy, at);
  await db.insertInto('loanProducts').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
  return (await db.selectFrom('loanProducts').selectAll().where('id', '=', FINANCING_PRODUCT_ID).executeTakeFirst()) ?? row;
}
