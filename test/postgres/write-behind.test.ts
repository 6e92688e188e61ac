import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '../../server/platform/db/database';
import { precompiled, writeBehind } from '../../server/platform/db/precompiled';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';

/**
 * PostgreSQL only: statements written without waiting for their answer (pipelined-pool.ts) fail their
 * transaction exactly as awaited ones do, with their own error, and never let a commit through.
 */
const url = process.env.TEST_DATABASE_URL!;
const schema = `write_behind_${crypto.randomBytes(4).toString('hex')}`;
let handle: DatabaseHandle;
let db: Db;

type Row = { id: string; note: string };
const insertBehind = writeBehind((d, row: Row) => (d as any).insertInto('wbItems').values(row));
const insertAwaited = precompiled((d, row: Row) => (d as any).insertInto('wbItems').values(row));
const ids = async () => (await sql<{ id: string }>`select id from wb_items order by id`.execute(db)).rows.map((r) => r.id);

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  handle = openDatabase({ databaseUrl: url, pgSchema: schema, poolSize: 2 });
  db = handle.db;
  await sql`create table wb_items (id text primary key, note text not null)`.execute(db);
});

afterAll(async () => {
  await handle?.close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

describe('write-behind statements on PostgreSQL', () => {
  it('commit with the transaction, in the order they were written, also mixed with awaited statements', async () => {
    await inUnitOfWork(db, async (tx) => {
      await insertBehind(tx, { id: 'a1', note: 'one' });
      await insertBehind(tx, { id: 'a2', note: 'two' });
      // Written behind a2 on the same connection, so it sees both.
      const seen = await sql<{ n: number }>`select count(*)::int as n from wb_items where id like 'a%'`.execute(tx);
      expect(seen.rows[0]!.n).toBe(2);
      await insertAwaited(tx, { id: 'a3', note: 'three' });
    });
    expect(await ids()).toEqual(['a1', 'a2', 'a3']);
  });

  it('when a write-behind statement fails, then the next awaited statement throws its error and nothing commits', async () => {
    await insertAwaited(db, { id: 'b0', note: 'existing' });
    const failed = inUnitOfWork(db, async (tx) => {
      await insertBehind(tx, { id: 'b1', note: 'fine' });
      await insertBehind(tx, { id: 'b0', note: 'duplicate' });
      await sql`select 1`.execute(tx);
      throw new Error('not reached: the select above must throw');
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).not.toContain('b1');
  });

  it('when the last statement before the commit is a failing write-behind one, then the commit throws its error and nothing commits', async () => {
    await insertAwaited(db, { id: 'c0', note: 'existing' });
    const failed = inUnitOfWork(db, async (tx) => {
      await insertAwaited(tx, { id: 'c1', note: 'fine' });
      await insertBehind(tx, { id: 'c0', note: 'duplicate' });
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).not.toContain('c1');
  });

  it('when the work catches an error, then a write-behind failure before it still refuses the commit', async () => {
    const failed = inUnitOfWork(db, async (tx) => {
      await insertAwaited(tx, { id: 'd1', note: 'fine' });
      await insertBehind(tx, { id: 'd1', note: 'duplicate' });
      await sql`select 1`.execute(tx).catch(() => undefined);
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).not.toContain('d1');
  });

  it('after a failed transaction the connection serves the next one normally', async () => {
    for (let i = 0; i < 4; i++) {
      await inUnitOfWork(db, async (tx) => {
        await insertBehind(tx, { id: `e${i}`, note: 'ok' });
      });
    }
    expect((await ids()).filter((id) => id.startsWith('e'))).toEqual(['e0', 'e1', 'e2', 'e3']);
  });

  it('when another process adds a column, then statements reading * still run on connections that ran them before', async () => {
    const byId = precompiled((d, a: { id: string }) => (d as any).selectFrom('wbItems').selectAll().where('id', '=', a.id));
    const noteOf = precompiled((d, a: { id: string }) => (d as any).selectFrom('wbItems').select('note').where('id', '=', a.id));
    await insertAwaited(db, { id: 'g0', note: 'before' });
    // Both connections of the pool run both statements.
    await Promise.all([byId(db, { id: 'g0' }), byId(db, { id: 'g0' }), noteOf(db, { id: 'g0' }), noteOf(db, { id: 'g0' })]);
    await sql`alter table wb_items add column extra text`.execute(db);
    for (let i = 0; i < 4; i++) {
      const [star, note] = await Promise.all([byId(db, { id: 'g0' }), noteOf(db, { id: 'g0' })]);
      expect(star.rows[0]).toMatchObject({ id: 'g0', note: 'before', extra: null });
      expect(note.rows[0]).toEqual({ note: 'before' });
    }
  });

  it('outside a transaction a write-behind statement is simply awaited (its error is thrown by its own call)', async () => {
    await insertAwaited(db, { id: 'f0', note: 'existing' });
    await expect(insertBehind(db, { id: 'f0', note: 'duplicate' })).rejects.toMatchObject({ code: '23505' });
  });
  it('statements written in one tick leave in one socket write: begin, the write-behind ones and the one waited for', async () => {
    await sql`select 1`.execute(db); // a connection is open and idle
    const writes: number[] = [];
    const proto = net.Socket.prototype as unknown as { _writev: (chunks: unknown[], ...rest: unknown[]) => unknown; _write: (...a: unknown[]) => unknown };
    const [writev, write] = [proto._writev, proto._write];
    proto._writev = function (this: unknown, chunks: unknown[], ...rest: unknown[]) {
      writes.push(chunks.length);
      return writev.call(this, chunks, ...rest);
    };
    proto._write = function (this: unknown, ...args: unknown[]) {
      writes.push(1);
      return write.apply(this, args);
    };
    try {
      await inUnitOfWork(db, async (tx) => {
        await insertBehind(tx, { id: 'c1', note: 'one' });
        await insertBehind(tx, { id: 'c2', note: 'two' });
        await sql`select count(*) from wb_items`.execute(tx);
        expect(writes).toHaveLength(1);
        // begin, two inserts and the select: each is several protocol messages, all in the one write.
        expect(writes[0]).toBeGreaterThanOrEqual(4);
      });
    } finally {
      [proto._writev, proto._write] = [writev, write];
    }
    // The commit was its own write, once the select had answered.
    expect(writes).toHaveLength(2);
    expect(await ids()).toContain('c2');
  });
});
