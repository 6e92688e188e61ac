import type { DashboardArea } from './kit';

/** Loan products: list, define, edit, deactivate. */
export const productsRoutes: DashboardArea = (_router, _kit) => {};
