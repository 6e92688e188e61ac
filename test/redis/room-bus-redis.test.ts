import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRoomBus } from '../../server/integrations/room-bus/redis';
import { LARGE_SDP } from '../support/meeting-processes';

/** The Redis room bus on its own: two instances stand for two processes. */
const url = process.env.TEST_REDIS_URL!;
const tag = crypto.randomBytes(4).toString('hex');
const log = { warn: () => undefined };
let a: RedisRoomBus;
let b: RedisRoomBus;
let admin: Redis;

beforeAll(() => {
  a = new RedisRoomBus(url, log, { connectionName: `test-bus-a-${tag}` });
  b = new RedisRoomBus(url, log, { connectionName: `test-bus-b-${tag}` });
  admin = new Redis(url);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  admin?.disconnect();
});

describe('Redis room bus', () => {
  it('carries a large message whole and one publisher’s messages in order, to the room’s subscribers only', async () => {
    const room = crypto.randomUUID();
    const got: Array<Record<string, unknown>> = [];
    const elsewhere: unknown[] = [];
    await a.subscribe(room, (m) => got.push(m));
    await a.subscribe(crypto.randomUUID(), (m) => elsewhere.push(m));
    const big = { kind: 'signal', data: { description: { type: 'offer', sdp: LARGE_SDP } } };
    await b.publish(room, big);
    for (let i = 0; i < 20; i++) void b.publish(room, { kind: 'n', i });
    await b.publish(room, { kind: 'last' });
    await expect.poll(() => got.length).toBe(22);
    expect(got[0]).toEqual(big);
    expect(got.slice(1, 21).map((m) => m.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(elsewhere).toEqual([]);
  });

  it('shares presence: the last announcement wins, a stale connection cannot withdraw, entries expire', async () => {
    const room = crypto.randomUUID();
    await a.announce(room, { clientId: 'p', connection: 'c1', name: 'Amaka Eze', role: 'patient' }, 60_000);
    await b.announce(room, { clientId: 'd', connection: 'c9', name: 'Tunde Bakare', role: 'doctor' }, 300);
    expect((await b.present(room)).map((p) => `${p.clientId}:${p.connection}:${p.role}`)).toEqual(['d:c9:doctor', 'p:c1:patient']);
    await b.announce(room, { clientId: 'p', connection: 'c2', name: 'Amaka Eze', role: 'patient' }, 60_000);
    expect(await a.withdraw(room, 'p', 'c1')).toBe(false);
    await expect.poll(async () => (await a.present(room)).map((p) => `${p.clientId}:${p.connection}`), { timeout: 3_000 }).toEqual(['p:c2']);
    expect(await b.withdraw(room, 'p', 'c2')).toBe(true);
    expect(await a.present(room)).toEqual([]);
    expect(await admin.pttl(`meet:presence:${room}`)).toBe(-2);
  });

  it('subscribes again after its subscriber connection is killed', async () => {
    const room = crypto.randomUUID();
    const got: Array<Record<string, unknown>> = [];
    await a.subscribe(room, (m) => got.push(m));
    const list = await admin.client('LIST');
    const id = /id=(\d+) [^\n]*name=test-bus-a-\w+-subscriber/.exec(String(list).split('\n').find((l) => l.includes(`name=test-bus-a-${tag}-subscriber`)) ?? '')?.[1];
    expect(id).toBeDefined();
    expect(await admin.client('KILL', 'ID', id!)).toBe(1);
    let n = 0;
    await expect.poll(async () => {
      await b.publish(room, { kind: 'after', n: n++ });
      return got.some((m) => m.kind === 'after');
    }, { timeout: 10_000, interval: 100 }).toBe(true);
  });
});
