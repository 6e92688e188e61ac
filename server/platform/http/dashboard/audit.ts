import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

/** Audit log: every dashboard action of the organisation, newest first, keyset-paged; append-only (no route changes it). */
export const auditRoutes: DashboardArea = (router, kit) => {
  router.get('/audit-log', async (req, res) => {
    const { session } = await kit.caller(req, 'audit.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const cursor = decodeCursor(query.cursor);
    let select = kit.platform.db
      .selectFrom('dashboardAuditLog')
      .select(['id', 'userId', 'action', 'target', 'ip', 'userAgent', 'at'])
      .where('organisationId', '=', session.organisationId);
    if (cursor) select = select.where((eb) => eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]));
    const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    kit.page(res, 'Audit log.', pageOf(rows, query.limit, (row) => ({ at: row.at, id: row.id })));
  });
};
