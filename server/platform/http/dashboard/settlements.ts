import type { DashboardArea } from './kit';

/** Settlements: list, CSV. */
export const settlementsRoutes: DashboardArea = (_router, _kit) => {};
