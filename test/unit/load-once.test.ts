import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../server/shared/load-once';

describe('loadOnce', () => {
  it('loads once for any number of callers, also while the load runs', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return { value: loads };
    });
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let attempts = 0;
    const load = loadOnce(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('EMFILE: too many open files');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('EMFILE');
    await expect(load()).resolves.toBe('loaded');
    await expect(load()).resolves.toBe('loaded');
    expect(attempts).toBe(2);
  });
});
