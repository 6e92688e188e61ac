export { LendingClient, createLendingClient, type CallInit, type CallOptions, type LendingClientOptions, type ListPath, type PathsWith, type ResponseBody } from './client.js';
export { LendingApiError, LendingConnectionError, parseRetryAfterMs } from './errors.js';
export { DEFAULT_RETRY, backoffDelayMs, isRepeatable, isRetryableStatus, type RetryOptions } from './retry.js';
export type { PageItem } from './paginate.js';
export {
  WebhookVerificationError,
  signFinancingWebhook,
  signLendingWebhook,
  verifyFinancingWebhook,
  verifyLendingWebhook,
  type FinancingWebhookEnvelope,
  type LendingWebhookEnvelope,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhooks.js';
export type { components, operations, paths } from './schema.js';
