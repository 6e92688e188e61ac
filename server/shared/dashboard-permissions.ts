/** Every role a member can hold, in the order the team page offers them. */
export const DASHBOARD_ROLES = ['owner', 'admin', 'developer', 'analyst', 'compliance'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/**
 * The dashboard's permission matrix: what each role may do, checked on the server for
 * every dashboard route (a hidden button is not the check; the app reads it here only to hide what would be refused). Read actions end in `.read`.
 *
 * | action | owner | admin | developer | analyst | compliance |
 * |---|---|---|---|---|---|
 * | `team.read`, `team.manage` | ✓ | ✓ | | | |
 * | `audit.read` | ✓ | ✓ | | | ✓ |
 * | `reviews.decide` | ✓ | ✓ | | | ✓ |
 * | `keys.read`, `keys.manage`, `webhooks.manage`, `checkout.manage` | ✓ | ✓ | ✓ | | |
 * | `products.manage`, `pool.fund`, `loans.act`, `organisation.manage` | ✓ | ✓ | | | |
 * | `products.read`, `pool.read`, `loans.read`, `reviews.read`, `webhooks.read`, `checkout.read`, `settlements.read`, `usage.read`, `appointments.read`, `financing.read`, `organisation.read` | ✓ | ✓ | ✓ | ✓ | ✓ |
 *
 * A compliance member decides the loans that wait for a person (reviews) and reads the audit log that records those
 * decisions; it moves no money, approves nothing by hand and changes no keys, team, products or pool.
 *
 * Owners and admins differ in what is not an action here: only an owner changes an owner, and the
 * last owner of an organisation cannot be removed.
 */
export const DASHBOARD_ACTIONS = [
  'audit.read',
  'team.read',
  'team.manage',
  'keys.read',
  'keys.manage',
  'webhooks.read',
  'webhooks.manage',
  'checkout.read',
  'checkout.manage',
  'products.read',
  'products.manage',
  'pool.read',
  'pool.fund',
  'loans.read',
  'loans.act',
  'reviews.read',
  'reviews.decide',
  'settlements.read',
  'usage.read',
  'appointments.read',
  'financing.read',
  'organisation.read',
  'organisation.manage',
] as const;

export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const READS: DashboardAction[] = ['products.read', 'pool.read', 'loans.read', 'reviews.read', 'webhooks.read', 'checkout.read', 'settlements.read', 'usage.read', 'appointments.read', 'financing.read', 'organisation.read'];

export const PERMISSIONS: Record<DashboardRole, ReadonlySet<DashboardAction>> = {
  owner: new Set(DASHBOARD_ACTIONS),
  admin: new Set(DASHBOARD_ACTIONS),
  developer: new Set<DashboardAction>([...READS, 'keys.read', 'keys.manage', 'webhooks.manage', 'checkout.manage']),
  analyst: new Set<DashboardAction>(READS),
  compliance: new Set<DashboardAction>([...READS, 'reviews.decide', 'audit.read']),
};

export const can = (role: DashboardRole, action: DashboardAction): boolean => PERMISSIONS[role].has(action);

