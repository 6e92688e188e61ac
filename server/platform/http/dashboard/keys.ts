import type { DashboardArea } from './kit';

/** API keys: list, generate, roll with overlap, revoke. */
export const keysRoutes: DashboardArea = (_router, _kit) => {};
