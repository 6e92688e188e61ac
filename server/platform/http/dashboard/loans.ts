import type { DashboardArea } from './kit';

/** Loans and pre-approvals: lists, funnel, a loan's timeline, actions. */
export const loansRoutes: DashboardArea = (_router, _kit) => {};
