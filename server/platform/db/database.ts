import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import type { Database } from './schema';
import { BoundedMap } from '../../shared/bounded-map';
import { ensurePrivateDirectory, makeFilesPrivate, PRIVATE_FILE_MODE } from '../../shared/private-files';
import { pipelinedPool } from './pipelined-pool';
import { SchemaScopedPostgresDialect } from './schema-introspector';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything queries can run on: the root handle or an open transaction. */
export type Executor = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /**
   * PostgreSQL: a connection without pipelining, for the migrations (schema changes run one statement after the
   * other, each waited for, as the migrator expects); destroy it when done. SQLite: the handle's own database.
   */
  openForMigrations(): Db;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** SQLite file; ':memory:' for a private in-memory database. */
  sqliteFile?: string;
  poolSize?: number;
  /** PostgreSQL schema to work in (tests give each app its own). */
  pgSchema?: string;
}

function toSafeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`database integer ${text} is outside the safe integer range`);
  return n;
}

let pgModule: typeof pg | undefined;

/**
 * The `pg` driver, loaded on first use: a process on SQLite never loads it (it costs start-up time, see
 * docs/scale/startup.md). Synchronous (`pg` is CommonJS), so `openDatabase` stays synchronous.
 */
export function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  const loaded = createRequire(import.meta.url)('pg') as typeof pg;
  // int8 and numeric come back from PostgreSQL as strings; money is int64 kobo, so turn them into
  // numbers and refuse anything that would lose precision. Timestamps become ISO strings, as on SQLite.
  loaded.types.setTypeParser(20, toSafeNumber);
  loaded.types.setTypeParser(1700, toSafeNumber);
  loaded.types.setTypeParser(1184, (text) => new Date(text).toISOString());
  loaded.types.setTypeParser(1114, (text) => new Date(`${text}Z`).toISOString());
  return (pgModule = loaded);
}

/**
 * better-sqlite3 binds only numbers, strings, bigints, buffers and null. Booleans and dates are
 * turned into what PostgreSQL would store (0/1 and ISO text) so domain code passes plain values to both.
 */
function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The shape Kysely's SQLite dialect expects, over better-sqlite3, with prepared statements cached
 * by SQL text (Kysely prepares on every query otherwise; the cache is bounded, oldest out first).
 */
function wrapSqlite(database: SQLite.Database, onCommit: () => void) {
  const statements = new BoundedMap<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const convert = (params: readonly unknown[]) => params.map(sqliteValue);
  return {
    close: () => database.close(),
    prepare(sql: string) {
      // Every transaction here writes, so take the write lock at BEGIN: a deferred transaction that
      // upgrades from read to write fails at once with SQLITE_BUSY when another process (the operator
      // CLI, a second server) writes meanwhile, whereas BEGIN IMMEDIATE waits out busy_timeout.
      const statement = prepared(sql === 'begin' ? 'begin immediate' : sql);
      const commit = sql === 'commit';
      return {
        reader: statement.reader,
        all: (params: readonly unknown[]) => statement.all(convert(params)),
        run: (params: readonly unknown[]) => {
          const result = statement.run(convert(params));
          if (commit) onCommit();
          return result;
        },
        iterate: (params: readonly unknown[]) => statement.iterate(convert(params)),
      };
    },
  };
}

/** Commits between two background checkpoints. */
const CHECKPOINT_EVERY_COMMITS = 50;
/**
 * The WAL size (in pages, 4 KiB each) at which the connection checkpoints on its own at commit, as
 * SQLite does by default at 1,000. With the background checkpointer this is the backstop that
 * resets the WAL under sustained load; by then almost every page has been copied already.
 */
const FOREGROUND_CHECKPOINT_PAGES = 8192;

/** How often the checkpointer looks at the commit counter. */
const CHECKPOINT_POLL_MS = 50;

const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const commits = new Int32Array(workerData.commits);
let seen = 0;
const timer = setInterval(() => {
  const now = Atomics.load(commits, 0);
  if (now - seen < workerData.every) return;
  seen = now;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or interrupted: the next round (or the connection's own backstop) catches up.
  }
}, workerData.pollMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * WAL checkpoints off the event loop. A checkpoint copies committed pages from the WAL into the
 * database file and fsyncs both; done by the request connection at commit (SQLite's default, every
 * 1,000 pages) it stalls every request in the process for the length of two fsyncs. Once the
 * process has committed a few transactions, a worker thread with its own connection runs a
 * PASSIVE checkpoint (which never blocks writers or readers) whenever CHECKPOINT_EVERY_COMMITS
 * commits have happened; commits are counted in shared memory, so the request path pays one
 * atomic add per commit and never wakes the worker. Durability is unchanged: same journal mode,
 * same synchronous level, the same fsyncs, taken by another thread. If the worker fails, the
 * connection checkpoints on its own again.
 */
class BackgroundCheckpointer {
  private worker?: Worker;
  private readonly commits = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;

  constructor(
    private readonly database: SQLite.Database,
    private readonly file: string,
  ) {}

  onCommit(): void {
    const count = Atomics.add(this.commits, 0, 1) + 1;
    if (count === CHECKPOINT_EVERY_COMMITS && !this.worker && !this.closed) this.start();
  }

  private start(): void {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.file, commits: this.commits.buffer, every: CHECKPOINT_EVERY_COMMITS, pollMs: CHECKPOINT_POLL_MS },
    });
    worker.unref();
    this.worker = worker;
    worker.once('online', () => {
      if (!this.closed && this.worker === worker) this.database.pragma(`wal_autocheckpoint = ${FOREGROUND_CHECKPOINT_PAGES}`);
    });
    const fallBack = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.closed = true;
      if (this.database.open) this.database.pragma('wal_autocheckpoint = 1000');
    };
    worker.once('error', fallBack);
    worker.once('exit', fallBack);
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Keep the process alive until the worker has closed its connection.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const plugins = [new CamelCasePlugin()];
  if (options.databaseUrl) {
    const driver = loadPg();
    const pool = new driver.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // Statements are written without waiting for the answers before them where nobody waits for those (see pipelined-pool.ts).
      pipeline: true,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle connection that breaks (PostgreSQL restarted or unreachable) is dropped from the pool; without
    // a listener the pool's 'error' would end the process. The next query opens a new one (or fails, and /readyz says 503).
    pool.on('error', () => undefined);
    // Likewise a connection that breaks while checked out between two queries: its statement fails (and is
    // retried by its job or answered 5xx), the pool drops it on release; the process must not end.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pipelinedPool(pool) as unknown as pg.Pool }), plugins });
    const openForMigrations = () => {
      const plain = new driver.Pool({ connectionString: options.databaseUrl, max: 1, ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}) });
      plain.on('error', () => undefined);
      // Its introspection looks at its own schema only (schema-introspector.ts).
      return new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool: plain }), plugins });
    };
    return { db, dialect: 'postgres', openForMigrations, close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') {
    // Owner-only before SQLite opens it: SQLite gives the -wal and -shm it creates later the
    // database file's own mode, so they are born 0600 too.
    ensurePrivateDirectory(path.dirname(file));
    fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
    makeFilesPrivate(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A 64 MiB page cache (SQLite's default is 2 MiB): the pages a request reads and writes stay in
  // memory instead of being read back from the WAL or the file with a system call each. It fills
  // only as pages are used.
  sqlite.pragma('cache_size = -65536');
  // A database from before (or another tool's) may have left them wider.
  if (file !== ':memory:') makeFilesPrivate(file, `${file}-wal`, `${file}-shm`, `${file}-journal`);
  const checkpointer = file === ':memory:' ? undefined : new BackgroundCheckpointer(sqlite, path.resolve(file));
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: wrapSqlite(sqlite, () => checkpointer?.onCommit()) as never }),
    plugins,
  });
  return {
    db,
    dialect: 'sqlite',
    openForMigrations: () => db,
    async close() {
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/** Serialises a JSON column value the same way for both databases. */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Reads a JSON column: PostgreSQL hands back parsed jsonb, SQLite the text. */
export function fromJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export { isUniqueViolation } from '../../shared/unique-violation';
export { isDatabaseUnavailable } from './unavailable';
