import crypto from 'node:crypto';
import type { WebSocket } from 'ws';
import type { RoomBus, RoomPresence } from '../platform/domain/ports';

export interface RoomPeer {
  clientId: string;
  participantId: string;
  name: string;
  role: string;
  socket: WebSocket;
  /** This socket's id: a participant who reconnects (here or on another process) gets a new one. */
  connection: string;
}

export type PeerInfo = { clientId: string; name: string; role: string };

/** What the processes tell each other about a room, through the bus. */
type BusMessage =
  | { kind: 'joined'; peer: PeerInfo; connection: string; replaces?: string }
  | { kind: 'left'; clientId: string; connection: string }
  | { kind: 'signal'; from: string; to: string; data: unknown }
  | { kind: 'ended' };

interface Room {
  /** The sockets this process holds. */
  local: Map<string, RoomPeer>;
  /** Every participant this process believes is in the room (any process) → their current connection. */
  known: Map<string, string>;
  unsubscribe: Promise<() => Promise<void>>;
  /**
   * This process's joins of the room, one after another: each reads who is present, then announces itself. Two joins
   * side by side (the usual case on a fresh process, where both wait for the room's first subscription) would each read
   * the room before the other announced, and neither would make the offer.
   */
  joins: Promise<unknown>;
}

interface Log {
  warn(object: object, message: string): void;
}

export const newConnectionId = () => crypto.randomBytes(9).toString('base64url');

/**
 * The meeting rooms as this process sees them: the sockets it holds, relayed to and from the other processes through
 * the `RoomBus` (in-process on SQLite, PostgreSQL LISTEN/NOTIFY, Redis pub/sub), so no sticky routing is needed.
 * Everything goes through the bus, the messages between two sockets of this process too: one path.
 * - join: subscribe to the room, read who is present (the welcome), announce the newcomer, publish `joined` — one join
 *   of a room at a time in a process, so of two participants joining together exactly one sees the other (and offers)
 *   (with the connection it replaces when the same participant was present elsewhere: the process holding the
 *   old socket closes it with 4001 and every other peer gets `peer-left` then `peer-joined`, so they renegotiate);
 * - signal: published to the room, delivered by the process holding the target's socket;
 * - leave: withdraw the presence entry if it is still this socket's, then publish `left`;
 * - heartbeat every `ttlMs / 3`: refresh this process's entries; a participant whose entry expired (its process
 *   died without saying `left`) is announced as `peer-left` to the local sockets.
 */
export class MeetingRooms {
  private readonly rooms = new Map<string, Room>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly bus: RoomBus, private readonly options: { ttlMs: number; log: Log }) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.heartbeat().catch((error) => this.options.log.warn({ err: error }, 'meeting: presence heartbeat failed')), Math.max(50, Math.floor(this.options.ttlMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Local sockets of a room. */
  peers(appointmentId: string): RoomPeer[] {
    return [...(this.rooms.get(appointmentId)?.local.values() ?? [])];
  }

  /** Adds the socket to the room; returns the peers already there (on any process), for the welcome. */
  async join(appointmentId: string, peer: RoomPeer): Promise<PeerInfo[]> {
    const room = this.room(appointmentId);
    const previousLocal = room.local.get(peer.clientId);
    room.local.set(peer.clientId, peer);
    if (previousLocal) this.replace(previousLocal);
    const turn = room.joins.then(() => this.announceJoin(appointmentId, room, peer));
    room.joins = turn.catch(() => undefined);
    return turn;
  }

  private async announceJoin(appointmentId: string, room: Room, peer: RoomPeer): Promise<PeerInfo[]> {
    try {
      await room.unsubscribe;
    } catch (error) {
      // The bus could not subscribe: forget the room so the next join tries again.
      if (room.local.get(peer.clientId) === peer) room.local.delete(peer.clientId);
      if (this.rooms.get(appointmentId) === room) this.rooms.delete(appointmentId);
      throw error;
    }
    const before = await this.bus.present(appointmentId);
    const previous = before.find((p) => p.clientId === peer.clientId);
    await this.bus.announce(appointmentId, this.presenceOf(peer), this.options.ttlMs);
    const info = { clientId: peer.clientId, name: peer.name, role: peer.role };
    await this.publish(appointmentId, { kind: 'joined', peer: info, connection: peer.connection, ...(previous ? { replaces: previous.connection } : {}) });
    const others = before.filter((p) => p.clientId !== peer.clientId);
    for (const other of others) if (!room.known.has(other.clientId)) room.known.set(other.clientId, other.connection);
    return others.map(({ clientId, name, role }) => ({ clientId, name, role }));
  }

  /** The socket closed: if it was still the participant's connection, everyone is told they left. */
  async leave(appointmentId: string, clientId: string, socket: WebSocket): Promise<void> {
    const room = this.rooms.get(appointmentId);
    const peer = room?.local.get(clientId);
    if (!room) return;
    try {
      if (!peer || peer.socket !== socket) return;
      room.local.delete(clientId);
      if (await this.bus.withdraw(appointmentId, clientId, peer.connection)) await this.publish(appointmentId, { kind: 'left', clientId, connection: peer.connection });
    } finally {
      await this.dispose(appointmentId, room);
    }
  }

  /** A room without local sockets is no longer listened to here. */
  private async dispose(appointmentId: string, room: Room): Promise<void> {
    if (room.local.size > 0 || this.rooms.get(appointmentId) !== room) return;
    this.rooms.delete(appointmentId);
    await (await room.unsubscribe)();
  }

  /** A signalling message from a local socket to a peer of the room, wherever it is connected. */
  relay(appointmentId: string, from: string, to: string, data: unknown): Promise<void> {
    return this.publish(appointmentId, { kind: 'signal', from, to, data });
  }

  /** The consultation is over: every process tells its sockets and closes them. */
  async end(appointmentId: string): Promise<void> {
    this.endLocally(appointmentId);
    await this.publish(appointmentId, { kind: 'ended' });
  }

  appointmentIds(): string[] {
    return [...this.rooms.keys()];
  }

  send(peer: RoomPeer, message: unknown): void {
    if (peer.socket.readyState === peer.socket.OPEN) peer.socket.send(JSON.stringify(message));
  }

  private room(appointmentId: string): Room {
    let room = this.rooms.get(appointmentId);
    if (!room) {
      const created: Room = { local: new Map(), known: new Map(), unsubscribe: Promise.resolve(async () => undefined), joins: Promise.resolve() };
      created.unsubscribe = this.bus.subscribe(appointmentId, (message) => this.onMessage(appointmentId, created, message as BusMessage));
      this.rooms.set(appointmentId, (room = created));
    }
    return room;
  }

  private publish(appointmentId: string, message: BusMessage): Promise<void> {
    return this.bus.publish(appointmentId, message as unknown as Record<string, unknown>);
  }

  private presenceOf(peer: RoomPeer): RoomPresence {
    return { clientId: peer.clientId, connection: peer.connection, name: peer.name, role: peer.role };
  }

  private replace(peer: RoomPeer): void {
    this.send(peer, { type: 'replaced' });
    peer.socket.close(4001, 'replaced');
  }

  private onMessage(appointmentId: string, room: Room, message: BusMessage): void {
    switch (message.kind) {
      case 'joined': {
        const { peer, connection } = message;
        const before = room.known.get(peer.clientId);
        room.known.set(peer.clientId, connection);
        for (const local of [...room.local.values()]) {
          if (local.clientId === peer.clientId) {
            // The same participant connected on another process: this socket is the old one.
            if (local.connection !== connection) {
              room.local.delete(local.clientId);
              this.replace(local);
              void this.dispose(appointmentId, room).catch(() => undefined);
            }
            continue;
          }
          if (message.replaces || (before !== undefined && before !== connection)) this.send(local, { type: 'peer-left', clientId: peer.clientId });
          this.send(local, { type: 'peer-joined', peer });
        }
        break;
      }
      case 'left':
        if (room.known.get(message.clientId) !== message.connection) return;
        room.known.delete(message.clientId);
        for (const local of room.local.values()) if (local.clientId !== message.clientId) this.send(local, { type: 'peer-left', clientId: message.clientId });
        break;
      case 'signal': {
        const target = room.local.get(message.to);
        if (target && message.from !== message.to && typeof message.data === 'object' && message.data !== null) this.send(target, { type: 'signal', from: message.from, data: message.data });
        break;
      }
      case 'ended':
        this.endLocally(appointmentId);
        break;
    }
  }

  private endLocally(appointmentId: string): void {
    const room = this.rooms.get(appointmentId);
    if (!room) return;
    for (const peer of room.local.values()) {
      this.send(peer, { type: 'ended' });
      peer.socket.close(4000, 'consultation ended');
    }
    room.local.clear();
    void this.dispose(appointmentId, room).catch(() => undefined);
  }

  private async heartbeat(): Promise<void> {
    for (const [appointmentId, room] of [...this.rooms]) {
      await this.heartbeatRoom(appointmentId, room).catch((error) => this.options.log.warn({ err: error }, 'meeting: presence heartbeat failed'));
    }
  }

  private async heartbeatRoom(appointmentId: string, room: Room): Promise<void> {
    for (const peer of room.local.values()) await this.bus.announce(appointmentId, this.presenceOf(peer), this.options.ttlMs);
    const present = new Map((await this.bus.present(appointmentId)).map((p) => [p.clientId, p.connection]));
    for (const [clientId, connection] of [...room.known]) {
      if (present.get(clientId) === connection || room.local.get(clientId)?.connection === connection) continue;
      if (present.has(clientId)) continue; // a newer connection whose `joined` is on its way
      // Expired without a `left`: its process died (or lost the bus) — the peers here drop it.
      room.known.delete(clientId);
      for (const local of room.local.values()) if (local.clientId !== clientId) this.send(local, { type: 'peer-left', clientId });
    }
  }
}

const byPlatform = new WeakMap<object, MeetingRooms>();

/** One set of rooms per platform (the HTTP routes end meetings the WebSocket server holds). */
export function roomsOf(platform: { roomBus: RoomBus; config: { MEETING_PRESENCE_TTL_MS: number }; logger: Log }): MeetingRooms {
  let rooms = byPlatform.get(platform);
  if (!rooms) byPlatform.set(platform, (rooms = new MeetingRooms(platform.roomBus, { ttlMs: platform.config.MEETING_PRESENCE_TTL_MS, log: platform.logger })));
  return rooms;
}
