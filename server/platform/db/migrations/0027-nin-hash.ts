import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * NIN at rest (a security review found the NIN stored in plaintext while the BVN was a keyed hash):
 * - `borrowers.nin` and `preapprovals.nin` become `legacy_nin`: the clear values written before
 *   this migration, waiting to be hashed. Hashing needs the master key, which migrations do not
 *   have, so the platform converts them at start-up (`hashLegacyNins`: `nin_hash` set, `legacy_nin`
 *   cleared) and nothing writes `legacy_nin` again. The partial indexes keep that start-up check
 *   instant once everything is converted;
 * - `nin_hash`: the keyed hash (HMAC under the master key, like `bvn_hash`);
 * - the NIN a partner pushed in `decision.metadata.nin` is removed from the stored
 *   `preapprovals.decision_payload` (it already lacked the BVN); no key needed for that.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  for (const table of ['borrowers', 'preapprovals']) {
    await db.schema.alterTable(table).renameColumn('nin', 'legacy_nin').execute();
    await db.schema.alterTable(table).addColumn('nin_hash', 'text').execute();
    await db.schema.createIndex(`${table}_legacy_nin_idx`).on(table).column('id').where(sql.ref('legacy_nin'), 'is not', null).execute();
  }
  if (t.json === 'jsonb') {
    await sql`update preapprovals set decision_payload = decision_payload #- '{metadata,nin}' where decision_payload #> '{metadata,nin}' is not null`.execute(db);
  } else {
    await sql`update preapprovals set decision_payload = json_remove(decision_payload, '$.metadata.nin') where json_valid(decision_payload) and json_type(decision_payload, '$.metadata.nin') is not null`.execute(db);
  }
}
