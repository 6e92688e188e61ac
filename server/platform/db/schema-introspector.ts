import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

/**
 * What the migrator asks PostgreSQL about its bookkeeping tables, answered from the connection's own schema only.
 *
 * Kysely's PostgreSQL introspector reads every table of every schema in the database, and for each column calls
 * `pg_get_serial_sequence('<schema>.<table>', '<column>')`, which looks the column up again by name: a column renamed
 * or a schema dropped by another transaction in the meantime (another application's migration on a shared database,
 * a second deployment, another test file's schema) made start-up fail with "column … does not exist" or "schema …
 * does not exist". The migrator needs only to know whether its schema and its two tables exist; this answers that
 * from the catalogue in one snapshot, without a lookup by name, and without reading anyone else's tables. Columns
 * are not listed (the migrator does not read them).
 */
export class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace where nspname = current_schema()`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; isView: boolean }>`
      select c.relname as name, n.nspname as schema, c.relkind in ('v', 'm') as "isView"
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f')`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.isView, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL, with the introspection above (for the migrator's connection). */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db);
  }
}
