import { sql } from 'kysely';
import type { Db, Dialect, Executor, Tx } from '../../db/database';
import { fromJson } from '../../db/database';
import type { Mode, WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newOrderedId } from '../ids';
import { MAX_ATTEMPTS, parseRetryAfter } from './retry-schedule';
import type { Scope } from '../scope';
import { inUnitOfWork } from '../unit-of-work';
import { markOutboxWritten } from '../events/outbox-signal';

/**
 * The durable delivery log. The outbox (`events`) is written in the transaction of each change;
 * the dispatcher then fans every event out to one delivery row per matching endpoint, claims due
 * rows under a lease, sends them, and records each attempt here.
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

/** Exact name match; an empty or null list means every event. No wildcards. */
export function endpointWants(endpointEvents: unknown, event: string): boolean {
  const names = fromJson<string[]>(endpointEvents);
  return !names || names.length === 0 || names.includes(event);
}

/**
 * Writes the deliveries of up to `limit` events not yet fanned out: one row per active endpoint
 * of the event's organisation and mode whose filter matches. Returns how many events it handled.
 * Several processes may run it at once (PostgreSQL: SKIP LOCKED; SQLite: one writer at a time).
 */
export async function fanOutEvents(db: Db, dialect: Dialect, now: Date, limit = 500): Promise<number> {
  return inUnitOfWork(db, async (trx) => {
    const events = await trx
      .selectFrom('events')
      .select(['id', 'organisationId', 'mode', 'name', 'api'])
      .where('fannedOutAt', 'is', null)
      .orderBy('id')
      .limit(limit)
      .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked())
      .execute();
    if (events.length === 0) return 0;
    const organisationIds = [...new Set(events.map((e) => e.organisationId))];
    const endpoints = await trx
      .selectFrom('webhookEndpoints')
      .select(['id', 'organisationId', 'mode', 'url', 'events', 'api'])
      .where('organisationId', 'in', organisationIds)
      .where('status', '=', 'active')
      .execute();
    const at = now.toISOString();
    const rows: WebhookDeliveriesTable[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.organisationId !== event.organisationId || endpoint.mode !== event.mode || !endpointWants(endpoint.events, event.name)) continue;
        // Lending events go to lending endpoints, patient-financing events to sdk endpoints (their envelopes differ).
        if (endpoint.api !== event.api) continue;
        rows.push({
          id: newOrderedId(),
          organisationId: event.organisationId,
          mode: event.mode,
          eventId: event.id,
          endpointId: endpoint.id,
          event: event.name,
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
        });
      }
    }
    // 16 columns a row: chunks stay far below either database's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('webhookDeliveries').values(rows.slice(i, i + 500)).execute();
    await trx
      .updateTable('events')
      .set({ fannedOutAt: at })
      .where('id', 'in', events.map((e) => e.id))
      .execute();
    return events.length;
  });
}

export interface ClaimedDelivery {
  delivery: WebhookDeliveriesTable;
  /** The attempt this claim makes (1-based); recording its result is conditional on it. */
  attempt: number;
  eventCreatedAt: string;
  payload: unknown;
  endpoint: WebhookEndpointsTable | undefined;
}

/**
 * The predicate of the partial index `webhook_deliveries_due_idx`, written as a literal: both
 * databases use a partial index only when the query repeats its condition (bound parameters do not).
 */
const UNFINISHED = sql<boolean>`status in ('pending', 'failed', 'delivering')`;

/**
 * Ends deliveries whose lease expired on their last allowed attempt: the outcome is unknown and
 * nothing is left to try. The dispatcher runs it now and then, not on every claim.
 */
export async function endExpiredLastAttempts(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const result = await db
    .updateTable('webhookDeliveries')
    .set({ status: 'dead', nextAttemptAt: null, lastError: 'the worker sending the last attempt stopped before recording its result', updatedAt: at })
    .where(UNFINISHED)
    .where('status', '=', 'delivering')
    .where('nextAttemptAt', '<=', at)
    .whereRef('attemptCount', '>=', 'maxAttempts')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Claims up to `limit` due deliveries: pending, failed and due again, or delivering with an
 * expired lease (the worker that claimed it died). Claiming counts the attempt and sets the
 * lease (`nextAttemptAt` = now + lease). On PostgreSQL, SKIP LOCKED lets several dispatchers
 * claim side by side without ever taking the same row.
 */
export async function claimDueDeliveries(db: Db, dialect: Dialect, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const due = db
    .selectFrom('webhookDeliveries')
    .select('id')
    .where(UNFINISHED)
    .where('nextAttemptAt', '<=', at)
    .whereRef('attemptCount', '<', 'maxAttempts')
    .orderBy('nextAttemptAt')
    .limit(limit)
    .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  const claimed = await db
    .updateTable('webhookDeliveries')
    .set((eb) => ({
      status: 'delivering',
      attemptCount: eb('attemptCount', '+', 1),
      // Where this attempt goes: the endpoint's URL now.
      targetUrl: eb.fn.coalesce(
        eb.selectFrom('webhookEndpoints').select('webhookEndpoints.url').whereRef('webhookEndpoints.id', '=', 'webhookDeliveries.endpointId'),
        eb.ref('webhookDeliveries.targetUrl'),
      ),
      nextAttemptAt: new Date(now.getTime() + leaseMs).toISOString(),
      updatedAt: at,
    }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const events = await db
    .selectFrom('events')
    .select(['id', 'payload', 'createdAt'])
    .where('id', 'in', [...new Set(claimed.map((d) => d.eventId))])
    .execute();
  const endpointIds = [...new Set(claimed.map((d) => d.endpointId).filter((id): id is string => id !== null))];
  const endpoints = endpointIds.length ? await db.selectFrom('webhookEndpoints').selectAll().where('id', 'in', endpointIds).execute() : [];
  const eventById = new Map(events.map((e) => [e.id, e]));
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  return claimed.map((delivery) => ({
    delivery,
    attempt: delivery.attemptCount,
    eventCreatedAt: eventById.get(delivery.eventId)!.createdAt,
    payload: fromJson(eventById.get(delivery.eventId)!.payload),
    endpoint: delivery.endpointId ? endpointById.get(delivery.endpointId) : undefined,
  }));
}

/** Ends every delivery of an endpoint that is still waiting (the endpoint was disabled or deleted). */
export async function endWaitingDeliveries(db: Executor, endpointId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'dead', nextAttemptAt: null, lastError: reason, updatedAt: now.toISOString() })
    .where('endpointId', '=', endpointId)
    .where('status', 'in', ['pending', 'failed'])
    .execute();
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
export async function redeliver(db: Tx, scope: Scope, id: string, now: Date, api: 'lending' | 'sdk' = 'lending'): Promise<WebhookDelivery> {
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
  // A requeued delivery is outbox work too: the commit wakes the dispatcher.
  markOutboxWritten(db);
  return getDelivery(db, scope, id, api);
}

async function endDelivery(db: Executor, id: string, lastError: string, at: string): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ status: 'dead', nextAttemptAt: null, lastError: lastError.slice(0, 500), updatedAt: at }).where('id', '=', id).execute();
}

/** What one attempt came to (a subset of the sender's outcome, so this module needs no HTTP). */
export interface AttemptOutcome {
  status?: number;
  retryAfter?: string;
  error?: string;
  /** Not sent at all (the endpoint is gone or disabled): the delivery ends without retries. */
  notSent?: boolean;
}

export interface AttemptResult {
  claim: ClaimedDelivery;
  outcome: AttemptOutcome;
}

/** Repeated failures disable an endpoint: at least `failures` in a row, lasting at least `minFailingMs`. */
export interface DisablePolicy {
  failures: number;
  minFailingMs: number;
}

export interface DisabledEndpoint {
  endpointId: string;
  organisationId: string;
  mode: Mode;
  url: string;
  reason: 'gone' | 'failures';
  consecutiveFails: number;
  failingSince: string | null;
  lastError: string | null;
}

const succeeded = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/**
 * Records attempts in one transaction. Each write is conditional on the claim still being this
 * worker's (status `delivering` at the claimed attempt number), so a result that arrives after
 * its lease was taken over changes nothing. Returns the endpoints this call disabled.
 */
export async function recordAttempts(
  db: Db,
  results: readonly AttemptResult[],
  now: Date,
  policy: DisablePolicy,
  retryDelay: (attemptsThisRound: number) => number | undefined,
): Promise<DisabledEndpoint[]> {
  const at = now.toISOString();
  const disabled: DisabledEndpoint[] = [];
  await inUnitOfWork(db, async (trx) => {
    // Successes in bulk: one UPDATE per (attempt number, response status), one for their endpoints.
    const groups = new Map<string, { attempt: number; status: number; ids: string[] }>();
    for (const { claim, outcome } of results) {
      if (!succeeded(outcome.status)) continue;
      const key = `${claim.attempt}/${outcome.status}`;
      const group = groups.get(key) ?? { attempt: claim.attempt, status: outcome.status!, ids: [] };
      group.ids.push(claim.delivery.id);
      groups.set(key, group);
    }
    const reset = new Set<string>();
    for (const { attempt, status, ids } of groups.values()) {
      const done = await trx
        .updateTable('webhookDeliveries')
        .set({ status: 'succeeded', deliveredAt: at, nextAttemptAt: null, responseStatus: status, lastError: null, updatedAt: at })
        .where('id', 'in', ids)
        .where('status', '=', 'delivering')
        .where('attemptCount', '=', attempt)
        .returning('endpointId')
        .execute();
      for (const row of done) if (row.endpointId) reset.add(row.endpointId);
    }
    if (reset.size > 0) {
      await trx
        .updateTable('webhookEndpoints')
        .set({ consecutiveFails: 0, failingSince: null, lastSuccessAt: at })
        .where('id', 'in', [...reset])
        .execute();
    }

    for (const { claim, outcome } of results) {
      if (succeeded(outcome.status)) continue;
      const { delivery, attempt } = claim;
      const error = (outcome.error ?? `HTTP ${outcome.status}`).slice(0, 500);
      const attemptsThisRound = attempt - (delivery.maxAttempts - MAX_ATTEMPTS);
      const throttled = outcome.status === 429 || outcome.status === 503;
      const delay = outcome.notSent || outcome.status === 410 ? undefined : ((throttled ? parseRetryAfter(outcome.retryAfter, now) : undefined) ?? retryDelay(attemptsThisRound));
      const final = delay === undefined || attempt >= delivery.maxAttempts;
      const recorded = await trx
        .updateTable('webhookDeliveries')
        .set({
          status: final ? 'dead' : 'failed',
          nextAttemptAt: final ? null : new Date(now.getTime() + delay).toISOString(),
          responseStatus: outcome.status ?? null,
          lastError: error,
          updatedAt: at,
        })
        .where('id', '=', delivery.id)
        .where('status', '=', 'delivering')
        .where('attemptCount', '=', attempt)
        .executeTakeFirst();
      if (Number(recorded.numUpdatedRows) === 0 || !delivery.endpointId || outcome.notSent) continue;

      const endpoint = await trx
        .updateTable('webhookEndpoints')
        .set((eb) => ({
          consecutiveFails: eb('consecutiveFails', '+', 1),
          failingSince: eb.fn.coalesce('failingSince', eb.val(at)),
          lastFailureAt: at,
        }))
        .where('id', '=', delivery.endpointId)
        .returning(['id', 'organisationId', 'mode', 'url', 'status', 'consecutiveFails', 'failingSince'])
        .executeTakeFirst();
      if (!endpoint || endpoint.status !== 'active') {
        // Disabled (or deleted) while this attempt was in flight: nothing more goes to it.
        if (!final) await endDelivery(trx, delivery.id, `${error} (endpoint ${endpoint ? 'disabled' : 'deleted'})`, at);
        continue;
      }
      const gone = outcome.status === 410;
      const exhausted =
        endpoint.consecutiveFails >= policy.failures &&
        endpoint.failingSince !== null &&
        new Date(endpoint.failingSince).getTime() <= now.getTime() - policy.minFailingMs;
      if (!gone && !exhausted) continue;
      const off = await trx
        .updateTable('webhookEndpoints')
        .set({ status: 'disabled', updatedAt: at })
        .where('id', '=', endpoint.id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (Number(off.numUpdatedRows) === 0) continue;
      const reason = gone
        ? 'endpoint disabled: it answered 410 Gone'
        : `endpoint disabled after ${endpoint.consecutiveFails} consecutive failed attempts since ${endpoint.failingSince}`;
      await endWaitingDeliveries(trx, endpoint.id, reason, now);
      if (!final) await endDelivery(trx, delivery.id, `${error} (${reason})`, at);
      disabled.push({
        endpointId: endpoint.id,
        organisationId: endpoint.organisationId,
        mode: endpoint.mode,
        url: endpoint.url,
        reason: gone ? 'gone' : 'failures',
        consecutiveFails: endpoint.consecutiveFails,
        failingSince: endpoint.failingSince,
        lastError: error,
      });
    }
  });
  return disabled;
}
