import { drawRandom, randomPool as pool } from './random';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

let lastMs = 0;
let counter = 0;

/**
 * Time-ordered UUID (version 7, RFC 9562) with a 12-bit counter in `rand_a`, so ids made by one
 * process sort in creation order even within a millisecond, and 62 random bits in `rand_b` (from the pooled CSPRNG, `random.ts`).
 *
 * Every primary key is one: a new row's key lands at the right-hand edge of its index (B-trees on
 * both databases) instead of on a random page, so a transaction that inserts a dozen rows dirties
 * a dozen fewer pages and the index pages a write needs are the ones already in cache. Ids say when
 * they were made (to the millisecond); every record also shows that as `createdAt`.
 */
export function newOrderedId(): string {
  const now = Date.now();
  if (now <= lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  const ms = lastMs;
  const high = Math.floor(ms / 0x10000); // the top 32 of the 48 timestamp bits
  const r = drawRandom(8);
  return (
    HEX[(high >>> 24) & 0xff]! + HEX[(high >>> 16) & 0xff]! + HEX[(high >>> 8) & 0xff]! + HEX[high & 0xff]! +
    '-' + HEX[(ms >>> 8) & 0xff]! + HEX[ms & 0xff]! +
    '-' + HEX[0x70 | (counter >>> 8)]! + HEX[counter & 0xff]! +
    '-' + HEX[(pool[r]! & 0x3f) | 0x80]! + HEX[pool[r + 1]!]! +
    '-' + HEX[pool[r + 2]!]! + HEX[pool[r + 3]!]! + HEX[pool[r + 4]!]! + HEX[pool[r + 5]!]! + HEX[pool[r + 6]!]! + HEX[pool[r + 7]!]!
  );
}

/** A new primary key: a time-ordered UUIDv7 (see `newOrderedId`). */
export const newId = (): string => newOrderedId();
