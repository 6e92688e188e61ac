import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { RoomBus, RoomPresence } from '../../platform/domain/ports';
import { Reassembler, splitPayload } from './chunks';

/** `pg`, loaded when the first client connects (a process on SQLite never builds this bus). */
const pgDriver = () => createRequire(import.meta.url)('pg') as typeof pg;

interface Log {
  warn(object: object, message: string): void;
}

/** One channel per room; a hash keeps the name a short identifier whatever the room id. */
export const channelOf = (room: string) => `meet_${crypto.createHash('sha256').update(room).digest('hex').slice(0, 40)}`;


/**
 * Rooms over PostgreSQL: `NOTIFY` on one channel per room (through `pg_notify`, messages above the payload limit cut
 * into pieces, see chunks.ts), a `pg` client dedicated to `LISTEN` that reconnects with backoff and listens again to
 * every room it had, and presence in the UNLOGGED table `meeting_presence` of migration 0036 (ephemeral: lost on a crash of
 * PostgreSQL, rebuilt by the next heartbeats), expiry by PostgreSQL's clock.
 * Commands (NOTIFY, presence) go through a second dedicated client: one session, so one process's messages keep
 * their order.
 */
export class PostgresRoomBus implements RoomBus {
  readonly kind = 'postgres' as const;
  private readonly handlers = new Map<string, { room: string; callbacks: Set<(message: Record<string, unknown>) => void> }>();
  private readonly reassembler = new Reassembler();
  private listener?: pg.Client;
  private listening?: Promise<pg.Client>;
  private commands?: Promise<pg.Client>;
  private retryMs = 100;
  private queue: Promise<unknown> = Promise.resolve();
  private listenQueue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly connectionString: string, private readonly log: Log) {}

  async publish(room: string, message: Record<string, unknown>): Promise<void> {
    const pieces = splitPayload(JSON.stringify(message));
    await this.command('select pg_notify($1, piece) from unnest($2::text[]) as piece', [channelOf(room), pieces]);
  }

  async subscribe(room: string, onMessage: (message: Record<string, unknown>) => void): Promise<() => Promise<void>> {
    const channel = channelOf(room);
    let entry = this.handlers.get(channel);
    const first = !entry;
    if (!entry) this.handlers.set(channel, (entry = { room, callbacks: new Set() }));
    entry.callbacks.add(onMessage);
    if (first) {
      try {
        const client = await this.listen();
        if (this.handlers.get(channel) === entry) await this.onListener(client, `listen "${channel}"`);
      } catch (error) {
        entry.callbacks.delete(onMessage);
        if (entry.callbacks.size === 0 && this.handlers.get(channel) === entry) this.handlers.delete(channel);
        throw error;
      }
    }
    return async () => {
      entry.callbacks.delete(onMessage);
      if (entry.callbacks.size > 0 || this.handlers.get(channel) !== entry) return;
      this.handlers.delete(channel);
      if (this.listener) await this.onListener(this.listener, `unlisten "${channel}"`).catch(() => undefined);
    };
  }

  async announce(room: string, entry: RoomPresence, ttlMs: number): Promise<void> {
    await this.command(
      `insert into meeting_presence (room, client_id, connection, name, role, expires_at)
       values ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
       on conflict (room, client_id) do update set connection = excluded.connection, name = excluded.name, role = excluded.role, expires_at = excluded.expires_at`,
      [room, entry.clientId, entry.connection, entry.name, entry.role, ttlMs],
    );
  }

  async withdraw(room: string, clientId: string, connection: string): Promise<boolean> {
    const result = await this.command('delete from meeting_presence where room = $1 and client_id = $2 and connection = $3', [room, clientId, connection]);
    return (result.rowCount ?? 0) > 0;
  }

  async present(room: string): Promise<RoomPresence[]> {
    await this.command('delete from meeting_presence where room = $1 and expires_at <= now()', [room]);
    const result = await this.command('select client_id, connection, name, role from meeting_presence where room = $1 and expires_at > now() order by client_id', [room]);
    return result.rows.map((r: { client_id: string; connection: string; name: string; role: string }) => ({ clientId: r.client_id, connection: r.connection, name: r.name, role: r.role }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    const commands = await this.commands?.catch(() => undefined);
    await commands?.end().catch(() => undefined);
  }

  /** The number of rooms listened to (for tests and metrics). */
  get rooms(): number {
    return this.handlers.size;
  }

  private onListener(client: pg.Client, text: string): Promise<unknown> {
    const run = this.listenQueue.then(() => client.query(text));
    this.listenQueue = run.catch(() => undefined);
    return run;
  }

  /** One command at a time on the one session, in call order (pg deprecates queueing on a busy client). */
  private command(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const run = this.queue.then(() => this.run(text, values));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('room bus closed');
    this.commands ??= (async () => {
      const client = new (pgDriver().Client)({ connectionString: this.connectionString });
      const drop = (error?: Error) => {
        if (error) this.log.warn({ err: error }, 'meeting bus: command connection lost');
        if (this.commands === pending) this.commands = undefined;
      };
      client.on('error', drop);
      client.on('end', () => drop());
      await client.connect();
      return client;
    })();
    const pending = this.commands;
    let client: pg.Client;
    try {
      client = await pending;
    } catch (error) {
      if (this.commands === pending) this.commands = undefined;
      throw error;
    }
    return client.query(text, values);
  }

  /** The listening client, connecting (and listening to every current room) when there is none. */
  private listen(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('room bus closed'));
    this.listening ??= (async () => {
      const client = new (pgDriver().Client)({ connectionString: this.connectionString });
      client.on('notification', (n) => this.deliver(n.channel, n.payload ?? ''));
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
        for (const channel of [...this.handlers.keys()]) await this.onListener(client, `listen "${channel}"`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      this.listener = client;
      this.retryMs = 100;
      return client;
    })().catch((error) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.listener !== client || this.closed) return;
    this.listener = undefined;
    this.listening = undefined;
    this.log.warn({ err: error }, 'meeting bus: LISTEN connection lost; reconnecting');
    client.end().catch(() => undefined);
    const retry = () => {
      if (this.closed || this.listening) return;
      this.listen().catch((err) => {
        this.retryMs = Math.min(this.retryMs * 2, 5_000);
        this.log.warn({ err }, 'meeting bus: reconnect failed');
        setTimeout(retry, this.retryMs).unref();
      });
    };
    setTimeout(retry, this.retryMs).unref();
  }

  private deliver(channel: string, payload: string): void {
    const entry = this.handlers.get(channel);
    if (!entry) return;
    const text = this.reassembler.add(payload);
    if (text === undefined) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    for (const callback of [...entry.callbacks]) callback(message);
  }
}
