import { sql } from 'kysely';
import type { Db, Executor, Tx } from '../../db/database';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Cross-process invalidation of cached credentials. Each process caches resolved API keys (and
 * their organisation) for AUTH_CACHE_TTL_MS; a change made elsewhere (the operator CLI, another
 * server) would otherwise stay invisible that long. Every change that narrows a credential's reach
 * moves one counter in the same transaction; each process reads the counter at most every
 * CREDENTIAL_EPOCH_CHECK_MS and forgets its cache when it moved. Works the same on SQLite and
 * PostgreSQL: one primary-key read per interval per process, amortised across all its requests.
 */
export const CREDENTIAL_EPOCH_CHECK_MS = 250;

/** Moves the epoch; call inside the transaction that revokes a key or changes an organisation. */
export async function bumpCredentialEpoch(trx: Executor, now: Date): Promise<void> {
  await trx
    .updateTable('credentialEpoch')
    .set({ epoch: sql`epoch + 1`, updatedAt: now.toISOString() })
    .where('id', '=', 1)
    .execute();
}

export async function readCredentialEpoch(db: Executor): Promise<number> {
  const row = await db.selectFrom('credentialEpoch').select('epoch').where('id', '=', 1).executeTakeFirst();
  return Number(row?.epoch ?? 0);
}

/** Runs `fn` in the caller's transaction, or in a new unit of work when given the root handle. */
export function inTransaction<T>(db: Executor, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Tx) : inUnitOfWork(db as Db, fn);
}

/**
 * A process's view of the epoch. `current()` answers from memory while the last read is younger
 * than the interval; otherwise one read, shared by every request that arrives meanwhile. Monotonic
 * time, not the platform clock: this bounds staleness between processes in real time.
 */
export class CredentialEpochWatch {
  private epoch = 0;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number = CREDENTIAL_EPOCH_CHECK_MS,
  ) {}

  /** The epoch as last read; reads it again first when the last read is older than the interval. */
  current(): number | Promise<number> {
    if (performance.now() - this.checkedAt < this.intervalMs) return this.epoch;
    this.pending ??= this.refresh();
    return this.pending;
  }

  private async refresh(): Promise<number> {
    const startedAt = performance.now();
    try {
      this.epoch = await readCredentialEpoch(this.db);
      this.checkedAt = startedAt;
      return this.epoch;
    } finally {
      this.pending = undefined;
    }
  }
}
