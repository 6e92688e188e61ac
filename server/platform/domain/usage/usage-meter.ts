import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Mode } from '../scope';
import type { Clock } from '../ports';

interface Counter {
  organisationId: string;
  mode: Mode;
  day: string;
  requests: number;
  errors: number;
}

export interface UsageRollup {
  day: string;
  requestCount: number;
  errorCount: number;
}

/**
 * Counts authenticated calls per organisation, mode and UTC day in memory and writes them in
 * batches (one upsert per counter per flush), so metering never adds a database write to a request.
 */
export class UsageMeter {
  private pending = new Map<string, Counter>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  record(organisationId: string, mode: Mode, status: number): void {
    const day = this.clock.now().toISOString().slice(0, 10);
    const key = `${organisationId}|${mode}|${day}`;
    let counter = this.pending.get(key);
    if (!counter) {
      counter = { organisationId, mode, day, requests: 0, errors: 0 };
      this.pending.set(key, counter);
    }
    counter.requests += 1;
    if (status >= 400) counter.errors += 1;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Writes what has been counted; on failure the counts go back into the pending set. */
  flush(): Promise<void> {
    // A failed earlier flush must not stop this one (its counts went back to pending).
    this.flushing = this.flushing.catch(() => undefined).then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        for (const c of batch) {
          await this.db
            .insertInto('apiUsageDaily')
            .values({ organisationId: c.organisationId, mode: c.mode, day: c.day, requestCount: c.requests, errorCount: c.errors })
            .onConflict((oc) =>
              oc.columns(['organisationId', 'mode', 'day']).doUpdateSet({
                requestCount: sql`api_usage_daily.request_count + ${c.requests}`,
                errorCount: sql`api_usage_daily.error_count + ${c.errors}`,
              }),
            )
            .execute();
        }
      } catch (error) {
        for (const c of batch) {
          const key = `${c.organisationId}|${c.mode}|${c.day}`;
          const current = this.pending.get(key);
          if (current) {
            current.requests += c.requests;
            current.errors += c.errors;
          } else this.pending.set(key, c);
        }
        throw error;
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  /** Daily rollups for the last `days` days (today included, UTC), oldest first, counting what is not flushed yet. */
  rollups(organisationId: string, mode: Mode, days: number): Promise<UsageRollup[]> {
    // Serialised with flushes: a flush in progress holds counts that are neither pending nor
    // committed yet, and a read between the two would miss them.
    const read = this.flushing.catch(() => undefined).then(() => this.readRollups(organisationId, mode, days));
    this.flushing = read.then(
      () => undefined,
      () => undefined,
    );
    return read;
  }

  private async readRollups(organisationId: string, mode: Mode, days: number): Promise<UsageRollup[]> {
    const today = this.clock.now();
    const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
    const fromDay = from.toISOString().slice(0, 10);
    const rows = await this.db
      .selectFrom('apiUsageDaily')
      .select(['day', 'requestCount', 'errorCount'])
      .where('organisationId', '=', organisationId)
      .where('mode', '=', mode)
      .where('day', '>=', fromDay)
      .execute();
    const byDay = new Map(rows.map((r) => [r.day, { requests: Number(r.requestCount), errors: Number(r.errorCount) }]));
    for (const c of this.pending.values()) {
      if (c.organisationId !== organisationId || c.mode !== mode || c.day < fromDay) continue;
      const entry = byDay.get(c.day) ?? { requests: 0, errors: 0 };
      entry.requests += c.requests;
      entry.errors += c.errors;
      byDay.set(c.day, entry);
    }
    // A dense series: every day of the window, zeros included, so charts need no gap filling.
    return Array.from({ length: days }, (_, i) => {
      const day = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const v = byDay.get(day) ?? { requests: 0, errors: 0 };
      return { day: `${day}T00:00:00.000Z`, requestCount: v.requests, errorCount: v.errors };
    });
  }
}
