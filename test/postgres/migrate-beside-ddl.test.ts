import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabaseEnv } from '../support/harness';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';

/**
 * The migrator looks only at its own schema. Kysely's own introspection reads every table of every schema in the
 * database and calls `pg_get_serial_sequence(<schema>.<table>, <column>)` for each column: a column renamed or a schema
 * dropped by another transaction meanwhile (another deployment's migration, another tenant's schema, another test
 * file) made our start-up fail with "column … does not exist" or "schema … does not exist" — the CI failures "migration
 * failed: column nin of relation borrowers does not exist" and "relation events does not exist". Here another
 * connection renames columns and drops schemas in a loop while the platform migrates and re-checks its own schema.
 */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
const url = process.env.TEST_DATABASE_URL!;

beforeAll(async () => {
  database = await freshDatabaseEnv();
});
afterAll(() => database?.drop());

describe('migrations beside another schema\'s DDL', () => {
  it('migrate and re-check their own schema while another connection renames columns and drops schemas', async () => {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    let stop = false;
    let churns = 0;
    const churn = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `ddl_churn_${process.pid}_${i}`;
        await other.query(`create schema ${name}`);
        // Many columns: the other side's introspection is then likely to be between reading a column and looking it up.
        const columns = Array.from({ length: 40 }, (_, c) => `c${c} serial`).join(', ');
        await other.query(`create table ${name}.t (${columns})`);
        for (let c = 0; c < 40; c += 8) await other.query(`alter table ${name}.t rename column c${c} to d${c}`);
        await other.query(`drop schema ${name} cascade`);
        churns++;
      }
    })();
    const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL, pgSchema: database.pgSchema, poolSize: 1 });
    try {
      for (let round = 0; round < 25; round++) {
        await migrateToLatest(handle, database.pgSchema);
      }
    } finally {
      stop = true;
      await churn;
      await other.end();
      await handle.close();
    }
    expect(churns).toBeGreaterThan(0);
  }, 120_000);
});
