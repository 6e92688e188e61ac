import { sql, type Kysely } from 'kysely';

/**
 * The pre-approval expiry sweep's index holds only what the sweep looks for: pre-approvals still
 * `received` with no loan, by lapse time. The full (status, expires_at) index it replaces moved a
 * pre-approval's entry on every status change (offer issued, accepted, declined, disbursed), one
 * more index page written by each of those transactions, and kept every pre-approval ever pushed.
 * Queries reach it with the status as a literal (`'received'`), so both databases can prove the
 * index's condition. On PostgreSQL the new index is built under a lock that holds writes to
 * `preapprovals` for the build (quick at today's sizes; a very large table would want
 * `create index concurrently`, which cannot run inside the migration's transaction).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index preapprovals_expiry_idx`.execute(db);
  await sql`create index preapprovals_expiry_idx on preapprovals (expires_at) where status = 'received' and loan_id is null`.execute(db);
}
