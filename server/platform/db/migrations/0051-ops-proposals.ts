import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Four eyes on live money: in live mode, an action that moves money on a person's word (settling a payout,
 * confirming a pool-funding transfer, writing off a loan) or that enables live mode is first a proposal by one staff
 * member and takes effect when a different one approves it.
 * - `kind` (`payout_settle` | `pool_funding_confirm` | `loan_write_off` | `live_enable`), `subject` (the payout id,
 *   the notice's reference, the loan id, the organisation id), `organisation_id`, `payload` (JSON: what the action
 *   needs, e.g. the bank reference);
 * - `status` `open|approved|refused`, `proposed_by`/`decided_by` (staff account ids), `note` (a refusal's reason),
 *   `result` (JSON: what approving did).
 * At most one open proposal per kind and subject (a partial unique index); the queue is read newest first.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('ops_proposals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('organisation_id', 'text')
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('proposed_by', 'text', (c) => c.notNull().references('staff_accounts.id'))
    .addColumn('proposed_at', t.timestamp, (c) => c.notNull())
    .addColumn('decided_by', 'text', (c) => c.references('staff_accounts.id'))
    .addColumn('decided_at', t.timestamp)
    .addColumn('note', 'text')
    .addColumn('result', t.json)
    .execute();
  await db.schema.createIndex('ops_proposals_queue_idx').on('ops_proposals').columns(['status', 'proposed_at', 'id']).execute();
  await db.schema.createIndex('ops_proposals_one_open_uq').unique().on('ops_proposals').columns(['kind', 'subject']).where(sql.ref('status'), '=', 'open').execute();
}
