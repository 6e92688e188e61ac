import type { Db, Dialect } from '../../db/database';
import { fromJson } from '../../db/database';
import type { WebhookDeliveriesTable } from '../../db/schema';
import { newOrderedId } from '../ids';
import { MAX_ATTEMPTS } from './retry-schedule';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Step 1 of delivery. The outbox (`events`) is written in the transaction of each change; the
 * dispatcher turns every event into one delivery row per matching endpoint here, then claims
 * (`claim.ts`), sends (`deliver.ts`) and records (`record-attempt.ts`) them.
 */

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
