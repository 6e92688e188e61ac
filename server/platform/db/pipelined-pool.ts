import type pg from 'pg';

/**
 * PostgreSQL round trips, fewer (docs/scale/performance.md).
 *
 * On a loaded machine every statement costs a round trip: the request's process writes it, waits
 * for the database's backend to be scheduled, run it and answer, and is scheduled again itself.
 * With a transaction of a dozen statements that wait, not the work, is most of a request's time.
 * The pool's clients run in pg's pipeline mode (a query is written at once, behind the ones still
 * unanswered; each carries its own Sync, so answers and errors stay per query), and this wrapper
 * uses it for the statements whose answer nobody waits for:
 *
 * - `begin` is written and not waited for: the transaction's first statement follows it on the wire;
 * - a **write-behind** statement (`writeBehind` in `precompiled.ts`: an insert or update whose
 *   result the caller never reads) inside a transaction is written and not waited for: the next
 *   statement, or the `commit`, follows it.
 *
 * What must stay true: a failed write-behind statement fails its transaction as if it had been
 * awaited. PostgreSQL aborts the transaction at the failure, so everything after it fails too and a
 * `commit` would answer `ROLLBACK`; the wrapper rethrows the write-behind statement's own error from
 * the next statement that is waited for (the commit included) — so a unit of work never commits
 * past a failed write, and the error named is the real one, not "current transaction is aborted".
 * Answers arrive in the order the statements were written, so by the time any later statement has
 * answered, every write-behind statement before it has answered too.
 *
 * Statements written in one go are also written to the socket in one go: the first statement written in
 * a tick corks the connection's socket and the tick's end uncorks it, so the `begin`, the write-behind
 * statements and the statement finally waited for leave in one `writev` instead of one each. pg corks each
 * statement's own messages (Parse, Bind, Describe, Execute, Sync) already; across statements it does not,
 * and on a virtual machine a system call per statement was close to a third of the process's CPU. Nothing
 * waits longer: the tick ends before the process can wait for any answer.
 *
 * Statements the process runs over and over (`precompiled`) are also sent as named prepared
 * statements: PostgreSQL parses and plans each once per connection instead of on every execution (not
 * those whose columns come from `*`: see `STAR_COLUMNS`).
 */
export const WRITE_BEHIND_MARK = '/* write-behind */ ';

/**
 * A guarded write-behind statement (`guardedWriteBehind` in `precompiled.ts`): written behind like the others inside a
 * transaction, its values end with a `GuardRefusal`, taken off before sending. When the statement fails because its
 * guard matched no row (SQLSTATE `LCG01`, raised by `lc_expect_one_row`, migration 0039), the transaction's failure is
 * the refusal's error, not the database's.
 */
export const GUARDED_MARK = '/* guarded write-behind */ ';

/** Not a statement: `checkpoint` (`precompiled.ts`) — wait for every statement written so far, rethrow a failure. */
export const CHECKPOINT = '/* checkpoint */';

/** The error a guarded statement's caller wants thrown when its guard matched no row. */
export class GuardRefusal {
  constructor(readonly make: () => Error) {}
}

/** SQLSTATE raised by `lc_expect_one_row` (migration 0039). */
const GUARD_FAILED = 'LCG01';

const refusedBy = (refusal: GuardRefusal | undefined, error: unknown): unknown =>
  refusal && (error as { code?: unknown } | null)?.code === GUARD_FAILED ? refusal.make() : error;

/** The statement's text without its leading mark, if any. */
const unmarked = (sql: string): string =>
  sql.startsWith(WRITE_BEHIND_MARK) ? sql.slice(WRITE_BEHIND_MARK.length) : sql.startsWith(GUARDED_MARK) ? sql.slice(GUARDED_MARK.length) : sql;

/** SQL text → prepared statement name, for the fixed-shape statements of `precompiled`. */
const preparedNames = new Map<string, string>();
/**
 * Each connection keeps every statement prepared on it; shapes are few (one per argument shape), but a
 * statement over arrays of many lengths could make many. Past this many, statements run unnamed.
 */
const MAX_PREPARED = 1_000;

/**
 * A statement whose result columns come from `*` (`select *`, `select "t".*`, `returning *`). Prepared, its row
 * type is fixed: once a migration adds a column (another process's, in a rolling deploy), PostgreSQL refuses to run
 * it ("cached plan must not change result type") for the connection's lifetime. Those stay unnamed.
 */
const STAR_COLUMNS = /(?:select|returning|,)\s*(?:(?:"[^"]+"|\w+)\.)?\*/i;

/** Marks a statement's text as one to prepare once per connection (called once per compiled template). */
export function prepareStatement(sql: string): void {
  if (preparedNames.has(sql) || preparedNames.size >= MAX_PREPARED) return;
  if (STAR_COLUMNS.test(unmarked(sql))) return;
  preparedNames.set(sql, `pc${preparedNames.size + 1}`);
}

type QueryResult = pg.QueryResult;

/** What a statement not waited for answers: no rows, no row count (Kysely reports `numAffectedRows` undefined). */
const NOT_AWAITED = Object.freeze({ command: 'WRITE_BEHIND', rowCount: null, rows: [], fields: [], oid: 0 }) as unknown as QueryResult;

class PipelinedClient {
  private inTransaction = false;
  /** Statements written and not waited for since the last statement that was. */
  private behind: Promise<unknown>[] = [];
  /** The first error of a statement not waited for, rethrown until the transaction ends. */
  private failure: { error: unknown } | undefined;

  /** True from the first statement written in a tick until the tick's end uncorks the socket. */
  private corked = false;

  constructor(readonly raw: pg.PoolClient) {}

  /** Holds this tick's statements in the socket's buffer, written together when the tick ends. */
  private corkUntilTickEnds(): void {
    if (this.corked) return;
    // `connection.stream` is pg's socket (a documented-by-use internal: pg itself corks it around each statement).
    const stream = (this.raw as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    stream.cork();
    this.corked = true;
    process.nextTick(() => {
      this.corked = false;
      stream.uncork!();
    });
  }

  release(destroy?: boolean | Error): void {
    this.inTransaction = false;
    this.behind = [];
    this.failure = undefined;
    this.raw.release(destroy);
  }

  private send(text: string, values?: unknown[]): Promise<QueryResult> {
    this.corkUntilTickEnds();
    const name = preparedNames.get(text);
    return name ? this.raw.query({ name, text, values }) : this.raw.query(text, values);
  }

  private writeBehind(text: string, values?: unknown[], refusal?: GuardRefusal): Promise<QueryResult> {
    this.behind.push(
      this.send(text, values).catch((error: unknown) => {
        this.failure ??= { error: refusedBy(refusal, error) };
      }),
    );
    return Promise.resolve(NOT_AWAITED);
  }

  async query(text: string, values?: unknown[]): Promise<QueryResult> {
    if (text === 'begin') {
      this.inTransaction = true;
      this.failure = undefined;
      return this.writeBehind(text);
    }
    if (text.startsWith(GUARDED_MARK)) {
      const refusal = values?.at(-1);
      if (!(refusal instanceof GuardRefusal)) throw new Error('a guarded statement came without its refusal');
      const own = values!.slice(0, -1);
      if (this.inTransaction) return this.writeBehind(text, own, refusal);
      try {
        // Outside a transaction nothing is written behind: waited for like any statement.
        return await this.send(text, own);
      } catch (error) {
        throw refusedBy(refusal, error);
      }
    }
    if (this.inTransaction && text.startsWith(WRITE_BEHIND_MARK)) return this.writeBehind(text, values);
    if (text === CHECKPOINT) {
      if (this.behind.length > 0) {
        await Promise.all(this.behind);
        this.behind = [];
      }
      if (this.failure) throw this.failure.error;
      return NOT_AWAITED;
    }
    const ends = text === 'commit' || text === 'rollback';
    let result: QueryResult | undefined;
    let error: { error: unknown } | undefined;
    try {
      result = await this.send(text, values);
    } catch (caught) {
      error = { error: caught };
    }
    if (this.behind.length > 0) {
      await Promise.all(this.behind);
      this.behind = [];
    }
    const failure = this.failure;
    if (ends) {
      this.inTransaction = false;
      this.failure = undefined;
      // A rollback ends the transaction whatever failed before it; a commit after a failed write-behind statement
      // committed nothing (PostgreSQL answered ROLLBACK): its error is the answer.
      if (text === 'commit' && failure) throw failure.error;
    } else if (failure) {
      throw failure.error;
    }
    if (error) throw error.error;
    return result!;
  }
}

/**
 * The pool Kysely's PostgreSQL dialect is given: `pg.Pool` (created with `pipeline: true`) whose clients
 * are wrapped as above, one wrapper per client for its lifetime (Kysely keys its connections by client).
 */
export function pipelinedPool(pool: pg.Pool): { connect(): Promise<PipelinedClient>; end(): Promise<void> } {
  const wrappers = new WeakMap<pg.PoolClient, PipelinedClient>();
  return {
    async connect() {
      const raw = await pool.connect();
      let client = wrappers.get(raw);
      if (!client) wrappers.set(raw, (client = new PipelinedClient(raw)));
      return client;
    },
    end: () => pool.end(),
  };
}
