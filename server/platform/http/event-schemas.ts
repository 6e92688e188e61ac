import { z } from 'zod';
import { Timestamp } from './schemas';
import { EVENT_NAMES, type EventName } from '../domain/events/catalogue';

/**
 * The webhook contract's HTTP side: the envelope every delivery carries. Each event's `data` schema is in the
 * domain's catalogue (`domain/events/catalogue.ts`), which the API document publishes.
 */
export const WebhookEnvelopeSchema = z
  .object({
    id: z.string().meta({ description: 'The event id: the same for every endpoint, retry and redelivery. De-duplicate on it.' }),
    event: z.enum(EVENT_NAMES as [EventName, ...EventName[]]),
    timestamp: Timestamp.meta({ description: 'When this attempt was signed (the same instant as `X-Service-Timestamp`).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The event\'s data object; see the `Event…` schemas.' }),
    mode: z.enum(['live', 'test']),
    createdAt: Timestamp.meta({ description: 'When the event happened (its outbox row committed).' }),
  })
  .meta({ id: 'WebhookEnvelope', description: 'The JSON body of every webhook POST.' });

/** The Markdown the API document carries about delivery; kept beside the schemas it describes. */
export const WEBHOOK_DELIVERY_DESCRIPTION = `
Events are written to an outbox in the same transaction as the change they report, then delivered to every active
endpoint of the event's organisation and mode whose \`events\` list names the event exactly (empty or null = all; no
wildcards: \`loan.*\` subscribes to nothing). Delivery is at least once; order is not guaranteed.

**Request.** \`POST\` with the JSON body \`WebhookEnvelope\` and the headers \`X-Service-Signature\` (lowercase hex
HMAC-SHA256 of \`timestamp + "." + rawBody\` keyed with the endpoint's signing secret; during the 24 hours after a secret
rotation, two signatures separated by a comma, either of which verifies), \`X-Service-Timestamp\` (Unix seconds),
\`X-Service-Event-Id\` (stable: de-duplicate on it), \`X-Service-Delivery-Id\` and \`X-Service-Delivery-Attempt\`. Verify over
the raw body, in constant time, and refuse timestamps more than five minutes away.

**Outcome** (the platform's defaults). Any 2xx within 10 seconds is success; redirects are not followed. Anything else is retried after 5 s,
30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, 16 h and 24 h (± 20 % jitter): \`maxAttempts\` is 13, the last about
2.8 days after the first, then the delivery is \`dead\`. A 429 or 503 with \`Retry-After\` waits what it asks (at least 1 s,
at most 24 h). A 410 disables the endpoint at once. An endpoint whose attempts fail 10 times in a row over at least 24
hours is disabled and the organisation's notification address is e-mailed; deliveries waiting for a disabled or deleted
endpoint end as \`dead\` and can be replayed after re-enabling it (\`POST /v1/events/{id}/redeliver\`).

**Live endpoints** must be https and may not resolve to private, loopback, link-local or other non-public addresses
(checked on the address actually connected to). Test-mode endpoints may use plain http to a loopback host.

**Events.** ${EVENT_NAMES.map((name) => `\`${name}\``).join(', ')}; each one's \`data\` is documented as a schema named
\`Event…\` (for example \`EventLoanApproved\`).
`.trim();
