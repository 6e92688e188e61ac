import { z } from 'zod';
import { createEndpoint, deleteEndpoint, getEndpointRow, listEndpoints, rotateSecret, toEndpoint, updateEndpoint } from '../../domain/webhooks/endpoint';
import { defineRoute } from '../route';
import { webhookAddressPolicy } from '../../../shared/address-policy';
import { IdParams, Timestamp, Uuid } from '../schemas';

const EventNames = z
  .array(z.string().trim().min(1).max(100))
  .max(100)
  .nullable()
  .meta({ description: 'Exact event names; empty or null = every event. No wildcards: `loan.*` subscribes to nothing.' });

const WebhookEndpointSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    url: z.string().meta({ format: 'uri' }),
    description: z.string().nullable(),
    events: z.array(z.string()).nullable(),
    mode: z.enum(['live', 'test']),
    api: z.enum(['lending', 'sdk']).meta({
      description: '`lending` receives the lending API\'s events; `sdk` the patient-financing events (`/api/v1/sdk`), registered with `POST /api/v1/sdk/webhook-endpoints`.',
    }),
    status: z.enum(['active', 'disabled']).meta({ description: '`disabled` by hand (PATCH) or automatically after repeated failures; PATCH `active` re-enables.' }),
    consecutiveFails: z.number().int(),
    lastFailureAt: Timestamp.nullable(),
    lastSuccessAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint', description: 'The signing secret is never serialised after creation (or rotation).' });

const Url = z.url({ protocol: /^https?$/ }).max(512).meta({
  description:
    'https; plain http only for a loopback host on a test-mode endpoint. In every mode an IP-literal host must be a public address ' +
    '(private, loopback, link-local, CGNAT, unique-local, multicast, unspecified, `::/96` and IPv4-mapped private addresses answer 422 `webhook_url_not_allowed`); ' +
    'so does a special-use or internal host name (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.arpa`, `*.invalid`, `*.test`, `*.onion`, `*.alt`, any case, trailing dot or not) ' +
    'and a single-label name. Any other host name is resolved at each delivery and refused there when it resolves to such an address. ' +
    'Loopback (and `localhost`) only when the server runs with `WEBHOOK_ALLOW_LOOPBACK=true` (development).',
});

export const webhookEndpointRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Returns the signing secret (`whsec_` + 32 random bytes) once; it is stored encrypted and never shown again. An endpoint receives only events of its `mode`. ' +
      'Test and live stay apart: a key registers, lists and manages endpoints of its own mode (`mode` defaults to `live` for a live key and to `test` for a test key).',
    access: 'tenant',
    body: z
      .object({
        url: Url,
        description: z.string().max(255).nullable().optional(),
        events: EventNames.optional(),
        mode: z.enum(['live', 'test']).optional().meta({ description: 'The mode of the events it receives; defaults to (and must equal) the mode of the key that registers it.' }),
      })
      .strict(),
    response: {
      status: 201,
      description: 'The endpoint and its signing secret.',
      data: z.object({ endpoint: WebhookEndpointSchema, signingSecret: z.string().meta({ description: 'Shown only here.' }) }),
    },
    errors: ['webhook_url_not_allowed'],
    async handle({ db, auth, body, platform, now }) {
      const created = await createEndpoint(db, platform.secrets, auth, body, now, webhookAddressPolicy(platform.config));
      return { status: 201, message: 'Webhook endpoint registered; store the signing secret now', data: created };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    access: 'tenant',
    response: { status: 200, description: 'Endpoints, oldest first (no secrets).', data: z.array(WebhookEndpointSchema) },
    async handle({ db, auth }) {
      return { message: 'Webhook endpoints retrieved', data: await listEndpoints(db, auth) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'getWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The endpoint.', data: WebhookEndpointSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Webhook endpoint retrieved', data: toEndpoint(await getEndpointRow(db, auth, params.id)) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description: 'Change the URL, description or events, or the status (`active` re-enables a disabled endpoint and resets its failure count).',
    access: 'tenant',
    params: IdParams,
    body: z
      .object({
        url: Url.optional(),
        description: z.string().max(255).nullable().optional(),
        events: EventNames.optional(),
        status: z.enum(['active', 'disabled']).optional(),
      })
      .strict(),
    response: { status: 200, description: 'The endpoint.', data: WebhookEndpointSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'webhook_url_not_allowed'],
    async handle({ db, auth, params, body, now, platform }) {
      const policy = webhookAddressPolicy(platform.config);
      return { message: 'Webhook endpoint updated', data: await updateEndpoint(db, auth, params.id, body, now, policy) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/webhook-endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is delivered to it: deliveries still waiting end as `dead`; past deliveries stay in the event log with `endpointId` null.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The deleted endpoint.', data: WebhookEndpointSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, now }) {
      return { message: 'Webhook endpoint deleted', data: await deleteEndpoint(db, auth, params.id, now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/webhook-endpoints/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Returns a new secret once. For 24 hours deliveries carry both signatures in `X-Service-Signature` (comma-separated), so receivers can switch without losing events.',
    access: 'tenant',
    params: IdParams,
    response: {
      status: 200,
      description: 'The endpoint and its new secret.',
      data: z.object({ endpoint: WebhookEndpointSchema, signingSecret: z.string(), previousSecretExpiresAt: Timestamp }),
    },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, platform, now }) {
      return { message: 'Signing secret rotated; store the new secret now', data: await rotateSecret(db, platform.secrets, auth, params.id, now) };
    },
  }),
];
