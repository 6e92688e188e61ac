import { can, type DashboardAction, type DashboardRole } from './dashboard-permissions';

/**
 * What an API key may call, per resource area of the partner API (as Stripe's restricted keys). A key holds either
 * every scope (full access: `scopes` null, the default and what every key made before restrictions has) or a list of
 * `<area>:read` / `<area>:write`; `write` includes `read`. Reads are the GET routes of an area, writes every other
 * method. Which area each route belongs to is `http/route-scopes.ts`; the areas here are the only ones a key can name.
 *
 * Both halves of a pair carry the same scopes: the public key only names the key and is never a credential alone.
 */
export const API_SCOPE_AREAS = [
  'products',
  'preapprovals',
  'loans',
  'reviews',
  'mandates',
  'repayments',
  'payouts',
  'settlements',
  'webhooks',
  'events',
  'usage',
  'financing',
  'appointments',
] as const;
export type ApiScopeArea = (typeof API_SCOPE_AREAS)[number];
export type ApiScopeLevel = 'read' | 'write';
export type ApiScope = `${ApiScopeArea}:${ApiScopeLevel}`;

export const API_SCOPES: readonly ApiScope[] = API_SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as const);

export const isApiScope = (value: string): value is ApiScope => (API_SCOPES as readonly string[]).includes(value);

/** What each area covers, for people choosing scopes (the dashboard) and for the API document. */
export const API_SCOPE_AREA_LABELS: Record<ApiScopeArea, string> = {
  products: 'Products and the provider directory',
  preapprovals: 'Pre-approvals (pushed decisions, issuing offers)',
  loans: 'Loans, borrowers, checkout sessions and settings',
  reviews: 'Reviews (loans waiting for a person, and deciding them)',
  mandates: 'Direct-debit mandates',
  repayments: 'Repayments',
  payouts: 'Payouts and the capital pool balance',
  settlements: 'Settlements',
  webhooks: 'Webhook endpoints',
  events: 'Events and redelivery',
  usage: 'API usage',
  financing: 'Patient financing',
  appointments: 'Appointments',
};

/**
 * The dashboard action a member's role must hold to grant each scope (`POST /dashboard/api/keys`): a key never reaches
 * further than the dashboard would let its maker act. Reads need the area's `.read`; writes need the action that does
 * the same on the dashboard — `loans.act` for everything that moves a loan or a patient's record (loans, pre-approvals,
 * mandates, repayments, financing, appointments), `pool.fund` for money leaving or entering the organisation's books
 * (payouts, settlements), `reviews.decide` for deciding reviews, `products.manage`, `webhooks.manage` (endpoints and event
 * redelivery). `usage` has no write
 * operation: its write level grants no more than its read and needs the same.
 */
export const SCOPE_PERMISSION: Record<ApiScope, DashboardAction> = {
  'products:read': 'products.read',
  'products:write': 'products.manage',
  'preapprovals:read': 'loans.read',
  'preapprovals:write': 'loans.act',
  'loans:read': 'loans.read',
  'loans:write': 'loans.act',
  'reviews:read': 'reviews.read',
  'reviews:write': 'reviews.decide',
  'mandates:read': 'loans.read',
  'mandates:write': 'loans.act',
  'repayments:read': 'loans.read',
  'repayments:write': 'loans.act',
  'payouts:read': 'pool.read',
  'payouts:write': 'pool.fund',
  'settlements:read': 'settlements.read',
  'settlements:write': 'pool.fund',
  'webhooks:read': 'webhooks.read',
  'webhooks:write': 'webhooks.manage',
  'events:read': 'webhooks.read',
  'events:write': 'webhooks.manage',
  'usage:read': 'usage.read',
  'usage:write': 'usage.read',
  'financing:read': 'financing.read',
  'financing:write': 'loans.act',
  'appointments:read': 'appointments.read',
  'appointments:write': 'loans.act',
};

/**
 * A key's scopes as stored: sorted, without duplicates, and without an area's `read` when its `write` is there (write
 * includes read), so two keys with the same reach store the same list.
 */
export function normaliseScopes(scopes: readonly ApiScope[]): ApiScope[] {
  const set = new Set(scopes);
  return [...set].filter((scope) => !(scope.endsWith(':read') && set.has(scope.replace(/:read$/, ':write') as ApiScope))).sort();
}

/** Every scope a list reaches (each `write` adding its `read`): the set the hot path looks a route's scope up in. */
export function reachOf(scopes: readonly ApiScope[]): ReadonlySet<ApiScope> {
  const reach = new Set<ApiScope>(scopes);
  for (const scope of scopes) if (scope.endsWith(':write')) reach.add(scope.replace(/:write$/, ':read') as ApiScope);
  return reach;
}

/** Whether a key with `scopes` (null: full access) may call a route that needs `needed`. */
export const scopesReach = (scopes: readonly ApiScope[] | null, needed: ApiScope): boolean => scopes === null || reachOf(scopes).has(needed);

/**
 * The scopes of `requested` (null: full access, which is every scope) that `role` may not put on a key; empty when it
 * may. An owner or admin may grant every scope, so full access too; a developer only reads, webhooks and events; a
 * compliance member reads and `reviews:write`.
 */
export function scopesBeyondRole(role: DashboardRole, requested: readonly ApiScope[] | null): ApiScope[] {
  return (requested ?? API_SCOPES).filter((scope) => !can(role, SCOPE_PERMISSION[scope]));
}
