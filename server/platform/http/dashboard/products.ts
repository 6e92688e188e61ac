import { z } from 'zod';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';
import { getProduct, toProduct } from '../../domain/products/product';
import { deactivateProductFromDashboard, defineProductFromDashboard, editProductFromDashboard } from '../../domain/products/change-product-from-dashboard';

const ListQuery = PageQuery.extend({ status: z.enum(['all', 'active', 'inactive']).default('all') });

/**
 * Loan products: list (active and deactivated), define, edit, deactivate. The body of define is the CLI's
 * `product create` input (`ProductInputSchema`), edit takes some of its fields and validates the result with the same
 * schema (`updateProduct`). Products belong to the organisation, not to a mode: the test and live APIs read the same
 * catalogue (`GET /v1/products`), so these routes ignore the mode beyond its live-enabled check.
 */
export const productsRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/products', async (req, res) => {
    const { session } = await kit.caller(req, 'products.read');
    const query = kit.parse(ListQuery, req.query, 'query');
    const cursor = decodeCursor(query.cursor);
    let select = platform.db.selectFrom('loanProducts').selectAll().where('organisationId', '=', session.organisationId);
    if (query.status !== 'all') select = select.where('isActive', '=', query.status === 'active');
    if (cursor) select = select.where((eb) => eb.or([eb('createdAt', '<', cursor.at), eb.and([eb('createdAt', '=', cursor.at), eb('id', '<', cursor.id)])]));
    const rows = await select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    kit.page(res, 'Products.', pageOf(rows.map(toProduct), query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.get('/products/:id', async (req, res) => {
    const { session } = await kit.caller(req, 'products.read');
    kit.ok(res, 200, 'Product.', await getProduct(platform.db, session.organisationId, String(req.params.id)));
  });

  const actorOf = (caller: Awaited<ReturnType<typeof kit.caller>>) => ({ organisationId: caller.session.organisationId, userId: caller.session.userId, origin: caller.origin });

  router.post('/products', async (req, res) => {
    const caller = await kit.caller(req, 'products.manage');
    const product = await defineProductFromDashboard(platform.db, actorOf(caller), req.body, platform.clock.now());
    // This process's API answers with it at once; other processes within the catalogue's TTL.
    platform.products.invalidate(caller.session.organisationId);
    kit.ok(res, 201, 'Product defined.', product);
  });

  router.patch('/products/:id', async (req, res) => {
    const caller = await kit.caller(req, 'products.manage');
    const product = await editProductFromDashboard(platform.db, actorOf(caller), String(req.params.id), req.body, platform.clock.now());
    platform.products.invalidate(caller.session.organisationId);
    kit.ok(res, 200, 'Product updated.', product);
  });

  router.post('/products/:id/deactivate', async (req, res) => {
    const caller = await kit.caller(req, 'products.manage');
    const product = await deactivateProductFromDashboard(platform.db, actorOf(caller), String(req.params.id), platform.clock.now());
    platform.products.invalidate(caller.session.organisationId);
    kit.ok(res, 200, 'Product deactivated.', product);
  });
};
