import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv } from '../support/harness';
import { channelOf, PostgresRoomBus } from '../../server/integrations/room-bus/postgres';
import { LARGE_SDP } from '../support/meeting-processes';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';

/** The PostgreSQL room bus on its own: two instances stand for two processes. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let a: PostgresRoomBus;
let b: PostgresRoomBus;
const warnings: string[] = [];
const log = { warn: (_: object, message: string) => void warnings.push(message) };

beforeAll(async () => {
  database = await freshDatabaseEnv();
  // The presence table comes with the migrations (0036), as for a server.
  const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL!, pgSchema: database.pgSchema });
  await migrateToLatest(handle, database.pgSchema);
  await handle.close();
  a = new PostgresRoomBus(database.env.DATABASE_URL!, log);
  b = new PostgresRoomBus(database.env.DATABASE_URL!, log);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
});

describe('PostgreSQL room bus', () => {
  it('carries a message bigger than the NOTIFY limit whole, and one publisher’s messages in order', async () => {
    const room = crypto.randomUUID();
    const got: Array<Record<string, unknown>> = [];
    await a.subscribe(room, (m) => got.push(m));
    const big = { kind: 'signal', data: { description: { type: 'offer', sdp: LARGE_SDP } } };
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(8000);
    await b.publish(room, big);
    for (let i = 0; i < 20; i++) void b.publish(room, { kind: 'n', i });
    await b.publish(room, { kind: 'last' });
    await expect.poll(() => got.length).toBe(22);
    expect(got[0]).toEqual(big);
    expect(got.slice(1, 21).map((m) => m.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('shares presence between instances: the last announcement wins, a stale connection cannot withdraw, entries expire', async () => {
    const room = crypto.randomUUID();
    await a.announce(room, { clientId: 'p', connection: 'c1', name: 'Amaka Eze', role: 'patient' }, 60_000);
    await b.announce(room, { clientId: 'd', connection: 'c9', name: 'Tunde Bakare', role: 'doctor' }, 400);
    expect(await b.present(room)).toEqual([
      { clientId: 'd', connection: 'c9', name: 'Tunde Bakare', role: 'doctor' },
      { clientId: 'p', connection: 'c1', name: 'Amaka Eze', role: 'patient' },
    ]);
    await b.announce(room, { clientId: 'p', connection: 'c2', name: 'Amaka Eze', role: 'patient' }, 60_000);
    expect(await a.withdraw(room, 'p', 'c1')).toBe(false);
    await expect.poll(async () => (await a.present(room)).map((p) => `${p.clientId}:${p.connection}`), { timeout: 3_000 }).toEqual(['p:c2']);
    expect(await b.withdraw(room, 'p', 'c2')).toBe(true);
    expect(await a.present(room)).toEqual([]);
  });

  it('listens again after its LISTEN connection is killed', async () => {
    const room = crypto.randomUUID();
    const got: Array<Record<string, unknown>> = [];
    await a.subscribe(room, (m) => got.push(m));
    const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query = $1`, [`listen "${channelOf(room)}"`]);
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await expect.poll(() => warnings.includes('meeting bus: LISTEN connection lost; reconnecting')).toBe(true);
    // Messages published while it was away are not replayed: publish until one gets through.
    let n = 0;
    await expect.poll(async () => {
      await b.publish(room, { kind: 'after', n: n++ });
      return got.some((m) => m.kind === 'after');
    }, { timeout: 10_000, interval: 100 }).toBe(true);
  });
});
