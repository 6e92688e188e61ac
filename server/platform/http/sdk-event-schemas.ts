import { z } from 'zod';
import type { SdkEventName } from '../domain/financing/financing-events';
import { SDK_EVENT_CATALOGUE } from '../domain/financing/sdk-catalogue';
import { Timestamp } from './schemas';

/** The patient-financing webhook envelope; each event's `data` is in the domain's `events/sdk-catalogue.ts`. */
export const SdkWebhookEnvelopeSchema = z
  .object({
    event: z.enum(Object.keys(SDK_EVENT_CATALOGUE) as [SdkEventName, ...SdkEventName[]]),
    timestamp: Timestamp.meta({ description: 'When this attempt was sent (ISO 8601).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'See the `SdkEvent…` schemas.' }),
  })
  .meta({ id: 'SdkWebhookEnvelope', description: 'The JSON body of every patient-financing webhook POST.' });
