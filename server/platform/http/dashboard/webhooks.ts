import { z } from 'zod';
import {
  addEndpoint,
  editEndpoint,
  listDeliveryAttempts,
  listEndpointDeliveries,
  listEndpointsPage,
  redeliverDelivery,
  removeEndpoint,
  rotateEndpointSecret,
  sendTestEvent,
  subscribableEvents,
  type WebhookActor,
  type WebhookDeps,
} from '../../domain/webhooks/dashboard-webhooks';
import { getEndpointRow, toEndpoint } from '../../domain/webhooks/endpoint';
import type { DashboardCaller, DashboardArea } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';
import { webhookAddressPolicy } from '../../../shared/address-policy';

const Api = z.enum(['lending', 'sdk']);
/** The same URL rule as the partner API (`routes/webhook-endpoints.ts`); the address policy is applied by the domain. */
const Url = z.url({ protocol: /^https?$/ }).max(512);
const Events = z.array(z.string().trim().min(1).max(100)).max(100).nullable();
const Description = z.string().trim().max(255).nullable();

const CreateBody = z.object({ api: Api.default('lending'), url: Url, description: Description.optional(), events: Events.optional() }).strict();
const UpdateBody = z
  .object({ url: Url.optional(), description: Description.optional(), events: Events.optional(), status: z.enum(['active', 'disabled']).optional() })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'nothing to change' });
const ListQuery = PageQuery.extend({ api: Api.default('lending') });

/**
 * Webhook endpoints of both APIs (lending and patient financing): add, edit, enable/disable, delete, rotate the
 * signing secret (shown once), the delivery log per endpoint with each attempt's request and response, redeliver,
 * send a test event. Reads need `webhooks.read`, changes `webhooks.manage`; everything is scoped to the session's
 * organisation and the request's mode (another's id answers 404). See docs/dashboard/webhooks.md.
 */
export const webhooksRoutes: DashboardArea = (router, kit) => {
  const actor = (caller: DashboardCaller): WebhookActor => ({
    organisationId: caller.session.organisationId,
    mode: caller.mode,
    userId: caller.session.userId,
    origin: caller.origin,
  });
  const deps = (): WebhookDeps => ({
    db: kit.platform.db,
    secrets: kit.platform.secrets,
    policy: webhookAddressPolicy(kit.platform.config),
    now: kit.platform.clock.now(),
  });
  // Any other string is simply not one of the organisation's ids: the domain answers 404.
  const id = (value: string | string[] | undefined) => String(value);

  router.get('/webhooks/event-types', async (req, res) => {
    await kit.caller(req, 'webhooks.read');
    kit.ok(res, 200, 'Event types an endpoint can subscribe to.', { lending: subscribableEvents('lending'), sdk: subscribableEvents('sdk') });
  });

  router.get('/webhooks/endpoints', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.read');
    const query = kit.parse(ListQuery, req.query, 'query');
    const rows = await listEndpointsPage(kit.platform.db, actor(caller), query.api, { limit: query.limit, after: decodeCursor(query.cursor) });
    kit.page(res, 'Webhook endpoints.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/webhooks/endpoints', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    const body = kit.parse(CreateBody, req.body);
    const created = await addEndpoint(deps(), actor(caller), body);
    const message = created.signingSecret ? 'Endpoint added; copy the signing secret now: it is not shown again.' : 'Endpoint added; deliveries are signed with your API secret key.';
    kit.ok(res, 201, message, created);
  });

  router.get('/webhooks/endpoints/:id', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.read');
    kit.ok(res, 200, 'Webhook endpoint.', toEndpoint(await getEndpointRow(kit.platform.db, actor(caller), id(req.params.id))));
  });

  router.patch('/webhooks/endpoints/:id', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    const body = kit.parse(UpdateBody, req.body);
    kit.ok(res, 200, 'Endpoint updated.', await editEndpoint(deps(), actor(caller), id(req.params.id), body));
  });

  router.delete('/webhooks/endpoints/:id', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    kit.ok(res, 200, 'Endpoint deleted; its past deliveries stay in the event log.', await removeEndpoint(deps(), actor(caller), id(req.params.id)));
  });

  router.post('/webhooks/endpoints/:id/rotate-secret', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    const rotated = await rotateEndpointSecret(deps(), actor(caller), id(req.params.id));
    kit.ok(res, 200, 'New signing secret; copy it now: it is not shown again. The previous one keeps signing for 24 hours.', rotated);
  });

  router.post('/webhooks/endpoints/:id/test', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    kit.ok(res, 202, 'Test event queued; it appears in the delivery log.', await sendTestEvent(deps(), actor(caller), id(req.params.id)));
  });

  router.get('/webhooks/endpoints/:id/deliveries', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await listEndpointDeliveries(kit.platform.db, actor(caller), id(req.params.id), { limit: query.limit, after: decodeCursor(query.cursor) });
    kit.page(res, 'Deliveries, newest first.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.get('/webhooks/deliveries/:id/attempts', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const { attempts } = await listDeliveryAttempts(kit.platform.db, actor(caller), id(req.params.id), { limit: query.limit, after: decodeCursor(query.cursor) });
    kit.page(res, 'Attempts, newest first.', pageOf(attempts, query.limit, (row) => ({ at: row.at, id: row.id })));
  });

  router.post('/webhooks/deliveries/:id/redeliver', async (req, res) => {
    const caller = await kit.caller(req, 'webhooks.manage');
    kit.ok(res, 202, 'Delivery requeued for a new attempt.', await redeliverDelivery(deps(), actor(caller), id(req.params.id)));
  });
};

