import type { DashboardAction } from '../server/shared/dashboard-permissions';

/**
 * Every page of the signed-in dashboard: its path, its nav entry, what the role needs to see it (the server refuses
 * anyway; hiding only spares a refusal), and its chunk, loaded on first visit. A path segment `:name` is a parameter,
 * given to the page element as the attribute `name` (`/loans/:id` → `<dash-loan-page id="…">`).
 */
export interface PageEntry {
  path: string;
  tag: string;
  title: string;
  /** In the navigation, under this group; absent: reached by a link only (a loan's page). */
  nav?: 'Developers' | 'Lending' | 'Clinics' | 'Organisation';
  /** Absent: every signed-in member (their own account). */
  permission?: DashboardAction;
  load: () => Promise<unknown>;
}

export const PAGES: PageEntry[] = [
  { path: '/', tag: 'dash-home-page', title: 'Home', permission: 'products.read', load: () => import('./pages/home-page') },
  { path: '/keys', tag: 'dash-keys-page', title: 'API keys', nav: 'Developers', permission: 'keys.read', load: () => import('./pages/keys-page') },
  { path: '/webhooks', tag: 'dash-webhooks-page', title: 'Webhooks', nav: 'Developers', permission: 'webhooks.read', load: () => import('./pages/webhooks-page') },
  { path: '/checkout', tag: 'dash-checkout-page', title: 'Checkout', nav: 'Developers', permission: 'checkout.read', load: () => import('./pages/checkout-page') },
  { path: '/usage', tag: 'dash-usage-page', title: 'Usage', nav: 'Developers', permission: 'usage.read', load: () => import('./pages/usage-page') },
  { path: '/products', tag: 'dash-products-page', title: 'Products', nav: 'Lending', permission: 'products.read', load: () => import('./pages/products-page') },
  { path: '/pool', tag: 'dash-pool-page', title: 'Capital pool', nav: 'Lending', permission: 'pool.read', load: () => import('./pages/pool-page') },
  { path: '/loans', tag: 'dash-loans-page', title: 'Loans', nav: 'Lending', permission: 'loans.read', load: () => import('./pages/loans-page') },
  { path: '/loans/:id', tag: 'dash-loan-page', title: 'Loan', permission: 'loans.read', load: () => import('./pages/loan-page') },
  { path: '/reviews', tag: 'dash-reviews-page', title: 'Reviews', nav: 'Lending', permission: 'reviews.read', load: () => import('./pages/reviews-page') },
  { path: '/preapprovals', tag: 'dash-preapprovals-page', title: 'Pre-approvals', nav: 'Lending', permission: 'loans.read', load: () => import('./pages/preapprovals-page') },
  { path: '/settlements', tag: 'dash-settlements-page', title: 'Settlements', nav: 'Lending', permission: 'settlements.read', load: () => import('./pages/settlements-page') },
  { path: '/appointments', tag: 'dash-appointments-page', title: 'Appointments', nav: 'Clinics', permission: 'appointments.read', load: () => import('./pages/appointments-page') },
  { path: '/financing', tag: 'dash-financing-page', title: 'Financing applications', nav: 'Clinics', permission: 'financing.read', load: () => import('./pages/financing-page') },
  { path: '/settings', tag: 'dash-settings-page', title: 'Organisation settings', nav: 'Organisation', permission: 'organisation.read', load: () => import('./pages/settings-page') },
  { path: '/team', tag: 'dash-team-page', title: 'Team', nav: 'Organisation', permission: 'team.read', load: () => import('./pages/team-page') },
  { path: '/account', tag: 'dash-account-settings-page', title: 'Your account', load: () => import('./pages/account-settings-page') },
  { path: '/audit-log', tag: 'dash-audit-page', title: 'Audit log', nav: 'Organisation', permission: 'audit.read', load: () => import('./pages/audit-page') },
];

/** The page a path shows and its parameters, or undefined (404). */
export function matchPage(path: string): { page: PageEntry; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  for (const page of PAGES) {
    const pattern = page.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (pattern.every((segment, i) => (segment.startsWith(':') ? ((params[segment.slice(1)] = decodeURIComponent(parts[i]!)), true) : segment === parts[i]))) {
      return { page, params };
    }
  }
  return undefined;
}
