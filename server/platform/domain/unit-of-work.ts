import type { Db, Tx } from '../db/database';
import { notifyOutboxCommitted, wroteOutbox } from './events/outbox-signal';

/**
 * The one way the service opens a write transaction: runs `work` in a transaction, commits, and, if
 * the work wrote to the outbox, rings it (`events/outbox-signal.ts`) so a dispatcher in this process
 * delivers at once. Outbox writers take a `Tx`, which the root handle is not, so an event can only
 * be written inside one of these and commits with the change it reports or not at all.
 *
 * Rings only when an event was written: most commits (sessions, usage, idempotency records) have
 * nothing to deliver, and a ring costs the dispatcher a fan-out query. The ring is only a hint;
 * the dispatcher's poll is the backstop. Nothing rings on a rollback.
 */
export async function inUnitOfWork<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  let rings = false;
  const result = await db.transaction().execute(async (tx) => {
    const value = await work(tx);
    rings = wroteOutbox(tx);
    return value;
  });
  if (rings) notifyOutboxCommitted();
  return result;
}
