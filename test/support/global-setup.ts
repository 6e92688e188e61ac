import pg from 'pg';

/**
 * PostgreSQL test schemas (`t_…`, one per test app) are dropped here, once every test file has
 * finished, and not by each file: a DROP SCHEMA while another file's migrator introspects the
 * database makes that introspection fail ("schema … does not exist").
 */
async function dropTestSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 't\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  await dropTestSchemas();
}

export async function teardown(): Promise<void> {
  await dropTestSchemas();
}
