import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * `credential_epoch`: one row whose counter moves whenever a credential loses (or changes) its
 * reach — an API key revoked, an organisation's settings changed (disabled, permissions) — in the
 * same transaction as the change. Every process reads it (one primary-key read at most every
 * CREDENTIAL_EPOCH_CHECK_MS) and drops its cached keys when it moved, so a revocation made by the
 * operator CLI or another server is seen everywhere within a second.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('credential_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('epoch', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`insert into credential_epoch (id, epoch, updated_at) values (1, 0, ${new Date().toISOString()})`.execute(db);
}
