import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';
import { getStatement, toStatement } from '../../domain/settlements/settlement';
import { writeStatementsCsv } from '../../domain/settlements/statements-csv';
import { writeAudit } from '../../domain/dashboard/audit';

/**
 * Settlements: the statements of the organisation in the request's mode, newest first (keyset-paged), one with its
 * lines, and all of them as CSV (`GET /settlements.csv?mode=…`, a plain link: the mode rides in the query).
 */
export const settlementsRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/settlements', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'settlements.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const cursor = decodeCursor(query.cursor);
    let select = platform.db.selectFrom('settlementStatements').selectAll().where('organisationId', '=', session.organisationId).where('mode', '=', mode);
    if (cursor) select = select.where((eb) => eb.or([eb('createdAt', '<', cursor.at), eb.and([eb('createdAt', '=', cursor.at), eb('id', '<', cursor.id)])]));
    const rows = await select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    // The list carries how many loans each statement covers, not the lines (the statement's own route has them).
    const statements = rows.map(toStatement).map(({ lines, ...rest }) => ({ ...rest, loans: lines?.length ?? 0 }));
    kit.page(res, 'Settlement statements.', pageOf(statements, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.get('/settlements.csv', async (req, res) => {
    const { session, mode, origin } = await kit.caller(req, 'settlements.read');
    const now = platform.clock.now();
    // Recorded before the file is sent: an export that fails half-way was still asked for.
    await writeAudit(platform.db, { userId: session.userId, organisationId: session.organisationId, action: 'settlements_exported', target: mode, origin, now });
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="settlements-${mode}-${now.toISOString().slice(0, 10)}.csv"`);
    res.setHeader('cache-control', 'no-store');
    await writeStatementsCsv(platform.db, { organisationId: session.organisationId, mode }, (chunk) => void res.write(chunk));
    res.end();
  });

  router.get('/settlements/:id', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'settlements.read');
    kit.ok(res, 200, 'Settlement statement.', await getStatement(platform.db, { organisationId: session.organisationId, mode }, String(req.params.id)));
  });
};
