import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { LoansTable, ProvidersTable } from '../../db/schema';
import { AppError } from '../errors';
import type { LoanStatus } from '../loans/loan';
import { DISBURSED_STATES, FROM } from '../loans/transitions';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from './checkout-session';

export type { SettlementMerchant, SettlementMerchantChoice, SettlementMerchantPage } from '../../../shared/checkout-contract';
import type { SettlementMerchant, SettlementMerchantChoice, SettlementMerchantPage } from '../../../shared/checkout-contract';

const toMerchant = (row: Pick<ProvidersTable, 'id' | 'name' | 'providerType' | 'address' | 'city' | 'state'>): SettlementMerchant => ({
  id: row.id,
  name: row.name,
  providerType: row.providerType,
  address: row.address,
  city: row.city,
  state: row.state,
});

const MERCHANT_COLUMNS = ['id', 'name', 'providerType', 'address', 'city', 'state'] as const;

const likePattern = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether the loan has a `catalog` step: a `merchant_wallet` loan whose product has `settlementCatalogEnabled`. */
export async function settlementCatalogOffered(db: Executor, loanId: string): Promise<boolean> {
  const row = await db
    .selectFrom('loans')
    .innerJoin('loanProducts', 'loanProducts.id', 'loans.loanProductId')
    .select(['loans.settlementDestination', 'loanProducts.settlementCatalogEnabled'])
    .where('loans.id', '=', loanId)
    .executeTakeFirstOrThrow();
  return row.settlementDestination === 'merchant_wallet' && Boolean(row.settlementCatalogEnabled);
}

async function requireCatalog(db: Executor, scope: CheckoutScope): Promise<void> {
  requireOtpVerified(await getSessionRow(db, scope));
  if (!(await settlementCatalogOffered(db, scope.loanId))) {
    throw new AppError('settlement_catalog_not_offered', 'This loan pays a fixed destination: there is no merchant to choose.');
  }
}

/**
 * Active providers of the directory the borrower can pick, by name (ties by id, so pages are
 * stable). `q` matches part of the name, city, state, LGA or address, case-insensitively.
 */
export async function listSettlementMerchants(db: Executor, scope: CheckoutScope, query: { q?: string; page: number; limit: number }): Promise<SettlementMerchantPage> {
  await requireCatalog(db, scope);
  let base = db.selectFrom('providers').where('isActive', '=', true);
  if (query.q) {
    const pattern = likePattern(query.q);
    base = base.where((eb) =>
      eb.or(['name', 'city', 'state', 'local_government', 'address'].map((column) => sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`)),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select([...MERCHANT_COLUMNS])
    .orderBy('name', 'asc')
    .orderBy('id', 'asc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const count = Number(total);
  return {
    merchants: rows.map(toMerchant),
    pagination: { total: count, page: query.page, limit: query.limit, totalPages: Math.ceil(count / query.limit), hasNext: query.page * query.limit < count },
  };
}

/** The merchant recorded on the loan, if any. */
export async function chosenSettlementMerchant(db: Executor, loan: Pick<LoansTable, 'settlementProviderId' | 'settlementProviderChosenAt'>): Promise<SettlementMerchantChoice | null> {
  if (!loan.settlementProviderId || !loan.settlementProviderChosenAt) return null;
  const row = await db.selectFrom('providers').select([...MERCHANT_COLUMNS]).where('id', '=', loan.settlementProviderId).executeTakeFirstOrThrow();
  return { merchant: toMerchant(row), chosenAt: loan.settlementProviderChosenAt };
}

/**
 * The borrower picks the merchant that receives the funds. Choosing the recorded merchant again
 * changes nothing (same answer); another one replaces it, until the loan is disbursed (409
 * afterwards, and for closed loans). The UPDATE is conditional on the loan's status, so a choice
 * racing a disbursement either lands before it (and is what disbursement pays) or fails.
 */
export async function chooseSettlementMerchant(db: Executor, scope: CheckoutScope, providerId: string, now: Date): Promise<SettlementMerchantChoice> {
  await requireCatalog(db, scope);
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  const from: readonly LoanStatus[] = FROM.chooseSettlementMerchant;
  if (!from.includes(loan.status as LoanStatus)) {
    throw new AppError(
      'invalid_loan_state',
      DISBURSED_STATES.includes(loan.status as LoanStatus)
        ? 'The loan has been disbursed: the merchant can no longer be changed.'
        : `The loan is ${loan.status}: there is no merchant to choose.`,
    );
  }
  const provider = await db.selectFrom('providers').select([...MERCHANT_COLUMNS]).where('id', '=', providerId).where('isActive', '=', true).executeTakeFirst();
  if (!provider) throw new AppError('provider_not_found', 'providerId is not an active merchant of the directory: pick one from the list.');
  const recorded = await chosenSettlementMerchant(db, loan);
  if (recorded?.merchant.id === providerId) return recorded;
  const at = now.toISOString();
  const moved = await db
    .updateTable('loans')
    .set({ settlementProviderId: providerId, settlementProviderChosenAt: at, updatedAt: at })
    .where('id', '=', loan.id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('invalid_loan_state', 'The loan changed meanwhile (it may have been disbursed): re-read the checkout state.');
  return { merchant: toMerchant(provider), chosenAt: at };
}

/** Completing checkout (signing through the session) needs the merchant chosen when the loan has a catalog. */
export async function requireSettlementMerchant(db: Executor, loan: Pick<LoansTable, 'id' | 'settlementProviderId'>): Promise<void> {
  if (loan.settlementProviderId || !(await settlementCatalogOffered(db, loan.id))) return;
  throw new AppError('checkout_step_required', 'Choose the merchant that receives the funds first: POST /v1/checkout/merchant.');
}
