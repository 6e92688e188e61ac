import type { DashboardArea } from './kit';

/** Telemedicine appointments (clinics). */
export const appointmentsRoutes: DashboardArea = (_router, _kit) => {};
