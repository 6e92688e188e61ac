import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { RoomBus, RoomPresence } from '../../platform/domain/ports';

interface Log {
  warn(object: object, message: string): void;
}

const channelOf = (room: string) => `meet:room:${room}`;
const presenceKey = (room: string) => `meet:presence:${room}`;

/** Deletes the field only while it still holds this connection (a newer connection of the participant stays). */
const WITHDRAW = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 0 end
if cjson.decode(current).connection ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])`;

/** Deletes the fields still expired at `now` (one refreshed by another process meanwhile stays). */
const PRUNE = `
local removed = 0
for i = 2, #ARGV do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if current and cjson.decode(current).expiresAt <= tonumber(ARGV[1]) then removed = removed + redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return removed`;

/**
 * Rooms over Redis: pub/sub on one channel per room through a dedicated subscriber connection (ioredis subscribes
 * again by itself after a reconnect), commands on a second connection (one connection, so one process's messages
 * keep their order), presence in a hash per room (`clientId` → entry with its expiry time), the key itself expiring
 * after the longest TTL so a room nobody refreshes disappears. No payload limit to work around (512 MB).
 */
export class RedisRoomBus implements RoomBus {
  readonly kind = 'redis' as const;
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<(message: Record<string, unknown>) => void>>();

  private readonly now: () => number;

  constructor(url: string, log: Log, options: { now?: () => number; connectionName?: string } = {}) {
    this.now = options.now ?? Date.now;
    const name = options.connectionName ?? 'meeting-bus';
    // ioredis is loaded here, not when this module is: the bundle holds this module whether or not REDIS_URL is set.
    const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.commands = new Redis(url, { maxRetriesPerRequest: 2, connectionName: `${name}-commands` });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: 2, connectionName: `${name}-subscriber` });
    this.commands.on('error', (error) => log.warn({ err: error }, 'meeting bus: redis unavailable'));
    this.subscriber.on('error', (error) => log.warn({ err: error }, 'meeting bus: redis subscriber unavailable'));
    this.subscriber.on('message', (channel: string, text: string) => {
      const callbacks = this.handlers.get(channel);
      if (!callbacks) return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      for (const callback of [...callbacks]) callback(message);
    });
  }

  async publish(room: string, message: Record<string, unknown>): Promise<void> {
    await this.commands.publish(channelOf(room), JSON.stringify(message));
  }

  async subscribe(room: string, onMessage: (message: Record<string, unknown>) => void): Promise<() => Promise<void>> {
    const channel = channelOf(room);
    let callbacks = this.handlers.get(channel);
    const first = !callbacks;
    if (!callbacks) this.handlers.set(channel, (callbacks = new Set()));
    callbacks.add(onMessage);
    if (first) await this.subscriber.subscribe(channel);
    return async () => {
      callbacks.delete(onMessage);
      if (callbacks.size > 0 || this.handlers.get(channel) !== callbacks) return;
      this.handlers.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async announce(room: string, entry: RoomPresence, ttlMs: number): Promise<void> {
    const key = presenceKey(room);
    await this.commands
      .multi()
      .hset(key, entry.clientId, JSON.stringify({ ...entry, expiresAt: this.now() + ttlMs }))
      .pexpire(key, ttlMs, 'GT')
      .pexpire(key, ttlMs, 'NX')
      .exec();
  }

  async withdraw(room: string, clientId: string, connection: string): Promise<boolean> {
    return Number(await this.commands.eval(WITHDRAW, 1, presenceKey(room), clientId, connection)) > 0;
  }

  async present(room: string): Promise<RoomPresence[]> {
    const now = this.now();
    const fields = await this.commands.hgetall(presenceKey(room));
    const entries = Object.values(fields).map((text) => JSON.parse(text) as RoomPresence & { expiresAt: number });
    const expired = entries.filter((e) => e.expiresAt <= now).map((e) => e.clientId);
    if (expired.length > 0) await this.commands.eval(PRUNE, 1, presenceKey(room), now, ...expired);
    return entries
      .filter((e) => e.expiresAt > now)
      .map(({ clientId, connection, name, role }) => ({ clientId, connection, name, role }))
      .sort((a, b) => a.clientId.localeCompare(b.clientId));
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber.disconnect();
    this.commands.disconnect();
  }
}
