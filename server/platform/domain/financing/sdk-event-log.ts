import type { Executor, Tx } from '../../db/database';
import type { Mode, WebhookDeliveryStatus } from '../../db/schema';
import type { Secrets } from '../secrets';
import { listDeliveries, redeliver, type WebhookDelivery } from '../webhooks/delivery-log';
import { publicSdkData } from './financing-events';
import type { Scope } from '../scope';

export const SDK_DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed', 'dead'] as const satisfies readonly WebhookDeliveryStatus[];


/** A row of `GET /sdk/events`: the durable delivery log, with `data` as the receiver gets it. */
export interface SdkDelivery {
  id: string;
  eventId: string;
  event: string;
  endpointId: string | null;
  targetUrl: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  maxAttempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  data: Record<string, unknown>;
}

function toSdkDelivery(d: WebhookDelivery, secrets: Pick<Secrets, 'decrypt'>): SdkDelivery {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    endpointId: d.endpointId,
    targetUrl: d.targetUrl,
    status: d.status,
    attemptCount: d.attemptCount,
    maxAttempts: d.maxAttempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    data: publicSdkData(d.payload, secrets),
  };
}

export async function listSdkDeliveries(db: Executor, secrets: Pick<Secrets, 'decrypt'>, scope: Scope, limit: number): Promise<SdkDelivery[]> {
  return (await listDeliveries(db, scope, { limit, api: 'sdk' })).map((d) => toSdkDelivery(d, secrets));
}

/** Requeues one of the organisation's patient-financing deliveries (a lending delivery's id answers 404 here). */
export async function redeliverSdk(db: Tx, secrets: Pick<Secrets, 'decrypt'>, scope: Scope, id: string, now: Date): Promise<SdkDelivery> {
  return toSdkDelivery(await redeliver(db, scope, id, now, 'sdk'), secrets);
}
