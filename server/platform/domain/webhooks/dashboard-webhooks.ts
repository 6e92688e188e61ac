import type { Db, Executor, Tx } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { WebhookDeliveriesTable } from '../../db/schema';
import { writeAudit, type AuditAction, type RequestOrigin } from '../dashboard/audit';
import { EVENT_NAMES, TEST_EVENT } from '../events/catalogue';
import { markOutboxWritten } from '../events/outbox-signal';
import { SDK_EVENT_NAMES } from '../financing/financing-events';
import { AppError, notFound } from '../errors';
import { findOwned } from '../find-owned';
import { newOrderedId } from '../ids';
import type { Scope } from '../scope';
import type { Secrets } from '../secrets';
import { inUnitOfWork } from '../unit-of-work';
import { redeliver, toDelivery, type WebhookDelivery } from './delivery-log';
import { createEndpoint, deleteEndpoint, getEndpointRow, rotateSecret, toEndpoint, updateEndpoint, type WebhookEndpoint } from './endpoint';
import { MAX_ATTEMPTS } from './retry-schedule';
import type { AddressPolicy } from './webhook-target';

/**
 * The dashboard's webhooks page: the partner API's endpoint use cases (`endpoint.ts`, `delivery-log.ts`),
 * each with its audit row in the same transaction, plus what only the dashboard does — the delivery log per endpoint
 * with every attempt's request and response (`webhook_delivery_attempts`), and "send a test event".
 *
 * Endpoints are of one of two APIs: `lending` (the lending envelope, signed with the endpoint's own secret, shown once
 * at creation and at each rotation) and `sdk` (the patient-financing envelope of spec B, signed with the organisation's
 * API secret key: such an endpoint has no secret of its own to show or rotate).
 */

export type WebhookApi = 'lending' | 'sdk';

/** Who acts: from the dashboard session (organisation, user) and the request (mode, origin). */
export interface WebhookActor extends Scope {
  userId: string;
  origin: RequestOrigin;
}

export interface WebhookDeps {
  db: Db;
  secrets: Secrets;
  policy: AddressPolicy;
  now: Date;
}

/** The event names an endpoint of this API may subscribe to (the test event is sent on request, whatever the filter). */
export function subscribableEvents(api: WebhookApi): string[] {
  const names: readonly string[] = api === 'sdk' ? SDK_EVENT_NAMES : EVENT_NAMES;
  return names.filter((name) => name !== TEST_EVENT);
}

function checkEvents(api: WebhookApi, events: string[] | null | undefined): void {
  if (!events) return;
  const known = new Set(subscribableEvents(api));
  const unknown = events.find((name) => !known.has(name));
  if (unknown !== undefined) throw new AppError('invalid_request', `body.events: ${JSON.stringify(unknown)} is not an event of the ${api === 'sdk' ? 'patient-financing' : 'lending'} API`);
}

async function audited<T>(deps: WebhookDeps, actor: WebhookActor, action: AuditAction, work: (tx: Tx) => Promise<{ result: T; target: string }>): Promise<T> {
  return inUnitOfWork(deps.db, async (tx) => {
    const { result, target } = await work(tx);
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.organisationId, action, target, origin: actor.origin, now: deps.now });
    return result;
  });
}

const scopeOf = (actor: WebhookActor): Scope => ({ organisationId: actor.organisationId, mode: actor.mode });

/** Adds an endpoint; a lending endpoint's signing secret is answered here once (null for `sdk`: the API secret key signs). */
export async function addEndpoint(
  deps: WebhookDeps,
  actor: WebhookActor,
  input: { api: WebhookApi; url: string; description?: string | null; events?: string[] | null },
): Promise<{ endpoint: WebhookEndpoint; signingSecret: string | null }> {
  checkEvents(input.api, input.events);
  return audited(deps, actor, 'webhook_endpoint_created', async (tx) => {
    const created = await createEndpoint(tx, deps.secrets, scopeOf(actor), { ...input, mode: actor.mode }, deps.now, deps.policy);
    return {
      result: { endpoint: created.endpoint, signingSecret: input.api === 'sdk' ? null : created.signingSecret },
      target: `webhook_endpoint:${created.endpoint.id}`,
    };
  });
}

export async function editEndpoint(
  deps: WebhookDeps,
  actor: WebhookActor,
  id: string,
  changes: { url?: string; description?: string | null; events?: string[] | null; status?: 'active' | 'disabled' },
): Promise<WebhookEndpoint> {
  return audited(deps, actor, 'webhook_endpoint_updated', async (tx) => {
    const row = await getEndpointRow(tx, scopeOf(actor), id);
    checkEvents(row.api === 'sdk' ? 'sdk' : 'lending', changes.events);
    const endpoint = await updateEndpoint(tx, scopeOf(actor), id, changes, deps.now, deps.policy);
    const what = Object.keys(changes).filter((key) => changes[key as keyof typeof changes] !== undefined);
    return { result: endpoint, target: `webhook_endpoint:${id} ${what.map((key) => (key === 'status' ? `status=${changes.status}` : key)).join(',')}` };
  });
}

export async function removeEndpoint(deps: WebhookDeps, actor: WebhookActor, id: string): Promise<WebhookEndpoint> {
  return audited(deps, actor, 'webhook_endpoint_deleted', async (tx) => ({
    result: await deleteEndpoint(tx, scopeOf(actor), id, deps.now),
    target: `webhook_endpoint:${id}`,
  }));
}

/**
 * A new signing secret, answered once; the previous one keeps signing beside it for 24 hours (`ROTATION_OVERLAP_MS`:
 * both signatures in `X-Service-Signature`), so a receiver switches without losing events.
 */
export async function rotateEndpointSecret(deps: WebhookDeps, actor: WebhookActor, id: string) {
  return audited(deps, actor, 'webhook_secret_rotated', async (tx) => {
    const row = await getEndpointRow(tx, scopeOf(actor), id);
    if (row.api === 'sdk') {
      throw new AppError('webhook_secret_not_applicable', 'Patient-financing webhooks are signed with your API secret key, as the spec says: roll the key pair on the API keys page instead.');
    }
    return { result: await rotateSecret(tx, deps.secrets, scopeOf(actor), id, deps.now), target: `webhook_endpoint:${id}` };
  });
}

/** A row of the delivery log: one event to one endpoint, with its latest outcome. */
/** A delivery as the dashboard's log lists it: the partner API's record without the payload (each attempt carries the body as sent). */
export type DeliverySummary = Omit<WebhookDelivery, 'organisationId' | 'mode' | 'payload'>;

function toSummary(row: WebhookDeliveriesTable): DeliverySummary {
  const { organisationId: _organisation, mode: _mode, payload: _payload, ...summary } = toDelivery(row, null);
  return summary;
}

/**
 * Sends the `webhook.test` event to one endpoint through the normal engine: an outbox event already fanned out (so no
 * other endpoint gets it) and one pending delivery to this endpoint, claimed, signed, retried and logged like any
 * other. Refused (409 `webhook_endpoint_unavailable`) while the endpoint is disabled.
 */
export async function sendTestEvent(deps: WebhookDeps, actor: WebhookActor, endpointId: string): Promise<DeliverySummary> {
  return audited(deps, actor, 'webhook_test_sent', async (tx) => {
    const endpoint = await getEndpointRow(tx, scopeOf(actor), endpointId);
    if (endpoint.status !== 'active') throw new AppError('webhook_endpoint_unavailable', 'This endpoint is disabled: enable it, then send a test event.');
    const at = deps.now.toISOString();
    const eventId = newOrderedId();
    await tx
      .insertInto('events')
      .values({
        id: eventId,
        organisationId: actor.organisationId,
        mode: actor.mode,
        name: TEST_EVENT,
        payload: toJson({ endpointId, message: 'A test event sent from the dashboard. Nothing happened: answer 2xx and ignore it.' })!,
        createdAt: at,
        fannedOutAt: at,
        api: endpoint.api,
      })
      .execute();
    const delivery: WebhookDeliveriesTable = {
      id: newOrderedId(),
      organisationId: actor.organisationId,
      mode: actor.mode,
      eventId,
      endpointId,
      event: TEST_EVENT,
      targetUrl: endpoint.url,
      status: 'pending',
      attemptCount: 0,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptAt: at,
      deliveredAt: null,
      responseStatus: null,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    };
    await tx.insertInto('webhookDeliveries').values(delivery).execute();
    markOutboxWritten(tx);
    return { result: toSummary(delivery), target: `webhook_delivery:${delivery.id}` };
  });
}

/** Requeues one delivery (of either API) for a new attempt through the engine; see `delivery-log.ts#redeliver`. */
export async function redeliverDelivery(deps: WebhookDeps, actor: WebhookActor, deliveryId: string): Promise<DeliverySummary> {
  return audited(deps, actor, 'webhook_redelivered', async (tx) => {
    const found = await tx
      .selectFrom('webhookDeliveries as d')
      .innerJoin('events as e', 'e.id', 'd.eventId')
      .select('e.api as api')
      .where('d.id', '=', deliveryId)
      .where('d.organisationId', '=', actor.organisationId)
      .where('d.mode', '=', actor.mode)
      .executeTakeFirst();
    if (!found) throw notFound('webhook delivery');
    await redeliver(tx, scopeOf(actor), deliveryId, deps.now, found.api === 'sdk' ? 'sdk' : 'lending');
    markOutboxWritten(tx);
    const row = await tx.selectFrom('webhookDeliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
    return { result: toSummary(row), target: `webhook_delivery:${deliveryId}` };
  });
}

export interface KeysetPage {
  limit: number;
  /** The last row of the previous page (`createdAt` and id). */
  after?: { at: string; id: string };
}

/** The organisation's endpoints of one API and the scope's mode, newest first. */
export async function listEndpointsPage(db: Executor, scope: Scope, api: WebhookApi, page: KeysetPage): Promise<WebhookEndpoint[]> {
  const after = page.after;
  let select = db
    .selectFrom('webhookEndpoints')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('api', '=', api);
  if (after) select = select.where((eb) => eb.or([eb('createdAt', '<', after.at), eb.and([eb('createdAt', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
  return rows.map(toEndpoint);
}

/** The delivery log of one endpoint, newest first (ids are time-ordered: the key is the id). 404 for another's endpoint. */
export async function listEndpointDeliveries(db: Executor, scope: Scope, endpointId: string, page: KeysetPage): Promise<DeliverySummary[]> {
  await getEndpointRow(db, scope, endpointId);
  let select = db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('endpointId', '=', endpointId)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode);
  if (page.after) select = select.where('id', '<', page.after.id);
  const rows = await select.orderBy('id', 'desc').limit(page.limit + 1).execute();
  return rows.map(toSummary);
}

/** One attempt as the dashboard shows it: the request as sent and the answer. */
export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  attempt: number;
  event: string;
  url: string;
  request: { body: string; headers: Record<string, string> } | null;
  response: { status: number | null; body: string | null; durationMs: number | null; error: string | null };
  succeeded: boolean;
  at: string;
}

/** The attempts of one delivery, newest first. 404 for another organisation's (or mode's) delivery. */
export async function listDeliveryAttempts(db: Executor, scope: Scope, deliveryId: string, page: KeysetPage): Promise<{ delivery: DeliverySummary; attempts: DeliveryAttempt[] }> {
  const delivery = await findOwned(db, 'webhookDeliveries', scope, deliveryId, 'webhook delivery');
  let select = db
    .selectFrom('webhookDeliveryAttempts')
    .selectAll()
    .where('deliveryId', '=', deliveryId)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode);
  if (page.after) select = select.where('id', '<', page.after.id);
  const rows = await select.orderBy('id', 'desc').limit(page.limit + 1).execute();
  return {
    delivery: toSummary(delivery),
    attempts: rows.map((row) => ({
      id: row.id,
      deliveryId: row.deliveryId,
      attempt: row.attempt,
      event: row.event,
      url: row.url,
      request: row.requestBody === null ? null : { body: row.requestBody, headers: fromJson<Record<string, string>>(row.requestHeaders) ?? {} },
      response: { status: row.responseStatus, body: row.responseBody, durationMs: row.durationMs, error: row.error },
      succeeded: Boolean(row.succeeded),
      at: row.at,
    })),
  };
}

