import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Why the service's staff last refused to enable live mode for an organisation (the console's "Organisations for live
 * mode": `domain/ops/live-readiness.ts`), so the partner's dashboard can show it where it waits for live mode:
 * `organisations.live_refusal_reason` (3–500 characters, as the staff member typed it) and `live_refused_at`. Null
 * until a refusal; a later refusal replaces it. The staff audit log keeps every refusal (`live_refused`).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('organisations').addColumn('live_refusal_reason', 'text').execute();
  await db.schema.alterTable('organisations').addColumn('live_refused_at', t.timestamp).execute();
}
