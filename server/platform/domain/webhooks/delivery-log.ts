import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { Mode, WebhookDeliveriesTable, WebhookDeliveryStatus } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { MAX_ATTEMPTS } from './retry-schedule';
import type { Scope } from '../scope';

/**
 * The durable delivery log as the API shows it (`/v1/events`, `/api/v1/sdk/events`): one row per
 * (event, endpoint), read and requeued here, written by the dispatcher's steps.
 */

export interface WebhookDelivery {
  id: string;
  organisationId: string;
  endpointId: string | null;
  /** The id receivers de-duplicate on: the event's id, the same for every endpoint, retry and redelivery. */
  eventId: string;
  event: string;
  mode: Mode;
  targetUrl: string;
  payload: unknown;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toDelivery(row: WebhookDeliveriesTable, payload: unknown): WebhookDelivery {
  return {
    id: row.id,
    organisationId: row.organisationId,
    endpointId: row.endpointId,
    eventId: row.eventId,
    event: row.event,
    mode: row.mode,
    targetUrl: row.targetUrl,
    payload: fromJson(payload),
    status: row.status,
    attemptCount: row.attemptCount,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: row.nextAttemptAt,
    deliveredAt: row.deliveredAt,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface DeliveryFilter {
  limit: number;
  /** Which API's events: `lending` (the `/v1/events` log, the default) or `sdk` (`/api/v1/sdk/events`). */
  api?: 'lending' | 'sdk';
  status?: WebhookDeliveryStatus;
  event?: string;
  endpointId?: string;
}

function deliveriesWithPayload(db: Executor, scope: Scope, api: 'lending' | 'sdk' = 'lending') {
  return db
    .selectFrom('webhookDeliveries as d')
    .innerJoin('events as e', 'e.id', 'd.eventId')
    .selectAll('d')
    .select('e.payload as payload')
    .where('d.organisationId', '=', scope.organisationId)
    .where('d.mode', '=', scope.mode)
    .where('e.api', '=', api);
}

/** The delivery log of the key's organisation and mode, newest first. */
export async function listDeliveries(db: Executor, scope: Scope, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
  const rows = await deliveriesWithPayload(db, scope, filter.api)
    .$if(filter.status !== undefined, (q) => q.where('d.status', '=', filter.status!))
    .$if(filter.event !== undefined, (q) => q.where('d.event', '=', filter.event!))
    .$if(filter.endpointId !== undefined, (q) => q.where('d.endpointId', '=', filter.endpointId!))
    .orderBy('d.id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.map(({ payload, ...row }) => toDelivery(row, payload));
}

export async function getDelivery(db: Executor, scope: Scope, id: string, api: 'lending' | 'sdk' = 'lending'): Promise<WebhookDelivery> {
  const row = await deliveriesWithPayload(db, scope, api).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('webhook delivery');
  const { payload, ...delivery } = row;
  return toDelivery(delivery, payload);
}

/**
 * Requeues a delivery to its endpoint as configured now, with the event body first sent and a
 * fresh allowance of attempts (the attempt count keeps rising, so each attempt keeps a unique
 * number). Refused while an attempt is in flight, and when the endpoint is gone or disabled.
 */
export async function redeliver(db: Executor, scope: Scope, id: string, now: Date, api: 'lending' | 'sdk' = 'lending'): Promise<WebhookDelivery> {
  const current = await getDelivery(db, scope, id, api);
  if (current.status === 'delivering') throw new AppError('delivery_in_flight', 'An attempt of this delivery is in flight; read it again in a few seconds.');
  const endpoint = current.endpointId
    ? await db.selectFrom('webhookEndpoints').select(['url', 'status']).where('id', '=', current.endpointId).executeTakeFirst()
    : undefined;
  if (!endpoint) throw new AppError('webhook_endpoint_unavailable', 'The endpoint of this delivery was deleted; register an endpoint to receive new events.');
  if (endpoint.status !== 'active') {
    throw new AppError('webhook_endpoint_unavailable', 'The endpoint of this delivery is disabled; re-enable it (PATCH status "active") and redeliver.');
  }
  const at = now.toISOString();
  const updated = await db
    .updateTable('webhookDeliveries')
    .set({
      status: 'pending',
      targetUrl: endpoint.url,
      maxAttempts: current.attemptCount + MAX_ATTEMPTS,
      nextAttemptAt: at,
      deliveredAt: null,
      responseStatus: null,
      lastError: null,
      updatedAt: at,
    })
    .where('id', '=', id)
    .where('status', '!=', 'delivering')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError('delivery_in_flight', 'An attempt of this delivery is in flight; read it again in a few seconds.');
  return getDelivery(db, scope, id, api);
}
