import type { Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { CheckoutPayout } from '../../../shared/checkout-contract';

export type { CheckoutPayout };

/**
 * What the done screen says about the money, and only what the platform knows: where disbursement
 * pays it (the loan's settlement destination, frozen from its product) and whether the lender has
 * released it (`releasedAt`, the disbursement). The platform never disburses an ordinary loan by itself —
 * the lender does, when it chooses — so there is no promised time before that. `bank_account`: the
 * borrower's payable, which the lender pays out to a bank account (not necessarily the one the
 * repayments come from, so none is named); `merchant`: the merchant's wallet, credited at disbursement.
 */
export async function payoutFacts(db: Executor, loan: Pick<LoansTable, 'settlementDestination' | 'settlementProviderId' | 'preapprovalId' | 'disbursedAt'>): Promise<CheckoutPayout> {
  const to = DESTINATIONS[loan.settlementDestination] ?? 'lender';
  let merchantName: string | null = null;
  if (to === 'merchant') {
    const pushed = !loan.settlementProviderId && loan.preapprovalId ? await db.selectFrom('preapprovals').select('providerOrgId').where('id', '=', loan.preapprovalId).executeTakeFirst() : undefined;
    const providerId = loan.settlementProviderId ?? pushed?.providerOrgId;
    if (providerId) merchantName = (await db.selectFrom('providers').select('name').where('id', '=', providerId).executeTakeFirst())?.name ?? null;
  }
  return { to, merchantName, releasedAt: loan.disbursedAt };
}

const DESTINATIONS: Record<string, CheckoutPayout['to']> = {
  borrower_bank_account: 'bank_account',
  borrower_wallet: 'wallet',
  merchant_wallet: 'merchant',
  tenant_wallet: 'lender',
};
