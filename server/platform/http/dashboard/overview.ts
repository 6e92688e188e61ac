import type { DashboardArea } from './kit';

/** The home page's overview: what is set up, what to do next. */
export const overviewRoutes: DashboardArea = (_router, _kit) => {};
