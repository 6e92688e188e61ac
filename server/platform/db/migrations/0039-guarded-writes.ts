import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * A guarded write whose check travels with the commit, to save PostgreSQL round trips
 * (`guardedWriteBehind` in `db/precompiled.ts`). On
 * PostgreSQL such a write is not waited for, so a condition that matched no row must fail the transaction inside the
 * database: the statement becomes `with guarded as (<write> returning 1) select lc_expect_one_row(count(*)) from
 * guarded`, and this function raises SQLSTATE `LCG01` unless exactly one row was written. PostgreSQL then aborts the
 * transaction and the commit answers ROLLBACK; the pipelined client turns the error into the caller's refusal.
 * SQLite runs every statement synchronously and checks the row count at once: it needs nothing.
 *
 * VOLATILE (the default), so the planner never folds it; the data-modifying CTE runs to completion whatever the
 * outer query reads.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (t.timestamp !== 'timestamptz') return;
  await sql`create or replace function lc_expect_one_row(n bigint) returns integer language plpgsql as $$
    begin
      if n <> 1 then
        raise exception using errcode = 'LCG01', message = format('guarded write matched %s rows, not 1', n);
      end if;
      return 1;
    end
  $$`.execute(db);
}
