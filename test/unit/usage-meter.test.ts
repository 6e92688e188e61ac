import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { UsageMeter } from '../../server/platform/domain/usage/usage-meter';

describe('usage meter', () => {
  it('keeps counts through a failed flush and flushes them once the database works again', async () => {
    const handle = openDatabase({ sqliteFile: ':memory:' });
    try {
      const meter = new UsageMeter(handle.db, new FakeClock('2026-05-01T10:00:00Z'));
      meter.record('org', 'test', 200);
      meter.record('org', 'test', 404);
      // No tables yet: the write fails and the counts go back to pending.
      await expect(meter.flush()).rejects.toThrow();
      await migrateToLatest(handle);
      meter.record('org', 'test', 200);
      await meter.flush();
      const rows = await handle.db.selectFrom('apiUsageDaily').select(['requestCount', 'errorCount']).execute();
      expect(rows).toEqual([{ requestCount: 3, errorCount: 1 }]);
      expect((await meter.rollups('org', 'test', 1))[0]).toMatchObject({ requestCount: 3, errorCount: 1 });
    } finally {
      await handle.close();
    }
  });

  it('never misses counts that a flush is writing while a read runs', async () => {
    const handle = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    try {
      const meter = new UsageMeter(handle.db, new FakeClock('2026-05-01T10:00:00Z'));
      for (let round = 1; round <= 50; round++) {
        meter.record('org', 'live', 200);
        const flushing = meter.flush();
        const [today] = await meter.rollups('org', 'live', 1);
        await flushing;
        expect(today!.requestCount).toBe(round);
      }
    } finally {
      await handle.close();
    }
  });
});
