import { z } from 'zod';
import { FINANCING_STATUSES } from '../../domain/financing/financing-application';
import { dashboardFinancing, listDashboardFinancing } from '../../domain/financing/dashboard-financing';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const ListQuery = PageQuery.extend({ status: z.enum(FINANCING_STATUSES).optional(), reference: z.string().trim().max(200).optional() });
const Id = z.object({ id: z.string().min(1).max(64) });

/**
 * Patient-financing applications (clinics): the organisation's, in the caller's mode, newest first, keyset-paged;
 * filter `status`, search `reference` (exact: sdkReference, clientReference or invoiceReference); an application's
 * details with its status history (docs/dashboard/financing.md).
 */
export const financingRoutes: DashboardArea = (router, kit) => {
  router.get('/financing', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'financing.read');
    const query = kit.parse(ListQuery, req.query, 'query');
    const rows = await listDashboardFinancing(kit.platform.db, { organisationId: session.organisationId, mode }, {
      status: query.status,
      reference: query.reference || undefined,
      after: decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    kit.page(res, 'Financing applications.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.sdkReference })));
  });

  router.get('/financing/:id', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'financing.read');
    const { id } = kit.parse(Id, req.params, 'query');
    kit.ok(res, 200, 'Financing application.', await dashboardFinancing(kit.platform.db, { organisationId: session.organisationId, mode }, id));
  });
};
