import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { enqueueEvent } from '../../server/platform/domain/events/enqueue-event';
import { onOutboxCommitted } from '../../server/platform/domain/events/outbox-signal';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';
import { defineRoute } from '../../server/platform/http/route';

const handle = openDatabase({ sqliteFile: ':memory:' });
const db = handle.db;
beforeAll(() => migrateToLatest(handle));
afterAll(() => handle.close());

const event = { organisationId: '00000000-0000-7000-8000-000000000001', mode: 'test', event: 'loan.completed', data: {}, now: new Date() } as const;

function countRings() {
  const rings = { count: 0 };
  const stop = onOutboxCommitted(() => void (rings.count += 1));
  return { rings, stop };
}

// Never run: the compiler is the test. The outbox takes a transaction and a catalogue name only.
export function outboxWritersRefuseTheRootHandle(root: Db): void {
  // @ts-expect-error the root handle is not a transaction: an event must commit with its change
  void enqueueEvent(root, event);
  // @ts-expect-error an event name outside the catalogue
  void inUnitOfWork(root, (tx) => enqueueEvent(tx, { ...event, event: 'loan.not_an_event' }));
}

// Never run either: a write route's handler holds the request's transaction, a GET's and a non-transactional route's the root handle.
const route = { path: '/v1/x', operationId: 'x', tag: 'x', summary: 'x', access: 'tenant', response: { status: 200, description: 'x' } } as const;
export const routesTypeTheirHandle = [
  defineRoute({ ...route, method: 'post', handle: async ({ db }) => ({ message: (await enqueueEvent(db, event)).id }) }),
  // @ts-expect-error a GET reads on the root handle
  defineRoute({ ...route, method: 'get', handle: async ({ db }) => ({ message: (await enqueueEvent(db, event)).id }) }),
  // @ts-expect-error a non-transactional route opens its own units of work
  defineRoute({ ...route, method: 'post', transactional: false, handle: async ({ db }) => ({ message: (await enqueueEvent(db, event)).id }) }),
];

describe('the unit of work', () => {
  it('when the work writes an event, then it commits and rings the outbox once, after the commit', async () => {
    const { rings, stop } = countRings();
    let ringsInside = -1;
    const { id } = await inUnitOfWork(db, async (tx) => {
      const written = await enqueueEvent(tx, event);
      ringsInside = rings.count;
      return written;
    });
    stop();
    expect(ringsInside).toBe(0);
    expect(rings.count).toBe(1);
    expect(await db.selectFrom('events').select('name').where('id', '=', id).executeTakeFirst()).toEqual({ name: 'loan.completed' });
  });

  it('when the work writes no event, then it commits without ringing', async () => {
    const { rings, stop } = countRings();
    const answer = await inUnitOfWork(db, async (tx) => (await tx.selectFrom('events').select('id').execute()).length);
    stop();
    expect(answer).toBeGreaterThan(0);
    expect(rings.count).toBe(0);
  });

  it('when the work fails after writing an event, then nothing commits and nothing rings', async () => {
    const { rings, stop } = countRings();
    const before = (await db.selectFrom('events').select('id').execute()).length;
    await expect(
      inUnitOfWork(db, async (tx) => {
        await enqueueEvent(tx, event);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    stop();
    expect(rings.count).toBe(0);
    expect((await db.selectFrom('events').select('id').execute()).length).toBe(before);
  });

  it('every write transaction outside the tests opens through inUnitOfWork', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && !file.endsWith(path.join('domain', 'unit-of-work.ts')) && /\.transaction\(\)\s*\.execute\(/.test(fs.readFileSync(file, 'utf8'))) offenders.push(file);
      }
    };
    walk('server');
    walk('demo');
    expect(offenders).toEqual([]);
  });
});
