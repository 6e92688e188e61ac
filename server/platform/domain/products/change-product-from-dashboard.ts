import type { Db } from '../../db/database';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { createProduct, getProduct, updateProduct, type LoanProduct } from './product';

/** A signed-in dashboard user changing their organisation's products; the audit row names them. */
export interface ProductActor {
  organisationId: string;
  userId: string;
  origin: RequestOrigin;
}

/**
 * The dashboard's product changes: the CLI's `createProduct` / `updateProduct` (one schema, one set of rules), each
 * with its audit row (`product_created`, `product_updated`, `product_deactivated`) in the same transaction.
 */
export function defineProductFromDashboard(db: Db, actor: ProductActor, input: unknown, now: Date): Promise<LoanProduct> {
  return inUnitOfWork(db, async (tx) => {
    const created = await createProduct(tx, { organisationId: actor.organisationId, input, now });
    await writeAudit(tx, { ...actor, action: 'product_created', target: `${created.id} ${created.code}`, now });
    return created;
  });
}

export function editProductFromDashboard(db: Db, actor: ProductActor, id: string, changes: unknown, now: Date): Promise<LoanProduct> {
  return inUnitOfWork(db, async (tx) => {
    const { after } = await updateProduct(tx, { organisationId: actor.organisationId, id, changes, now });
    await writeAudit(tx, { ...actor, action: 'product_updated', target: `${after.id} ${after.code}`, now });
    return after;
  });
}

/** Deactivating an inactive product changes nothing and writes no audit row. */
export function deactivateProductFromDashboard(db: Db, actor: ProductActor, id: string, now: Date): Promise<LoanProduct> {
  return inUnitOfWork(db, async (tx) => {
    const current = await getProduct(tx, actor.organisationId, id);
    if (!current.isActive) return current;
    const { after } = await updateProduct(tx, { organisationId: actor.organisationId, id: current.id, changes: { isActive: false }, now });
    await writeAudit(tx, { ...actor, action: 'product_deactivated', target: `${after.id} ${after.code}`, now });
    return after;
  });
}
