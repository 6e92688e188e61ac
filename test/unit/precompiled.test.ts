import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../server/platform/db/database';
import { precompiled } from '../../server/platform/db/precompiled';

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
});
