import { describe, expect, it } from 'vitest';
import { isUuid, newId, newOrderedId } from '../../server/platform/domain/ids';
import { drawRandom, randomBytes, randomPool } from '../../server/platform/domain/random';

const timestampOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('ids', () => {
  it('are RFC 9562 version 7 UUIDs carrying the time they were made', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(isUuid(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after + 1);
  });

  it('sort in creation order, also many within one millisecond, and never repeat', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keep 62 random bits after the timestamp and counter', () => {
    const tails = Array.from({ length: 1000 }, () => newOrderedId().slice(19).replace('-', ''));
    expect(new Set(tails).size).toBe(1000);
    // The variant's two bits are fixed; the other 62 vary (every hex digit takes many values).
    for (let digit = 1; digit < 16; digit++) expect(new Set(tails.map((t) => t[digit])).size).toBeGreaterThan(8);
  });
});

describe('pooled random bytes', () => {
  it('draws consecutive, never overlapping ranges, and refills the pool instead of running past its end', () => {
    let at = drawRandom(100);
    for (let i = 0; i < 200; i++) {
      const next = drawRandom(100);
      if (next !== 0) expect(next).toBe(at + 100); // a refill starts again at 0
      else expect(at + 200).toBeGreaterThan(randomPool.length);
      at = next;
    }
  });

  it('wipes the bytes it hands out from the pool', () => {
    const before = drawRandom(0);
    const bytes = randomBytes(16);
    const at = before + 16 <= randomPool.length ? before : 0;
    expect(bytes.some((b) => b !== 0)).toBe(true);
    expect(randomPool.subarray(at, at + 16).every((b) => b === 0)).toBe(true);
  });

  it('hands every byte out once: draws never overlap, also across a refill', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('returns a copy that a later draw does not change', () => {
    const first = randomBytes(16);
    const copy = Buffer.from(first);
    for (let i = 0; i < 600; i++) randomBytes(16);
    expect(first.equals(copy)).toBe(true);
    expect(randomBytes(1000)).toHaveLength(1000);
  });
});
