import type { DashboardArea } from './kit';

/** Usage: daily requests and errors. */
export const usageRoutes: DashboardArea = (_router, _kit) => {};
