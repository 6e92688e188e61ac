import { AppError } from '../domain/errors';
import type { ApiScope, ApiScopeArea } from '../../shared/api-key-scopes';
import type { AuthContext } from './authenticate';
import type { RouteSpec } from './route';

/**
 * The area of the partner API each path belongs to, by the longest prefix that matches (a sub-resource is listed
 * apart when it is another area: a loan's mandates, a loan's repayments). Where a route does not name one of the
 * areas a key can hold, it goes with the closest:
 * - the provider directory with products (the catalogue a loan is offered from);
 * - borrowers, checkout sessions and the checkout settings with loans (a borrower exists through a loan; a session and
 *   the settings are how a loan's borrower reaches the checkout);
 * - the pool balance with payouts (both are the organisation's money, outside any one loan);
 * - the sandbox's mandate activation with mandates;
 * - patient financing's own event log and webhook endpoints with events and webhooks, its loans with financing.
 */
const AREA_BY_PREFIX: ReadonlyArray<readonly [string, ApiScopeArea]> = [
  ['/v1/products', 'products'],
  ['/v1/providers', 'products'],
  ['/v1/preapprovals', 'preapprovals'],
  ['/v1/loans', 'loans'],
  ['/v1/borrowers', 'loans'],
  ['/v1/reviews', 'reviews'],
  ['/v1/checkout-sessions', 'loans'],
  ['/v1/borrower-sessions', 'loans'],
  ['/v1/checkout-settings', 'loans'],
  ['/v1/loans/{id}/mandates', 'mandates'],
  ['/v1/mandates', 'mandates'],
  ['/v1/test/mandates', 'mandates'],
  ['/v1/loans/{id}/repayments', 'repayments'],
  ['/v1/payouts', 'payouts'],
  ['/v1/pools', 'payouts'],
  ['/v1/settlements', 'settlements'],
  ['/v1/webhook-endpoints', 'webhooks'],
  ['/v1/events', 'events'],
  ['/v1/usage', 'usage'],
  ['/api/v1/sdk/loans', 'financing'],
  ['/api/v1/sdk/events', 'events'],
  ['/api/v1/sdk/webhook-endpoints', 'webhooks'],
  ['/api/v1/appointment', 'appointments'],
];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The scope a route needs: its own `scope` when it declares one, else its area (the table above) and the method —
 * `read` for GET, `write` for anything else. Undefined for the checkout- and borrower-session routes (no API key reaches them) and
 * for a path in no area, which `mountRoutes` refuses to mount.
 */
export function requiredScope(route: Pick<RouteSpec, 'access' | 'method' | 'path' | 'scope'>): ApiScope | undefined {
  if (route.access === 'checkoutSession' || route.access === 'expiredCheckoutSession' || route.access === 'borrowerSession') return undefined;
  if (route.scope) return route.scope;
  let area: ApiScopeArea | undefined;
  let longest = -1;
  for (const [prefix, candidate] of AREA_BY_PREFIX) {
    if (prefix.length > longest && under(route.path, prefix)) {
      area = candidate;
      longest = prefix.length;
    }
  }
  return area && `${area}:${route.method === 'get' ? 'read' : 'write'}`;
}

/**
 * Refuses a restricted key without the route's scope, before anything is read or written (403 `insufficient_scope`,
 * `data.requiredScope`). A set lookup on what authentication already holds: no query.
 */
export function checkScope(needed: ApiScope | undefined, auth: AuthContext): void {
  if (needed === undefined || auth.scopes === undefined || auth.scopes.has(needed)) return;
  throw new AppError('insufficient_scope', `This API key does not have the ${needed} scope this route needs; use a key with it (or a full-access key).`, undefined, {
    requiredScope: needed,
  });
}
