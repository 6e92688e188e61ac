import { z } from 'zod';
import type { DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';
import { poolBalances } from '../../domain/pools/pool';
import { fundFromDashboard } from '../../domain/pools/fund-from-dashboard';
import { listFundingNotices } from '../../domain/pools/funding-notice';
import { poolMovements } from '../../domain/pools/pool-movements';
import { POOL_CODE } from '../../domain/products/product';

const PoolCode = z.string().regex(POOL_CODE, 'letters, digits, _ and -, at most 50');
const MovementsQuery = PageQuery.extend({ pool: PoolCode.optional() });
const FundBody = z
  .object({
    pool: PoolCode,
    /** Integer kobo: the form converts the typed naira exactly. */
    amountKobo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** How many funding notices the page shows (newest first). */
const NOTICES_SHOWN = 20;

/**
 * Capital pool: balances, ledger movements (keyset-paged), funding. Test mode funds at once; live mode records a
 * funding notice with a bank-transfer reference that an operator confirms (`admin pool confirm-funding`), see
 * `domain/pools/fund-from-dashboard.ts` and `confirm-pool-funding.ts`. Everything is the session's organisation in the request's mode.
 */
export const poolRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/pool', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'pool.read');
    const scope = { organisationId: session.organisationId, mode };
    const [pools, notices] = await Promise.all([
      poolBalances(platform.db, session.organisationId, mode),
      listFundingNotices(platform.db, scope, NOTICES_SHOWN),
    ]);
    // The pool codes the organisation's products lend from, so the page can offer them before a first funding.
    const productPools = await platform.db
      .selectFrom('loanProducts')
      .select('capitalPoolCode')
      .distinct()
      .where('organisationId', '=', session.organisationId)
      .where('capitalPoolCode', 'is not', null)
      .orderBy('capitalPoolCode')
      .execute();
    kit.ok(res, 200, 'Capital pool.', { mode, pools, notices, productPoolCodes: productPools.map((p) => p.capitalPoolCode) });
  });

  router.get('/pool/movements', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'pool.read');
    const query = kit.parse(MovementsQuery, req.query, 'query');
    const rows = await poolMovements(platform.db, { organisationId: session.organisationId, mode }, { code: query.pool, after: decodeCursor(query.cursor), limit: query.limit });
    kit.page(res, 'Pool movements.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/pool/fund', async (req, res) => {
    const { session, mode, origin } = await kit.caller(req, 'pool.fund');
    const body = kit.parse(FundBody, req.body);
    const result = await fundFromDashboard(platform.db, {
      organisationId: session.organisationId,
      mode,
      code: body.pool,
      amountKobo: body.amountKobo,
      actor: { userId: session.userId, origin },
      now: platform.clock.now(),
    });
    if (result.kind === 'funded') kit.ok(res, 200, 'Pool funded.', result);
    else kit.ok(res, 202, `Transfer the amount quoting ${result.notice.reference}; the pool is credited once we confirm it arrived.`, result);
  });
};
