import type { DashboardArea } from './kit';

/** Team: members, invitations, roles, organisation choice. */
export const teamRoutes: DashboardArea = (_router, _kit) => {};
