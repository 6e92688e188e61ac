import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Sandbox rail provider state (filled in by the sandbox rail work). */
export async function up(_db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {}
