import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Keyset indexes for the dashboard's clinic lists, newest first, `(at, id)` as the cursor:
 * - `financing_applications (organisation_id, mode, created_at, id)`: the patient-financing applications page (a
 *   search by reference uses the id or the unique `(organisation_id, mode, client_reference)`);
 * - `appointments (organisation_id, mode, start_time, id)`: the appointments page (the `start_time` index of 0020
 *   without the id tie-break would sort ties on every page).
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema
    .createIndex('financing_applications_keyset_idx')
    .on('financing_applications')
    .columns(['organisation_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('appointments_keyset_idx').on('appointments').columns(['organisation_id', 'mode', 'start_time', 'id']).execute();
}
