import crypto from 'node:crypto';

/**
 * Random bytes from the CSPRNG, drawn a few kilobytes at a time and handed out from a pool (as
 * `crypto.randomUUID` does internally): one system call per 4 KiB instead of one per id, token or
 * IV. Every byte is handed out once.
 */
export const randomPool = Buffer.alloc(4096);
let poolOffset = randomPool.length;

/** Takes `count` (at most 4096) fresh bytes; returns their offset in `randomPool`, valid until the next draw. */
export function drawRandom(count: number): number {
  if (poolOffset + count > randomPool.length) {
    crypto.randomFillSync(randomPool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += count;
  return at;
}

/** `count` fresh random bytes in a buffer of their own (wiped from the pool once copied). */
export function randomBytes(count: number): Buffer {
  if (count > 256) return crypto.randomBytes(count);
  const at = drawRandom(count);
  const bytes = Buffer.from(randomPool.subarray(at, at + count));
  randomPool.fill(0, at, at + count);
  return bytes;
}
