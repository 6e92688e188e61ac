import type { RouteSpec } from '../route';
import { catalogueRoutes } from './catalogue';

/** Every public route; the OpenAPI document is generated from this same list. */
export const apiRoutes: RouteSpec[] = [...catalogueRoutes];
