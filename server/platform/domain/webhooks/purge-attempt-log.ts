import type { Db } from '../../db/database';

/** How long the per-attempt webhook log is kept (`WEBHOOK_ATTEMPT_RETENTION_DAYS`); the deliveries themselves stay. */
export const DEFAULT_ATTEMPT_RETENTION_DAYS = 30;
const BATCH = 1_000;

/** The smallest time-ordered id (UUIDv7) of a millisecond: every id made before it sorts below. */
export function orderedIdFloor(at: Date): string {
  const ms = at.getTime();
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/**
 * Deletes attempts older than the retention, a batch at a time (a short transaction each, whatever the backlog). The
 * attempt ids are time-ordered, so "older than" is a range of the primary key: no index of its own, nothing on the
 * write path. Several workers may sweep at once: a row deleted twice is deleted once. Answers how many went.
 */
export async function purgeWebhookAttemptLog(db: Db, options: { now: Date; retentionDays: number }): Promise<number> {
  const before = orderedIdFloor(new Date(options.now.getTime() - options.retentionDays * 86_400_000));
  let purged = 0;
  for (;;) {
    const ids = (await db.selectFrom('webhookDeliveryAttempts').select('id').where('id', '<', before).orderBy('id').limit(BATCH).execute()).map((r) => r.id);
    if (ids.length === 0) return purged;
    const result = await db.deleteFrom('webhookDeliveryAttempts').where('id', 'in', ids).executeTakeFirst();
    purged += Number(result.numDeletedRows);
    if (ids.length < BATCH) return purged;
  }
}
