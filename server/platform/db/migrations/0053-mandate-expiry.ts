import { sql, type Kysely } from 'kysely';

/**
 * The mandate sweep's reading order: mandates not yet authorised (`initiated`, `pending`) by set-up time, oldest first
 * (`domain/mandates/expire-mandates.ts`). Partial, so it holds only what the sweep looks for: an active, failed or
 * expired mandate leaves it, and a sweep over a table of settled mandates reads nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('loan_mandates_unauthorised_idx')
    .on('loan_mandates')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), 'in', ['initiated', 'pending'])
    .execute();
}
