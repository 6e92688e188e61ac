import type { WebSocket } from 'ws';

export interface RoomPeer {
  clientId: string;
  participantId: string;
  name: string;
  role: string;
  socket: WebSocket;
}

/**
 * The meeting rooms of this process: appointment id → connected peers (one socket per participant;
 * a second connection of the same participant replaces the first). Signalling is relayed between
 * the peers of one room only. Rooms live in the process that holds the sockets: with several
 * processes, route a meeting's WebSocket and page traffic to one process (sticky by meeting).
 */
export class MeetingRooms {
  private readonly rooms = new Map<string, Map<string, RoomPeer>>();

  peers(appointmentId: string): RoomPeer[] {
    return [...(this.rooms.get(appointmentId)?.values() ?? [])];
  }

  /** Adds the peer; returns the connection it replaced, if any. */
  join(appointmentId: string, peer: RoomPeer): RoomPeer | undefined {
    let room = this.rooms.get(appointmentId);
    if (!room) this.rooms.set(appointmentId, (room = new Map()));
    const previous = room.get(peer.clientId);
    room.set(peer.clientId, peer);
    return previous;
  }

  /** Removes the peer if `socket` is still its current connection; true when it was. */
  leave(appointmentId: string, clientId: string, socket: WebSocket): boolean {
    const room = this.rooms.get(appointmentId);
    if (!room || room.get(clientId)?.socket !== socket) return false;
    room.delete(clientId);
    if (room.size === 0) this.rooms.delete(appointmentId);
    return true;
  }

  send(peer: RoomPeer, message: unknown): void {
    if (peer.socket.readyState === peer.socket.OPEN) peer.socket.send(JSON.stringify(message));
  }

  broadcast(appointmentId: string, message: unknown, except?: string): void {
    for (const peer of this.peers(appointmentId)) if (peer.clientId !== except) this.send(peer, message);
  }

  /** Tells everyone the consultation is over and closes their connections. */
  end(appointmentId: string): void {
    for (const peer of this.peers(appointmentId)) {
      this.send(peer, { type: 'ended' });
      peer.socket.close(4000, 'consultation ended');
    }
    this.rooms.delete(appointmentId);
  }

  appointmentIds(): string[] {
    return [...this.rooms.keys()];
  }
}

const byPlatform = new WeakMap<object, MeetingRooms>();

/** One set of rooms per platform (the HTTP routes end meetings the WebSocket server holds). */
export function roomsOf(platform: object): MeetingRooms {
  let rooms = byPlatform.get(platform);
  if (!rooms) byPlatform.set(platform, (rooms = new MeetingRooms()));
  return rooms;
}
