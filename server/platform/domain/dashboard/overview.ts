import type { Executor } from '../../db/database';
import { getCheckoutSettings } from '../checkout/checkout-settings';
import { addKobo } from '../money';
import { getOrganisation } from '../organisations/organisation';
import { poolBalances, type PoolBalance } from '../pools/pool';
import type { Scope } from '../scope';

/** One step of getting started: done or not, computed from the organisation's data, and the page that does it. */
export interface ChecklistItem {
  id: 'email_verified' | 'api_key_created' | 'product_defined' | 'default_product_set' | 'pool_funded' | 'webhook_endpoint_added' | 'checkout_origins_set';
  done: boolean;
  /** The dashboard path that does the step. */
  path: string;
}

export interface DashboardOverview {
  /**
   * `liveRefusal`: why the service's staff last refused live mode, while it is not enabled (null otherwise).
   * `liveProvidersMissing`: what live mode needs that this platform has no live provider for (`rail`, `sms`,
   * `identity`, `bankLookup`): live calls that need one are refused, so "live enabled" alone would mislead.
   */
  organisation: { id: string; name: string; liveEnabled: boolean; liveRefusal: { reason: string; at: string } | null; liveProvidersMissing: string[] };
  mode: Scope['mode'];
  checklist: ChecklistItem[];
  figures: {
    pools: PoolBalance[];
    /** All pools of the mode, in kobo. */
    poolBalanceKobo: number;
    /** Loans created since the first of this month (UTC), in this mode. */
    loansThisMonth: number;
    monthStart: string;
  };
}

const exists = async (query: { executeTakeFirst(): Promise<unknown> }) => (await query.executeTakeFirst()) !== undefined;

/**
 * The home page's overview: the organisation's live status, the getting-started checklist and a few
 * figures for the mode. Reads only; each check is an indexed lookup of one row (`limit 1`), the month's loans one
 * count over `loans_list_idx (organisation_id, mode, created_at)`.
 */
export async function dashboardOverview(db: Executor, scope: Scope, options: { userId: string; now: Date; liveProvidersMissing: string[] }): Promise<DashboardOverview> {
  const { organisationId, mode } = scope;
  const organisation = await getOrganisation(db, organisationId);
  const refusal = organisation.liveEnabled
    ? undefined
    : await db.selectFrom('organisations').select(['liveRefusalReason', 'liveRefusedAt']).where('id', '=', organisationId).executeTakeFirst();
  const user = await db.selectFrom('dashboardUsers').select('emailVerifiedAt').where('id', '=', options.userId).executeTakeFirst();
  const keyCreated = await exists(
    db.selectFrom('apiKeys').select('id').where('organisationId', '=', organisationId).where('mode', '=', mode).where('revokedAt', 'is', null).limit(1),
  );
  const productDefined = await exists(db.selectFrom('loanProducts').select('id').where('organisationId', '=', organisationId).limit(1));
  const endpointAdded = await exists(
    db.selectFrom('webhookEndpoints').select('id').where('organisationId', '=', organisationId).where('mode', '=', mode).limit(1),
  );
  const settings = await getCheckoutSettings(db, scope);
  const pools = await poolBalances(db, organisationId, mode);
  const now = options.now;
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const { count } = await db
    .selectFrom('loans')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('organisationId', '=', organisationId)
    .where('mode', '=', mode)
    .where('createdAt', '>=', monthStart)
    .executeTakeFirstOrThrow();
  return {
    organisation: {
      id: organisation.id,
      name: organisation.name,
      liveEnabled: organisation.liveEnabled,
      liveRefusal: refusal?.liveRefusalReason && refusal.liveRefusedAt ? { reason: refusal.liveRefusalReason, at: refusal.liveRefusedAt } : null,
      liveProvidersMissing: options.liveProvidersMissing,
    },
    mode,
    checklist: [
      { id: 'email_verified', done: Boolean(user?.emailVerifiedAt), path: '/account' },
      { id: 'api_key_created', done: keyCreated, path: '/keys' },
      { id: 'product_defined', done: productDefined, path: '/products' },
      // What the README's quick start needs before `issue-offer` with `{}` answers an offer.
      { id: 'default_product_set', done: organisation.defaultPreapprovalProductId !== null, path: '/settings' },
      { id: 'pool_funded', done: pools.some((p) => p.balanceKobo > 0), path: '/pool' },
      { id: 'webhook_endpoint_added', done: endpointAdded, path: '/webhooks' },
      { id: 'checkout_origins_set', done: settings.allowedOrigins.length > 0, path: '/checkout' },
    ],
    figures: { pools, poolBalanceKobo: pools.reduce((sum, p) => addKobo(sum, p.balanceKobo), 0), loansThisMonth: Number(count), monthStart },
  };
}
