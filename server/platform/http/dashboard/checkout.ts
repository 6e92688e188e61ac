import type { DashboardArea } from './kit';

/** Checkout settings: origins, return URL, branding. */
export const checkoutRoutes: DashboardArea = (_router, _kit) => {};
