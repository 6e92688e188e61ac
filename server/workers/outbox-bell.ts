import crypto from 'node:crypto';
import { onOutboxCommitted } from '../platform/domain/events/outbox-signal';
import type { RoomBus } from '../platform/domain/ports';

/**
 * The outbox bell across processes. `inUnitOfWork` rings the in-process outbox signal when a transaction that wrote an
 * event commits (`outbox-signal.ts`); a dispatcher in the same process wakes at once, but one in another process (the
 * `worker` of a split deployment) used to find the event only at its next poll. Here every process that commits events
 * passes the ring on over the room bus (PostgreSQL LISTEN/NOTIFY, or Redis pub/sub when REDIS_URL is set), and every
 * dispatcher listens. Only a hint, as in-process: a lost ring costs one poll interval, nothing is ever missed (the
 * dispatcher still polls), and a spurious one costs one empty pass.
 *
 * Rings are coalesced: at most one message in flight and one more pending, whatever the commit rate, so a busy API
 * process sends about one NOTIFY per round trip to the database, not one per event. On SQLite (one machine, the
 * in-process bus) there is nothing to pass on.
 */
export const OUTBOX_ROOM = 'webhook-outbox';

/** This process, so that a dispatcher does not wake for its own process's rings (the in-process signal did already). */
const PROCESS_ID = crypto.randomUUID();

interface Log {
  warn(object: object, message: string): void;
}

/** Passes this process's outbox rings on to other processes' dispatchers; returns the function that stops it. */
export function ringOutboxAcrossProcesses(bus: RoomBus, log: Log): () => void {
  if (bus.kind === 'in-process') return () => undefined;
  let sending = false;
  let pending = false;
  let warned = false;
  const send = () => {
    sending = true;
    pending = false;
    bus.publish(OUTBOX_ROOM, { from: PROCESS_ID }).then(
      () => (warned = false),
      (error: unknown) => {
        // Once per outage: the dispatchers poll meanwhile.
        if (!warned) log.warn({ err: error }, 'outbox bell: could not ring other processes; their dispatchers poll meanwhile');
        warned = true;
      },
    ).finally(() => {
      sending = false;
      if (pending) send();
    });
  };
  return onOutboxCommitted(() => {
    if (sending) pending = true;
    else send();
  });
}

/** Calls `onRing` when another process commits an event; resolves once listening. The returned function stops listening. */
export async function listenForOutbox(bus: RoomBus, onRing: () => void): Promise<() => Promise<void>> {
  if (bus.kind === 'in-process') return async () => undefined;
  return bus.subscribe(OUTBOX_ROOM, (message) => {
    if (message.from !== PROCESS_ID) onRing();
  });
}
