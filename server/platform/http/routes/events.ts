import { z } from 'zod';
import { getDelivery, listDeliveries, redeliver } from '../../domain/webhooks/delivery-log';
import { EVENT_NAMES } from '../../domain/events/catalogue';
import { defineRoute } from '../route';
import { IdParams, limitParam, Timestamp, Uuid } from '../schemas';

const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed', 'dead'] as const;

const WebhookDeliverySchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    endpointId: Uuid.nullable().meta({ description: 'Null once the endpoint is deleted.' }),
    eventId: z.string().meta({ description: 'The event id, sent as `id` in the body and as `X-Service-Event-Id`; the same for every endpoint, retry and redelivery.' }),
    event: z.string(),
    mode: z.enum(['live', 'test']).meta({ description: 'The mode of the event.' }),
    targetUrl: z.string().meta({ format: 'uri', description: 'Where the last attempt went (the endpoint\'s URL at that time).' }),
    payload: z.looseObject({}).meta({ additionalProperties: true, description: 'The event\'s data object (see the `Event…` schemas); the signed envelope is rebuilt at send time.' }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        '`pending` (waiting for its first attempt), `delivering` (an attempt is in flight), `succeeded` (a 2xx), `failed` (the last attempt failed; ' +
        '`nextAttemptAt` says when the next one goes), `dead` (attempts used up, 410, or the endpoint disabled or deleted: no more attempts unless redelivered).',
    }),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int().meta({ description: '13 by default; a redelivery grants a fresh allowance on top of the attempts made.' }),
    nextAttemptAt: Timestamp.nullable().meta({ description: 'When due; while `delivering`, when the in-flight attempt\'s lease expires. Null once final.' }),
    deliveredAt: Timestamp.nullable(),
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'WebhookDelivery', description: 'A durable delivery log row: one per (event, endpoint).' });

export const eventRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: 'Webhooks',
    summary: 'List webhook deliveries (the event log)',
    description: 'Newest first, for the key\'s organisation and mode.',
    access: 'tenant',
    query: z
      .object({
        limit: limitParam(100),
        status: z.enum(DELIVERY_STATUSES).optional(),
        event: z.enum(EVENT_NAMES as [string, ...string[]]).optional(),
        endpointId: Uuid.optional(),
      })
      .strict(),
    response: { status: 200, description: 'Deliveries, newest first.', data: z.array(WebhookDeliverySchema) },
    async handle({ db, auth, query }) {
      return { message: 'Events retrieved', data: await listDeliveries(db, auth, query) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/events/{id}',
    operationId: 'getEvent',
    tag: 'Webhooks',
    summary: 'Get one webhook delivery',
    description: 'One delivery of an event to one endpoint, with its attempts and status.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The delivery.', data: WebhookDeliverySchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Event retrieved', data: await getDelivery(db, auth, params.id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/events/{id}/redeliver',
    operationId: 'redeliverEvent',
    tag: 'Webhooks',
    summary: 'Redeliver a webhook delivery',
    description:
      'Requeues the delivery to its endpoint as configured now (current URL and secret), with the body and event name first sent: ' +
      'a replayed event may describe a loan that has moved on, so key handlers on the loan and make them repeatable. The delivery becomes ' +
      '`pending` with a fresh allowance of attempts. Refused with 409 `delivery_in_flight` while an attempt is in flight, and with 409 ' +
      '`webhook_endpoint_unavailable` when its endpoint was deleted or is disabled (re-enable it first).',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The requeued delivery.', data: WebhookDeliverySchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'delivery_in_flight', 'webhook_endpoint_unavailable'],
    async handle({ db, auth, params, now }) {
      return { message: 'Delivery requeued', data: await redeliver(db, auth, params.id, now) };
    },
  }),
];
