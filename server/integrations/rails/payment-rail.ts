/**
 * The payment-rail port is the domain's (`server/platform/domain/ports.ts`); re-exported here for
 * the rail adapters. Adapters raise `PaymentRailError` (./payment-rail-error.ts) when the provider
 * refuses a request or cannot be reached; nothing else escapes them.
 */
export type { RailName, ProviderAuthorisationStatus, ProviderChargeStatus, InitialiseAuthorisationRequest, ChargeRequest, PaymentRail } from '../../platform/domain/ports';
