import type { RoomBus, RoomPresence } from '../../platform/domain/ports';

/** One process (SQLite): the bus is a map of subscribers, presence a map with expiry. Delivery is asynchronous like the others. */
export class InProcessRoomBus implements RoomBus {
  readonly kind = 'in-process' as const;
  private readonly subscribers = new Map<string, Set<(message: Record<string, unknown>) => void>>();
  private readonly presence = new Map<string, Map<string, { entry: RoomPresence; expiresAt: number }>>();

  constructor(private readonly now: () => number = Date.now) {}

  async publish(room: string, message: Record<string, unknown>): Promise<void> {
    // A copy through JSON, as over the wire: a subscriber never shares the publisher's object.
    const text = JSON.stringify(message);
    for (const deliver of this.subscribers.get(room) ?? []) queueMicrotask(() => deliver(JSON.parse(text)));
  }

  async subscribe(room: string, onMessage: (message: Record<string, unknown>) => void): Promise<() => Promise<void>> {
    let set = this.subscribers.get(room);
    if (!set) this.subscribers.set(room, (set = new Set()));
    const deliver = (message: Record<string, unknown>) => onMessage(message);
    set.add(deliver);
    return async () => {
      set.delete(deliver);
      if (set.size === 0 && this.subscribers.get(room) === set) this.subscribers.delete(room);
    };
  }

  async announce(room: string, entry: RoomPresence, ttlMs: number): Promise<void> {
    let entries = this.presence.get(room);
    if (!entries) this.presence.set(room, (entries = new Map()));
    entries.set(entry.clientId, { entry: { ...entry }, expiresAt: this.now() + ttlMs });
  }

  async withdraw(room: string, clientId: string, connection: string): Promise<boolean> {
    const entries = this.presence.get(room);
    if (entries?.get(clientId)?.entry.connection !== connection) return false;
    entries.delete(clientId);
    if (entries.size === 0) this.presence.delete(room);
    return true;
  }

  async present(room: string): Promise<RoomPresence[]> {
    const now = this.now();
    return [...(this.presence.get(room)?.values() ?? [])].filter((e) => e.expiresAt > now).map((e) => ({ ...e.entry }));
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    this.presence.clear();
  }
}
