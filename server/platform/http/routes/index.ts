import type { RouteSpec } from '../route';
import { catalogueRoutes } from './catalogue';
import { preapprovalRoutes } from './preapprovals';
import { loanRoutes } from './loans';
import { settlementRoutes } from './settlements';
import { mandateRoutes } from './mandates';
import { webhookEndpointRoutes } from './webhook-endpoints';
import { eventRoutes } from './events';
import { payoutRoutes } from './payouts';
import { checkoutRoutes } from './checkout';
import { checkoutSessionRoutes } from './checkout-sessions';
import { appointmentRoutes } from './appointments';
import { checkoutSettingsRoutes } from './checkout-settings';
import { financingRoutes } from './financing';
import { financingCheckoutRoutes } from './financing-checkout';
import { reviewRoutes } from './reviews';
import { borrowerSessionRoutes } from './borrower-sessions';
import { borrowerRoutes } from './borrower';

/** Every public route; the OpenAPI document is generated from this same list. */
export const apiRoutes: RouteSpec[] = [...catalogueRoutes, ...preapprovalRoutes, ...loanRoutes, ...reviewRoutes, ...settlementRoutes, ...mandateRoutes, ...payoutRoutes, ...webhookEndpointRoutes, ...eventRoutes, ...checkoutSessionRoutes, ...checkoutRoutes, ...appointmentRoutes, ...checkoutSettingsRoutes, ...financingRoutes, ...financingCheckoutRoutes, ...borrowerSessionRoutes, ...borrowerRoutes];
