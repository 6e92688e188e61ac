import type { Compilable } from 'kysely';
import type { Db, Dialect, Tx } from '../../db/database';
import { together } from '../../db/precompiled';
import { WRITE_BEHIND_MARK } from '../../db/pipelined-pool';
import { fromJson } from '../../db/database';
import type { WebhookDeliveriesTable } from '../../db/schema';
import { newOrderedId } from '../ids';
import { MAX_ATTEMPTS } from './retry-schedule';
import { inUnitOfWork } from '../unit-of-work';
import type { ClaimedDelivery } from './claim';

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
  return (await fanOutAndClaim(db, dialect, now, { limit, claim: 0, leaseMs: 0 })).events;
}

/** A write whose answer nothing reads, sent as `writeBehind` sends its statements (`precompiled.ts`), for a statement of varying shape. */
async function writtenBehind(trx: Tx, query: Compilable<unknown>): Promise<void> {
  const compiled = query.compile();
  await trx.executeQuery({ ...compiled, sql: `${WRITE_BEHIND_MARK}${compiled.sql}` });
}

export interface FanOutOptions {
  /** Events handled at most. */
  limit?: number;
  /** How many of the new deliveries this caller claims at once (its free sending slots). */
  claim: number;
  /** The claim's lease, as `claimDueDeliveries` takes it. */
  leaseMs: number;
}

/**
 * Fan-out and the first claim in one transaction: the first `claim` new deliveries are written already claimed by
 * the caller (`delivering`, attempt 1, leased until now + `leaseMs`, exactly what `claimDueDeliveries` would make of
 * them) and returned to be sent; the others are written `pending` for the next claim. A fresh event thus goes out
 * after one transaction instead of two (the claim's UPDATE, and its reads of the events and endpoints, were a second
 * round of statements for every delivery under traffic). A worker that dies before recording leaves the lease to
 * expire, as after any claim.
 */
export async function fanOutAndClaim(db: Db, dialect: Dialect, now: Date, options: FanOutOptions): Promise<{ events: number; deliveries: number; claimed: ClaimedDelivery[] }> {
  const limit = options.limit ?? 500;
  // SQLite: a transaction takes the write lock (BEGIN IMMEDIATE), which blocks the process while another process
  // writes; a plain read first (never blocked) spares that when no event waits, as on most passes of a busy worker.
  if (dialect === 'sqlite' && !(await db.selectFrom('events').select('id').where('fannedOutAt', 'is', null).limit(1).executeTakeFirst())) {
    return { events: 0, deliveries: 0, claimed: [] };
  }
  return inUnitOfWork(db, async (trx) => {
    const unfanned = trx.selectFrom('events').where('fannedOutAt', 'is', null);
    // Both reads in one round trip (`together`): the events, and the active endpoints of every organisation with an
    // event waiting (a superset of the endpoints of the events locked here; the loop below matches them exactly).
    const [{ rows: events }, { rows: endpoints }] = await together(trx, [
      unfanned
        .select(['id', 'organisationId', 'mode', 'name', 'api', 'payload', 'createdAt'])
        .orderBy('id')
        .limit(limit)
        .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked())
        .compile(),
      trx
        .selectFrom('webhookEndpoints')
        .selectAll()
        .where('organisationId', 'in', unfanned.select('organisationId'))
        .where('status', '=', 'active')
        .compile(),
    ]);
    if (events.length === 0) return { events: 0, deliveries: 0, claimed: [] };
    const at = now.toISOString();
    const leasedUntil = new Date(now.getTime() + options.leaseMs).toISOString();
    const rows: WebhookDeliveriesTable[] = [];
    const claimed: ClaimedDelivery[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.organisationId !== event.organisationId || endpoint.mode !== event.mode || !endpointWants(endpoint.events, event.name)) continue;
        // Lending events go to lending endpoints, patient-financing events to sdk endpoints (their envelopes differ).
        if (endpoint.api !== event.api) continue;
        const claim = claimed.length < options.claim;
        const row: WebhookDeliveriesTable = {
          id: newOrderedId(),
          organisationId: event.organisationId,
          mode: event.mode,
          eventId: event.id,
          endpointId: endpoint.id,
          event: event.name,
          targetUrl: endpoint.url,
          status: claim ? 'delivering' : 'pending',
          attemptCount: claim ? 1 : 0,
          maxAttempts: MAX_ATTEMPTS,
          nextAttemptAt: claim ? leasedUntil : at,
          deliveredAt: null,
          responseStatus: null,
          lastError: null,
          createdAt: at,
          updatedAt: at,
        };
        rows.push(row);
        if (claim) claimed.push({ delivery: row, attempt: 1, eventCreatedAt: event.createdAt, payload: fromJson(event.payload), endpoint });
      }
    }
    // 16 columns a row: chunks stay far below either database's bound-parameter limit.
    // Written behind (PostgreSQL: not waited for; the commit follows them on the wire and fails if they did).
    for (let i = 0; i < rows.length; i += 500) await writtenBehind(trx, trx.insertInto('webhookDeliveries').values(rows.slice(i, i + 500)));
    await writtenBehind(
      trx,
      trx
        .updateTable('events')
        .set({ fannedOutAt: at })
        .where('id', 'in', events.map((e) => e.id)),
    );
    return { events: events.length, deliveries: rows.length, claimed };
  });
}
