import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';
import { fromJson } from '../../db/database';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema';

/**
 * Step 2 of delivery: due deliveries are claimed under a lease, so that any number of dispatcher
 * processes share them and a delivery whose worker died goes out again once its lease expires.
 */

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
