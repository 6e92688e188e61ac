import { z } from 'zod';
import { AppError } from '../../domain/errors';
import { normaliseEmail } from '../../domain/dashboard/secret-token';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A UTC day (`2026-11-27`) or an instant (ISO 8601 with a zone). */
const When = z
  .string()
  .max(40)
  .refine((value) => (DAY.test(value) || /T.*(Z|[+-]\d{2}:?\d{2})$/.test(value)) && !Number.isNaN(Date.parse(value)), 'a day (YYYY-MM-DD) or an ISO 8601 instant');

const AuditQuery = PageQuery.extend({
  action: z.string().regex(/^[a-z_]{1,60}$/, 'an action name such as key_created').optional(),
  userId: z.string().min(1).max(64).optional(),
  email: z.string().trim().min(3).max(254).optional(),
  from: When.optional(),
  to: When.optional(),
});

/**
 * Audit log: every dashboard action of the organisation, newest first, keyset-paged; append-only (no route changes it).
 * Filters (all optional, combined with AND): `action`, `userId` or `email` (who did it), `from` (inclusive) and `to`
 * (a day is inclusive of that whole UTC day; an instant is exclusive). Rows carry the actor's e-mail. Not split by
 * mode: the log is the organisation's, whatever the test/live switch says.
 */
export const auditRoutes: DashboardArea = (router, kit) => {
  router.get('/audit-log', async (req, res) => {
    const { session } = await kit.caller(req, 'audit.read');
    const query = kit.parse(AuditQuery, req.query, 'query');
    const cursor = decodeCursor(query.cursor);
    const from = query.from && new Date(query.from).toISOString();
    const to = query.to && (DAY.test(query.to) ? new Date(Date.parse(query.to) + 86_400_000) : new Date(query.to)).toISOString();
    if (from && to && from >= to) throw new AppError('invalid_request', 'query.to: must be after query.from');
    let select = kit.platform.db
      .selectFrom('dashboardAuditLog as a')
      .leftJoin('dashboardUsers as u', 'u.id', 'a.userId')
      .select(['a.id', 'a.userId', 'u.email', 'a.action', 'a.target', 'a.ip', 'a.userAgent', 'a.at'])
      .where('a.organisationId', '=', session.organisationId);
    if (query.action) select = select.where('a.action', '=', query.action);
    if (query.userId) select = select.where('a.userId', '=', query.userId);
    if (query.email) select = select.where('u.email', '=', normaliseEmail(query.email));
    if (from) select = select.where('a.at', '>=', from);
    if (to) select = select.where('a.at', '<', to);
    if (cursor) select = select.where((eb) => eb.or([eb('a.at', '<', cursor.at), eb.and([eb('a.at', '=', cursor.at), eb('a.id', '<', cursor.id)])]));
    const rows = await select.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(query.limit + 1).execute();
    kit.page(res, 'Audit log.', pageOf(rows, query.limit, (row) => ({ at: row.at, id: row.id })));
  });
};
