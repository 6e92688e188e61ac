import type { RouteSpec } from '../route';
import { catalogueRoutes } from './catalogue';
import { preapprovalRoutes } from './preapprovals';

/** Every public route; the OpenAPI document is generated from this same list. */
export const apiRoutes: RouteSpec[] = [...catalogueRoutes, ...preapprovalRoutes];
