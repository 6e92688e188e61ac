import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../server/platform/db/database';
import { checkpoint, guardedWriteBehind, precompiled, together } from '../../server/platform/db/precompiled';

const handle = openDatabase({ sqliteFile: ':memory:' });
const db = handle.db as unknown as Db;
afterAll(() => handle.close());

type Item = { id: string; name: string; note?: string | null; rank?: number };
const insert = precompiled((d, a: { rows: Item[] }) => (d as any).insertInto('items').values(a.rows));
const update = precompiled((d, a: { id: string; set: Partial<Item> }) => (d as any).updateTable('items').set(a.set).where('id', '=', a.id));
const all = async () => (await sql<Item>`select id, name, note, rank from items order by id`.execute(db)).rows;

describe('precompiled statements', () => {
  it('compile once per argument shape and stay right when calls alternate between shapes', async () => {
    await sql`create table items (id text primary key, name text not null, note text, rank integer)`.execute(db);
    await insert(db, { rows: [{ id: 'a', name: 'one' }] });
    await insert(db, { rows: [{ id: 'b', name: 'two', note: 'n', rank: 2 }, { id: 'c', name: 'three' }] });
    await insert(db, { rows: [{ id: 'd', name: 'four', note: undefined, rank: 4 }] });
    await insert(db, { rows: [{ id: 'e', name: 'five' }] });
    await update(db, { id: 'a', set: { note: 'first' } });
    await update(db, { id: 'b', set: { rank: 20, note: null } });
    await update(db, { id: 'c', set: { note: 'third' } });
    // Same keys, other order: another statement, not the last one's parameters in the wrong columns.
    await update(db, { id: 'd', set: { rank: 40, name: 'FOUR' } });
    await update(db, { id: 'e', set: { name: 'FIVE', rank: 50 } });
    expect(await all()).toEqual([
      { id: 'a', name: 'one', note: 'first', rank: null },
      { id: 'b', name: 'two', note: null, rank: 20 },
      { id: 'c', name: 'three', note: 'third', rank: null },
      { id: 'd', name: 'FOUR', note: null, rank: 40 },
      { id: 'e', name: 'FIVE', note: null, rank: 50 },
    ]);
  });

  it('refuses a build that puts an argument value into the SQL text instead of a parameter', () => {
    const bad = precompiled((d, a: { id: string }) => (d as any).selectFrom('items').selectAll().where('id', '=', sql.lit(String(a.id))));
    expect(() => bad(db, { id: 'a' })).toThrow(/placed 0 of 1 argument values/);
  });

  it('on SQLite a guarded write runs at once: a guard matching no row throws the caller\'s refusal then and there', async () => {
    const rename = guardedWriteBehind((d, a: { id: string; from: string; to: string }) =>
      (d as any).updateTable('items').set({ name: a.to }).where('id', '=', a.id).where('name', '=', a.from),
    );
    await rename(db, { id: 'a', from: 'one', to: 'uno' }, () => new Error('refused'));
    await expect(rename(db, { id: 'a', from: 'one', to: 'eins' }, () => new Error('refused: a is not "one" any more'))).rejects.toThrow('refused: a is not "one" any more');
    expect((await all()).find((r) => r.id === 'a')!.name).toBe('uno');
    // Nothing is ever pending on SQLite: a checkpoint has nothing to wait for.
    await checkpoint(db);
  });

  it('statements sent together answer in order, through the plugins (rows camelCased), on SQLite simply one after another', async () => {
    await sql`create table pairs (pair_id text primary key, left_name text)`.execute(db);
    const put = precompiled((d, a: { pairId: string; leftName: string }) => (d as any).insertInto('pairs').values(a).returning(['pairId', 'leftName']));
    const get = precompiled((d, a: { pairId: string }) => (d as any).selectFrom('pairs').select(['pairId', 'leftName']).where('pairId', '=', a.pairId));
    const [inserted, read] = await together(db, [put.compiled(db, { pairId: 'p1', leftName: 'L' }), get.compiled(db, { pairId: 'p1' })]);
    expect(inserted.rows).toEqual([{ pairId: 'p1', leftName: 'L' }]);
    expect(read.rows).toEqual([{ pairId: 'p1', leftName: 'L' }]);
  });
});
