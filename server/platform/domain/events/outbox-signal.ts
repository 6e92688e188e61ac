import type { Tx } from '../../db/database';

/**
 * In-process wake-up for the webhook dispatcher: `inUnitOfWork` rings it after a transaction that
 * wrote to the outbox commits, so a dispatcher in the same process fans out new events at once
 * instead of at its next poll. Only a hint: other processes rely on polling.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

/** Transactions that have recorded at least one event (set by the outbox writers, read at commit). */
const wroteToOutbox = new WeakSet<Tx>();

export function onOutboxCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyOutboxCommitted(): void {
  for (const listener of listeners) listener();
}

/** Called by every outbox writer: this transaction's commit should ring the outbox. */
export function markOutboxWritten(tx: Tx): void {
  wroteToOutbox.add(tx);
}

/** Whether the transaction recorded an event. */
export function wroteOutbox(tx: Tx): boolean {
  return wroteToOutbox.has(tx);
}
