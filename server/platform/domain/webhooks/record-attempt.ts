import type { Db, Executor } from '../../db/database';
import { toJson } from '../../db/database';
import type { WebhookDeliveryAttemptsTable } from '../../db/schema';
import { newOrderedId } from '../ids';
import type { Mode } from '../../db/schema';
import type { AttemptResult } from './deliver';
import { MAX_ATTEMPTS, parseRetryAfter } from './retry-schedule';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Step 4 of delivery: what each attempt came to is written back to its delivery (succeeded, failed
 * with the next attempt scheduled, or dead), and an endpoint that keeps failing or answers 410 is
 * disabled, ending what waits for it.
 */

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

/** Ends every delivery of an endpoint that is still waiting (the endpoint was disabled or deleted). */
export async function endWaitingDeliveries(db: Executor, endpointId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'dead', nextAttemptAt: null, lastError: reason, updatedAt: now.toISOString() })
    .where('endpointId', '=', endpointId)
    .where('status', 'in', ['pending', 'failed'])
    .execute();
}

async function endDelivery(db: Executor, id: string, lastError: string, at: string): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ status: 'dead', nextAttemptAt: null, lastError: lastError.slice(0, 500), updatedAt: at }).where('id', '=', id).execute();
}

/**
 * Records attempts in one transaction. Each write is conditional on the claim still being this
 * worker's (status `delivering` at the claimed attempt number), so a result that arrives after
 * its lease was taken over changes nothing. A failed attempt waits `retryDelay` (the schedule,
 * see `retry-schedule.ts`), or the receiver's `Retry-After` on 429/503; a 410, a not-sent attempt
 * or the last allowed attempt ends the delivery. Returns the endpoints this call disabled.
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
      if (!outcome.succeeded) continue;
      const key = `${claim.attempt}/${outcome.status}`;
      const group = groups.get(key) ?? { attempt: claim.attempt, status: outcome.status!, ids: [] };
      group.ids.push(claim.delivery.id);
      groups.set(key, group);
    }
    const reset = new Set<string>();
    // The deliveries whose attempt this call recorded (its claim was still current): they get an attempt-log row.
    const recorded = new Set<string>();
    for (const { attempt, status, ids } of groups.values()) {
      const done = await trx
        .updateTable('webhookDeliveries')
        .set({ status: 'succeeded', deliveredAt: at, nextAttemptAt: null, responseStatus: status, lastError: null, updatedAt: at })
        .where('id', 'in', ids)
        .where('status', '=', 'delivering')
        .where('attemptCount', '=', attempt)
        .returning(['id', 'endpointId'])
        .execute();
      for (const row of done) {
        recorded.add(row.id);
        if (row.endpointId) reset.add(row.endpointId);
      }
    }
    if (reset.size > 0) {
      await trx
        .updateTable('webhookEndpoints')
        .set({ consecutiveFails: 0, failingSince: null, lastSuccessAt: at })
        .where('id', 'in', [...reset])
        .execute();
    }

    for (const { claim, outcome } of results) {
      if (outcome.succeeded) continue;
      const { delivery, attempt } = claim;
      const error = (outcome.error ?? `HTTP ${outcome.status}`).slice(0, 500);
      const attemptsThisRound = attempt - (delivery.maxAttempts - MAX_ATTEMPTS);
      const throttled = outcome.status === 429 || outcome.status === 503;
      const delay = outcome.notSent || outcome.status === 410 ? undefined : ((throttled ? parseRetryAfter(outcome.retryAfter, now) : undefined) ?? retryDelay(attemptsThisRound));
      const final = delay === undefined || attempt >= delivery.maxAttempts;
      const written = await trx
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
      if (Number(written.numUpdatedRows) === 0) continue;
      recorded.add(delivery.id);
      if (!delivery.endpointId || outcome.notSent) continue;

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
    const log = results.filter((result) => recorded.has(result.claim.delivery.id)).map((result) => attemptRow(result, at));
    for (let i = 0; i < log.length; i += 200) await trx.insertInto('webhookDeliveryAttempts').values(log.slice(i, i + 200)).execute();
  });
  return disabled;
}

/** The attempt-log row of one recorded attempt: the request as sent and what came back. */
function attemptRow({ claim, outcome, request, durationMs }: AttemptResult, at: string): WebhookDeliveryAttemptsTable {
  const { delivery } = claim;
  return {
    id: newOrderedId(),
    deliveryId: delivery.id,
    organisationId: delivery.organisationId,
    mode: delivery.mode,
    endpointId: delivery.endpointId,
    attempt: claim.attempt,
    event: delivery.event,
    url: request?.url ?? claim.endpoint?.url ?? delivery.targetUrl,
    requestBody: request?.body ?? null,
    requestHeaders: request ? toJson(request.headers) : null,
    responseStatus: outcome.status ?? null,
    responseBody: outcome.bodyExcerpt ?? null,
    durationMs: durationMs ?? null,
    error: outcome.error?.slice(0, 500) ?? null,
    succeeded: outcome.succeeded,
    at,
  };
}
