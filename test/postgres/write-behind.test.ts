import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '../../server/platform/db/database';
import { checkpoint, guardedWriteBehind, precompiled, together, writeBehind } from '../../server/platform/db/precompiled';
import { columnTypes } from '../../server/platform/db/migrate';
import { up as guardedWritesMigration } from '../../server/platform/db/migrations/0039-guarded-writes';
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
  await guardedWritesMigration(db as never, columnTypes('postgres'));
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
    const { writes } = await countingWrites((writes) =>
      inUnitOfWork(db, async (tx) => {
        await insertBehind(tx, { id: 'c1', note: 'one' });
        await insertBehind(tx, { id: 'c2', note: 'two' });
        await sql`select count(*) from wb_items`.execute(tx);
        expect(writes).toHaveLength(1);
        // begin, two inserts and the select: each is several protocol messages, all in the one write.
        expect(writes[0]).toBeGreaterThanOrEqual(4);
      }),
    );
    // The commit was its own write, once the select had answered.
    expect(writes).toHaveLength(2);
    expect(await ids()).toContain('c2');
  });
});

/** Counts the socket writes made while `work` runs (each write's number of chunks). */
async function countingWrites<T>(work: (writes: number[]) => Promise<T>): Promise<{ writes: number[]; result: T }> {
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
    return { writes, result: await work(writes) };
  } finally {
    [proto._writev, proto._write] = [writev, write];
  }
}

class Refused extends Error {}
const renote = guardedWriteBehind((d, a: { id: string; from: string; to: string }) =>
  (d as any).updateTable('wbItems').set({ note: a.to }).where('id', '=', a.id).where('note', '=', a.from),
);
const noteOf = async (id: string) => (await sql<{ note: string }>`select note from wb_items where id = ${id}`.execute(db)).rows[0]?.note;

describe('guarded writes checked with the commit, on PostgreSQL', () => {
  it('when the guard holds, then the write leaves with the commit (one socket write for begin, the write and the commit) and commits', async () => {
    await insertAwaited(db, { id: 'h1', note: 'draft' });
    await sql`select 1`.execute(db);
    const { writes } = await countingWrites(() =>
      inUnitOfWork(db, (tx) => renote(tx, { id: 'h1', from: 'draft', to: 'final' }, () => new Refused('h1 moved meanwhile'))),
    );
    expect(writes).toHaveLength(1);
    expect(await noteOf('h1')).toBe('final');
  });

  it('when the guard matches no row, then the commit throws the caller\'s refusal (not the database\'s error) and nothing of the transaction commits', async () => {
    await insertAwaited(db, { id: 'i1', note: 'final' });
    const failed = inUnitOfWork(db, async (tx) => {
      await insertAwaited(tx, { id: 'i2', note: 'written before' });
      await renote(tx, { id: 'i1', from: 'draft', to: 'again' }, () => new Refused('i1 is not a draft any more'));
      await insertBehind(tx, { id: 'i3', note: 'written after' });
    });
    await expect(failed).rejects.toThrow(Refused);
    await expect(failed).rejects.toThrow('i1 is not a draft any more');
    expect(await ids()).not.toContain('i2');
    expect(await ids()).not.toContain('i3');
    expect(await noteOf('i1')).toBe('final');
  });

  it('when the guard matches no row, then the next statement waited for throws the refusal, also if the work catches it', async () => {
    await insertAwaited(db, { id: 'j1', note: 'final' });
    let thrown: unknown;
    const failed = inUnitOfWork(db, async (tx) => {
      await renote(tx, { id: 'j1', from: 'draft', to: 'again' }, () => new Refused('j1 moved'));
      thrown = await sql`select 1`.execute(tx).then(() => undefined, (error: unknown) => error);
    });
    await expect(failed).rejects.toThrow(Refused);
    expect(thrown).toBeInstanceOf(Refused);
  });

  it('a checkpoint waits for what was written and throws a refusal before the work goes on (a provider is never asked); with nothing pending it sends nothing', async () => {
    await insertAwaited(db, { id: 'k1', note: 'final' });
    let providerAsked = false;
    const failed = inUnitOfWork(db, async (tx) => {
      await renote(tx, { id: 'k1', from: 'draft', to: 'again' }, () => new Refused('k1 moved'));
      await checkpoint(tx);
      providerAsked = true;
    });
    await expect(failed).rejects.toThrow(Refused);
    expect(providerAsked).toBe(false);

    await inUnitOfWork(db, async (tx) => {
      await insertAwaited(tx, { id: 'k2', note: 'x' });
      const { writes } = await countingWrites(() => checkpoint(tx));
      expect(writes).toEqual([]);
    });
  });

  it('an error other than the guard\'s (a constraint) stays the database\'s own', async () => {
    await insertAwaited(db, { id: 'l1', note: 'draft' });
    const failed = inUnitOfWork(db, (tx) => renote(tx, { id: 'l1', from: 'draft', to: null as unknown as string }, () => new Refused('not this')));
    await expect(failed).rejects.toMatchObject({ code: '23502' });
    expect(await noteOf('l1')).toBe('draft');
  });

  it('outside a transaction a guarded write is waited for: its own call throws the refusal', async () => {
    await insertAwaited(db, { id: 'm1', note: 'final' });
    await expect(renote(db, { id: 'm1', from: 'draft', to: 'x' }, () => new Refused('m1 moved'))).rejects.toThrow(Refused);
    await renote(db, { id: 'm1', from: 'final', to: 'closed' }, () => new Refused('not this'));
    expect(await noteOf('m1')).toBe('closed');
  });

  it('of two transactions guarded on the same row, exactly one commits; the other is refused with its own error', async () => {
    await insertAwaited(db, { id: 'n1', note: 'open' });
    const results = await Promise.allSettled(
      ['first', 'second'].map((to) => inUnitOfWork(db, (tx) => renote(tx, { id: 'n1', from: 'open', to }, () => new Refused(`${to} lost`)))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(Refused);
    expect(['first', 'second']).toContain(await noteOf('n1'));
  });
});

describe('statements sent together, on PostgreSQL', () => {
  const get = precompiled((d, a: { id: string }) => (d as any).selectFrom('wbItems').select(['id', 'note']).where('id', '=', a.id));

  it('leave in one socket write and answer in order', async () => {
    await insertAwaited(db, { id: 'o1', note: 'one' });
    await insertAwaited(db, { id: 'o2', note: 'two' });
    await inUnitOfWork(db, async (tx) => {
      await sql`select 1`.execute(tx);
      const { writes, result } = await countingWrites(() => together(tx, [get.compiled(tx, { id: 'o2' }), get.compiled(tx, { id: 'o1' })]));
      expect(writes).toHaveLength(1);
      expect(result.map((r) => r.rows)).toEqual([[{ id: 'o2', note: 'two' }], [{ id: 'o1', note: 'one' }]]);
    });
  });

  it('when the first fails, then its error is thrown and the transaction commits nothing', async () => {
    await insertAwaited(db, { id: 'p0', note: 'existing' });
    const failed = inUnitOfWork(db, async (tx) => {
      await insertAwaited(tx, { id: 'p1', note: 'fine' });
      await together(tx, [insertAwaited.compiled(tx, { id: 'p0', note: 'duplicate' }), get.compiled(tx, { id: 'p1' })]);
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).not.toContain('p1');
  });
});
