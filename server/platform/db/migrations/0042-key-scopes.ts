import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Restricted API keys: `api_keys.scopes` is the key's scopes, space-separated as OAuth writes them
 * (`loans:read webhooks:write`, see `server/shared/api-key-scopes.ts`), or null for full access. Every key made before
 * this migration keeps null: it goes on reaching the whole API, as it did.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('scopes', 'text').execute();
}
