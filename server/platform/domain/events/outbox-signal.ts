/**
 * In-process wake-up for the webhook dispatcher: `enqueueEvent` rings it, so a dispatcher in the
 * same process starts on new events without waiting for its next poll. It is only a hint: the
 * event may not be committed yet, and other processes rely on polling.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onEventEnqueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyEventEnqueued(): void {
  for (const listener of listeners) listener();
}
