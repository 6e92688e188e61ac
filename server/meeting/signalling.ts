import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { loadOnce } from '../shared/load-once';
import type { Platform } from '../platform/platform';
import { fullName } from '../platform/domain/appointments/appointment';
import { meetingClosedReason, openSeat, type MeetingSeat } from '../platform/domain/appointments/meeting-access';
import { participantConnected, participantDisconnected } from '../platform/domain/appointments/meeting-presence';
import { newConnectionId, type MeetingRooms, type RoomPeer } from './meeting-rooms';
import { inUnitOfWork } from '../platform/domain/unit-of-work';

/**
 * WebRTC signalling over a WebSocket on the platform's own HTTP server (`/meet/ws`, the `ws`
 * library). The upgrade is authorised like the page: the participant's key from the meeting cookie,
 * inside the meeting's window, and the Origin must be this server's. Protocol (JSON text frames):
 *
 *   server → client  {type: 'welcome', self, peers: [{clientId, name, role}]}   on connect
 *                    {type: 'peer-joined', peer} / {type: 'peer-left', clientId}
 *                    {type: 'signal', from, data}                                relayed offer/answer/ICE candidate
 *                    {type: 'ended'}                                             the consultation is over (then close 4000)
 *                    {type: 'replaced'}                                          the same participant connected elsewhere (then close 4001)
 *   client → server  {type: 'signal', to, data}                                  to a peer of the same room
 *
 * The peers of one room may be connected to different processes: everything between them goes through the
 * `RoomBus` (see meeting-rooms.ts and docs/scale/meetings.md), so no sticky routing is needed.
 * The newcomer makes the offers to the peers already there. Connections are pinged every 15 s; a
 * peer that misses a pong is dropped. Rooms are re-checked every 10 s so a meeting completed by
 * another process (or the sweep) closes here too.
 */
const PATH = '/meet/ws';
const MAX_MESSAGE_BYTES = 64 * 1024;

function refuse(socket: Duplex, status: number, text: string): void {
  socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function sameOrigin(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export function attachSignalling(server: http.Server, platform: Platform, rooms: MeetingRooms): { close(): void } {
  // The WebSocket server (and `ws`) is made by the first accepted upgrade, not at start-up: most processes never see one.
  let wss: WebSocketServer | undefined;
  const sockets = loadOnce(async () => (wss = new (await import('ws')).WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })));
  const window = { earlyJoinMinutes: platform.config.APPOINTMENT_EARLY_JOIN_MINUTES };
  const alive = new WeakSet<WebSocket>();

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PATH) return refuse(socket, 404, 'Not Found');
    if (!sameOrigin(req)) return refuse(socket, 403, 'Forbidden');
    // Read the cookie without importing the router (no cycle).
    const cookie = (req.headers.cookie ?? '').split(';').map((p) => p.trim()).find((p) => p.startsWith('tm_meeting='));
    const key = cookie ? decodeURIComponent(cookie.slice('tm_meeting='.length)) : '';
    openSeat(platform.db, platform.secrets, key, platform.clock.now(), window).then(
      (seat) =>
        sockets().then(
          (server) => server.handleUpgrade(req, socket, head, (ws) => void onConnection(ws, seat)),
          () => refuse(socket, 503, 'Service Unavailable'),
        ),
      () => refuse(socket, 403, 'Forbidden'),
    );
  };

  async function onConnection(ws: WebSocket, seat: MeetingSeat): Promise<void> {
    const { appointment, participant } = seat;
    const peer: RoomPeer = { clientId: participant.clientId, participantId: participant.id, name: fullName(participant), role: participant.role, socket: ws, connection: newConnectionId() };
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
    // Messages that arrive while the join is being announced are handled after it, in order.
    let ready: Promise<unknown> = Promise.resolve();
    let joined = false;
    ws.on('message', (raw, isBinary) => {
      if (isBinary) return;
      let message: { type?: unknown; to?: unknown; data?: unknown };
      try {
        message = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (message?.type !== 'signal' || typeof message.to !== 'string' || typeof message.data !== 'object' || message.data === null) return;
      const { to, data } = message;
      ready = ready.then(() => (joined ? rooms.relay(appointment.id, peer.clientId, to, data) : undefined)).catch((error) => platform.logger.warn({ err: error }, 'meeting: could not relay a signal'));
    });
    ws.on('close', () => {
      // A replaced connection is not a departure: the participant is still here on the new one.
      ready = ready.then(() => rooms.leave(appointment.id, peer.clientId, ws)).catch((error) => platform.logger.warn({ err: error }, 'meeting: could not announce a leave'));
      participantDisconnected(platform.db, participant.id, platform.clock.now()).catch((error) => platform.logger.warn({ err: error }, 'meeting: could not record a leave'));
    });
    ready = (async () => {
      try {
        await inUnitOfWork(platform.db, (tx) => participantConnected(tx, seat, platform.clock.now()));
        const others = await rooms.join(appointment.id, peer);
        joined = true;
        rooms.send(peer, { type: 'welcome', self: peer.clientId, peers: others });
      } catch (error) {
        platform.logger.error({ err: error }, 'meeting: could not join a room');
        ws.close(1011, 'unavailable');
      }
    })();
    await ready;
  }

  const heartbeat = setInterval(() => {
    for (const ws of wss?.clients ?? []) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, 15_000);
  heartbeat.unref();

  const recheck = setInterval(() => {
    void (async () => {
      for (const appointmentId of rooms.appointmentIds()) {
        const row = await platform.db.selectFrom('appointments').selectAll().where('id', '=', appointmentId).executeTakeFirst();
        if (!row || meetingClosedReason(row, platform.clock.now(), window)) await rooms.end(appointmentId);
      }
    })().catch((error) => platform.logger.warn({ err: error }, 'meeting: room check failed'));
  }, 10_000);
  recheck.unref();

  rooms.start();
  server.on('upgrade', onUpgrade);
  return {
    close() {
      rooms.stop();
      clearInterval(heartbeat);
      clearInterval(recheck);
      server.off('upgrade', onUpgrade);
      for (const ws of wss?.clients ?? []) ws.close(1001, 'server shutting down');
      wss?.close();
    },
  };
}
