import type { Db } from '../../db/database';
import type { Secrets } from '../secrets';

/**
 * The NIN at rest: a keyed hash, like the BVN. Nothing in the service reads a stored NIN back (the
 * identity check gets it from the KYC submission in the same request; a stored one only records
 * that the borrower gave one), so it is not kept in a form that can be opened: HMAC-SHA256 under
 * the master key (purpose `nin`), over the digits only, so `1234-5678-901` and `12345678901` match.
 * If a provider ever needs the NIN again later, it is asked of the borrower again.
 */
export const NIN_HASH_PURPOSE = 'nin';

export function ninHash(secrets: Secrets, nin: string): string {
  return secrets.hmac(NIN_HASH_PURPOSE, nin.replace(/[\s-]/g, ''));
}

/**
 * Hashes NINs stored in clear before migration 0027 (`legacyNin`) and clears them. Runs at
 * start-up because it needs the master key; each row is rewritten only if it still holds the value
 * it was read with, so processes starting together do not fight. Returns how many it converted.
 */
export async function hashLegacyNins(db: Db, secrets: Secrets): Promise<number> {
  let converted = 0;
  for (const table of ['borrowers', 'preapprovals'] as const) {
    for (;;) {
      const rows = await db.selectFrom(table).select(['id', 'legacyNin', 'ninHash']).where('legacyNin', 'is not', null).limit(500).execute();
      for (const row of rows) {
        const result = await db
          .updateTable(table)
          .set({ ninHash: row.ninHash ?? ninHash(secrets, row.legacyNin!), legacyNin: null })
          .where('id', '=', row.id)
          .where('legacyNin', '=', row.legacyNin)
          .executeTakeFirst();
        converted += Number(result.numUpdatedRows);
      }
      if (rows.length < 500) break;
    }
  }
  return converted;
}
