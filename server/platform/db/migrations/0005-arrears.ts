import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/** Arrears on loans, and the tenant's default threshold. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('loans').addColumn('in_arrears', t.bool, (c) => c.notNull().defaultTo(false)).execute();
  await db.schema.alterTable('loans').addColumn('arrears_since', t.timestamp).execute();
  await db.schema.alterTable('organisations').addColumn('default_after_days_overdue', 'integer').execute();
  await db.schema.createIndex('loan_schedule_due_idx').on('loan_schedule_items').columns(['status', 'due_date']).execute();
}
