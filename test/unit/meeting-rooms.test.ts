import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { InProcessRoomBus } from '../../server/integrations/room-bus/in-process';
import { MeetingRooms, type RoomPeer } from '../../server/meeting/meeting-rooms';

/** Two MeetingRooms on one bus stand for two processes; sockets are fakes that record what they were sent. */
class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  sent: Array<Record<string, any>> = [];
  closedWith?: number;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
}
const log = { warn: () => undefined };
const settle = () => new Promise((r) => setTimeout(r, 5));
const peer = (clientId: string, role: string, connection: string) => {
  const socket = new FakeSocket();
  const p: RoomPeer = { clientId, participantId: clientId, name: clientId, role, socket: socket as unknown as WebSocket, connection };
  return { peer: p, socket };
};

describe('meeting rooms over a bus', () => {
  it('a stale socket’s leave does not remove the participant’s newer connection on the other process', async () => {
    const bus = new InProcessRoomBus();
    const [a, b] = [new MeetingRooms(bus, { ttlMs: 60_000, log }), new MeetingRooms(bus, { ttlMs: 60_000, log })];
    const doctor = peer('doc', 'doctor', 'd1');
    expect(await b.join('room', doctor.peer)).toEqual([]);
    const first = peer('pat', 'patient', 'p1');
    expect(await a.join('room', first.peer)).toEqual([{ clientId: 'doc', name: 'doc', role: 'doctor' }]);
    const second = peer('pat', 'patient', 'p2');
    await b.join('room', second.peer);
    await settle();
    expect(first.socket.sent.at(-1)).toEqual({ type: 'replaced' });
    expect(first.socket.closedWith).toBe(4001);
    // The old socket's close arrives late: nothing is announced, the patient is still present.
    await a.leave('room', 'pat', first.peer.socket);
    await settle();
    expect(doctor.socket.sent.map((m) => m.type)).toEqual(['peer-joined', 'peer-left', 'peer-joined']);
    expect((await bus.present('room')).map((p) => p.connection).sort()).toEqual(['d1', 'p2']);
    expect(a.appointmentIds()).toEqual([]);
    // A signal reaches the patient's current socket only.
    await b.relay('room', 'doc', 'pat', { candidate: 'x' });
    await settle();
    expect(second.socket.sent.at(-1)).toEqual({ type: 'signal', from: 'doc', data: { candidate: 'x' } });
    expect(first.socket.sent.filter((m) => m.type === 'signal')).toEqual([]);
    // The current socket leaves: the doctor hears it once.
    await b.leave('room', 'pat', second.peer.socket);
    await settle();
    expect(doctor.socket.sent.at(-1)).toEqual({ type: 'peer-left', clientId: 'pat' });
  });

  it('a participant whose process stops heart-beating is seen to leave after the TTL; ending reaches every process', async () => {
    let now = 0;
    const bus = new InProcessRoomBus(() => now);
    const [a, b] = [new MeetingRooms(bus, { ttlMs: 300, log }), new MeetingRooms(bus, { ttlMs: 300, log })];
    const patient = peer('pat', 'patient', 'p1');
    const doctor = peer('doc', 'doctor', 'd1');
    await a.join('room', patient.peer);
    await b.join('room', doctor.peer);
    b.start();
    try {
      // A "dies": it never announces again. B's heartbeats keep the doctor; the patient's entry expires.
      now = 200;
      await new Promise((r) => setTimeout(r, 250));
      expect(patient.socket.sent.map((m) => m.type)).toEqual(['peer-joined']);
      expect(doctor.socket.sent).toEqual([]);
      now = 400;
      await expect.poll(() => doctor.socket.sent).toEqual([{ type: 'peer-left', clientId: 'pat' }]);
      expect((await bus.present('room')).map((p) => p.clientId)).toEqual(['doc']);
    } finally {
      b.stop();
    }
    await a.end('room');
    await settle();
    expect(doctor.socket.sent.at(-1)).toEqual({ type: 'ended' });
    expect([patient.socket.closedWith, doctor.socket.closedWith]).toEqual([4000, 4000]);
  });
});
