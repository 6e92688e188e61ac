import type { DashboardArea } from './kit';

/** Capital pool: balance, ledger, funding. */
export const poolRoutes: DashboardArea = (_router, _kit) => {};
