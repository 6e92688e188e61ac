import type { DashboardArea } from './kit';

/** Webhook endpoints (lending and patient financing): CRUD, secret, delivery log, redeliver, test event. */
export const webhooksRoutes: DashboardArea = (_router, _kit) => {};
