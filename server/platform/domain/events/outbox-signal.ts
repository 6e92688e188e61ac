/**
 * In-process wake-up for the webhook dispatcher: the route runner rings it after a write
 * transaction commits, so a dispatcher in the same process fans out new events at once instead of
 * at its next poll. Only a hint: other processes, and events recorded by workers, rely on polling.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onOutboxCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyOutboxCommitted(): void {
  for (const listener of listeners) listener();
}
