import type { DashboardArea } from './kit';

/** Patient-financing applications (clinics). */
export const financingRoutes: DashboardArea = (_router, _kit) => {};
