export type DashboardRole = 'owner' | 'admin' | 'developer' | 'analyst';

/**
 * The dashboard's permission matrix (issue 18): what each role may do, checked on the server for
 * every dashboard route (a hidden button is not the check; the app reads it here only to hide what would be refused). Read actions end in `.read`.
 *
 * | action | owner | admin | developer | analyst |
 * |---|---|---|---|---|
 * | `audit.read`, `team.read`, `team.manage` | ✓ | ✓ | | |
 * | `keys.read`, `keys.manage`, `webhooks.manage`, `checkout.manage` | ✓ | ✓ | ✓ | |
 * | `products.manage`, `pool.fund`, `loans.act` | ✓ | ✓ | | |
 * | `products.read`, `pool.read`, `loans.read`, `webhooks.read`, `checkout.read`, `settlements.read`, `usage.read`, `appointments.read`, `financing.read` | ✓ | ✓ | ✓ | ✓ |
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
  'settlements.read',
  'usage.read',
  'appointments.read',
  'financing.read',
] as const;

export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const READS: DashboardAction[] = ['products.read', 'pool.read', 'loans.read', 'webhooks.read', 'checkout.read', 'settlements.read', 'usage.read', 'appointments.read', 'financing.read'];

export const PERMISSIONS: Record<DashboardRole, ReadonlySet<DashboardAction>> = {
  owner: new Set(DASHBOARD_ACTIONS),
  admin: new Set(DASHBOARD_ACTIONS),
  developer: new Set<DashboardAction>([...READS, 'keys.read', 'keys.manage', 'webhooks.manage', 'checkout.manage']),
  analyst: new Set<DashboardAction>(READS),
};

export const can = (role: DashboardRole, action: DashboardAction): boolean => PERMISSIONS[role].has(action);

