import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/platform/db/database';
import { CredentialEpochWatch } from '../../server/platform/domain/api-keys/credential-epoch';

/** A database that answers the epoch read only, counting how often it is asked. */
function countingDb(epoch: { value: number }) {
  const counter = { reads: 0 };
  const db = {
    selectFrom: () => ({
      select: () => ({
        where: () => ({
          executeTakeFirst: async () => {
            counter.reads += 1;
            await new Promise((resolve) => setTimeout(resolve, 5));
            return { epoch: epoch.value };
          },
        }),
      }),
    }),
  } as unknown as Db;
  return { db, counter };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the credential epoch watch', () => {
  it('when many requests arrive at once, then they share one read', async () => {
    const { db, counter } = countingDb({ value: 7 });
    const watch = new CredentialEpochWatch(db, 1_000);
    const seen = await Promise.all(Array.from({ length: 100 }, () => watch.current()));
    expect(new Set(seen)).toEqual(new Set([7]));
    expect(counter.reads).toBe(1);
  });

  it('answers from memory within the interval and reads again once it has passed, seeing the moved epoch', async () => {
    const epoch = { value: 1 };
    const { db, counter } = countingDb(epoch);
    const watch = new CredentialEpochWatch(db, 60);
    expect(await watch.current()).toBe(1);
    epoch.value = 2;
    for (let i = 0; i < 20; i += 1) expect(await watch.current()).toBe(1);
    expect(counter.reads).toBe(1);
    await sleep(80);
    expect(await watch.current()).toBe(2);
    expect(counter.reads).toBe(2);
  });
});
