import { CompiledQuery, PostgresAdapter, type Compilable, type QueryResult, type UnknownRow } from 'kysely';
import type { Executor } from './database';
import { CHECKPOINT, GUARDED_MARK, GuardRefusal, WRITE_BEHIND_MARK, prepareStatement } from './pipelined-pool';

/**
 * Statements compiled once and then executed with new values.
 *
 * Building a query with Kysely's builder, running the plugins over it (camelCase → snake_case)
 * and compiling it to SQL costs more CPU than SQLite takes to run most of our statements. For the
 * fixed-shape statements on the hot request paths, `precompiled` builds the statement once per
 * dialect and argument shape, with a placeholder standing in for every argument value, records
 * where each placeholder landed among the compiled parameters, and from then on only substitutes
 * the values. Results still pass through the plugins (rows come back camelCased), exactly as
 * `execute()` returns them.
 *
 * The `build` function must only place argument values in value positions (column values, the
 * right-hand side of comparisons, `sql` template values): it must never branch on them, and
 * values that change the statement's shape (which columns are set, how many rows) are part of the
 * shape key (object keys and array lengths), so each shape compiles once.
 */
type Scalar = string | number | boolean | bigint | null | Date;
type Row = Readonly<Record<string, Scalar | undefined>>;
export type PrecompiledArgs = Readonly<Record<string, Scalar | Row | readonly Row[] | undefined>>;

class Placeholder {
  constructor(readonly path: readonly (string | number)[]) {}
}

interface Template {
  /** The shape key it was compiled for (`shapeOf`). */
  shape: string;
  sql: string;
  query: CompiledQuery['query'];
  /** Per compiled parameter: where its value comes from in the arguments, or the constant the build put there. */
  parameters: readonly unknown[];
}

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !(value instanceof Date) && !Array.isArray(value);

/** The shape key: argument names, the keys of object arguments, array lengths and their rows' keys. */
function shapeOf(args: PrecompiledArgs): string {
  let shape = '';
  for (const key in args) {
    const value = args[key];
    if (value === undefined) continue;
    shape += key;
    if (Array.isArray(value)) {
      shape += `[${value.length}`;
      for (const row of value as readonly Row[]) shape += `{${rowShape(row)}}`;
      shape += ']';
    } else if (isRow(value)) shape += `{${rowShape(value)}}`;
    shape += ';';
  }
  return shape;
}

function rowShape(row: Row): string {
  let shape = '';
  for (const key in row) if (row[key] !== undefined) shape += `${key},`;
  return shape;
}

/** Where `token` ends if `shape` has it at `at`, else -1. */
const follow = (shape: string, at: number, token: string): number => (at >= 0 && shape.startsWith(token, at) ? at + token.length : -1);

function followRow(shape: string, at: number, row: Row): number {
  at = follow(shape, at, '{');
  for (const key in row) if (row[key] !== undefined) at = follow(shape, follow(shape, at, key), ',');
  return follow(shape, at, '}');
}

/** Whether `shapeOf(args) === shape`, read token by token without building the key (the common, repeated call). */
function hasShape(args: PrecompiledArgs, shape: string): boolean {
  let at = 0;
  for (const key in args) {
    const value = args[key];
    if (value === undefined) continue;
    at = follow(shape, at, key);
    if (Array.isArray(value)) {
      at = follow(shape, follow(shape, at, '['), String(value.length));
      for (const row of value as readonly Row[]) at = followRow(shape, at, row);
      at = follow(shape, at, ']');
    } else if (isRow(value)) at = followRow(shape, at, value);
    at = follow(shape, at, ';');
    if (at < 0) return false;
  }
  return at === shape.length;
}

function placeholderRow(row: Row, path: readonly (string | number)[]): Record<string, Placeholder> {
  const out: Record<string, Placeholder> = {};
  for (const key in row) if (row[key] !== undefined) out[key] = new Placeholder([...path, key]);
  return out;
}

function placeholders(args: PrecompiledArgs): { values: Record<string, unknown>; count: number } {
  const values: Record<string, unknown> = {};
  let count = 0;
  for (const key in args) {
    const value = args[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      values[key] = (value as readonly Row[]).map((row, i) => {
        const out = placeholderRow(row, [key, i]);
        count += Object.keys(out).length;
        return out;
      });
    } else if (isRow(value)) {
      const out = placeholderRow(value, [key]);
      count += Object.keys(out).length;
      values[key] = out;
    } else {
      values[key] = new Placeholder([key]);
      count += 1;
    }
  }
  return { values, count };
}

function valueAt(args: PrecompiledArgs, path: readonly (string | number)[]): unknown {
  let value: unknown = args;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value;
}

/** A precompiled statement: run it, or take its compiled form to run with others (`together`). */
export type Precompiled<A, R> = ((db: Executor, args: A) => Promise<QueryResult<R>>) & {
  compiled(db: Executor, args: A): CompiledQuery<R>;
};

export function precompiled<A extends object, R = unknown>(build: (db: Executor, args: A) => Compilable<R>): Precompiled<A, R> {
  const compile = compileOnce(build, '');
  const run = (db: Executor, args: A) => db.executeQuery<R>(compile(db, args));
  return Object.assign(run, { compiled: compile });
}

/**
 * Runs statements that do not depend on each other's answers in one round trip, and answers their results in order.
 * Kysely runs a transaction's statements one after another (each waits for the one before to answer); on PostgreSQL
 * these are written together instead (the pipelined client, `pipelined-pool.ts`) and their answers read together. The
 * results pass through the plugins as `executeQuery`'s would (rows camelCased). A failure rejects with the first
 * statement's error to fail, in order; on PostgreSQL it aborts the transaction, so the later ones fail too. On SQLite
 * they simply run in order.
 */
export async function together<const Q extends readonly CompiledQuery<unknown>[]>(
  db: Executor,
  queries: Q,
): Promise<{ [K in keyof Q]: Q[K] extends CompiledQuery<infer R> ? QueryResult<R> : never }> {
  const executor = db.getExecutor();
  const results = await executor.provideConnection((connection) => Promise.all(queries.map((query) => connection.executeQuery(query))));
  const transformed: QueryResult<unknown>[] = [];
  for (let i = 0; i < results.length; i++) {
    let result = results[i] as QueryResult<UnknownRow>;
    for (const plugin of executor.plugins) result = await plugin.transformResult({ result, queryId: queries[i]!.queryId });
    transformed.push(result);
  }
  return transformed as { [K in keyof Q]: Q[K] extends CompiledQuery<infer R> ? QueryResult<R> : never };
}

/**
 * A precompiled write whose result the caller never reads (no rows, no row count): inside a transaction
 * on PostgreSQL it is written without waiting for its answer, and the next statement (or the commit)
 * follows it on the wire; a failure still fails the transaction, from the next statement waited for
 * (see `pipelined-pool.ts`). For inserts and updates whose failure nobody handles on the spot (no
 * unique-violation fallback, no affected-row check). Elsewhere it runs like any other statement.
 */
export function writeBehind<A extends object>(build: (db: Executor, args: A) => Compilable<unknown>): (db: Executor, args: A) => Promise<void> {
  const compile = compileOnce(build, WRITE_BEHIND_MARK);
  return async (db, args) => {
    await db.executeQuery(compile(db, args));
  };
}

/**
 * A conditional write that must change exactly one row, else its transaction is refused with the caller's error
 * (`refusal`): a status transition guarded by the status it moves from, a balance move guarded by its bound. The check
 * is the caller's to place: it may surface at any later statement of the transaction, the commit included, so use it
 * only where nothing after it in the transaction reaches outside the database (no provider call, no message) and
 * nothing catches the refusal to carry on.
 *
 * - PostgreSQL, inside a transaction: written and not waited for. The statement is sent as
 *   `with guarded as (<write> returning 1) select lc_expect_one_row(count(*)) from guarded` (migration 0039), which
 *   raises unless one row was written; PostgreSQL aborts the transaction there, and the pipelined client rethrows
 *   `refusal()` from the next statement waited for or the commit (`pipelined-pool.ts`). Nothing of the transaction
 *   commits. This is what lets a capital pool's guarded UPDATE leave with the commit: its row lock is held for the
 *   UPDATE and the commit, not also for a round trip to this process in between.
 * - Elsewhere (SQLite; PostgreSQL outside a transaction): run at once, its row count checked, `refusal()` thrown.
 *
 * The write must not have a `returning` clause of its own.
 */
export function guardedWriteBehind<A extends object>(
  build: (db: Executor, args: A) => Compilable<unknown>,
): (db: Executor, args: A, refusal: () => Error) => Promise<void> {
  const atOnce = compileOnce(build, '');
  const behind = compileOnce(build, GUARDED_MARK, (compiled) => `with guarded as (${compiled} returning 1) select lc_expect_one_row(count(*)) from guarded`);
  return async (db, args, refusal) => {
    if (isPostgres(db)) {
      await db.executeQuery(behind(db, args, new GuardRefusal(refusal)));
      return;
    }
    const result = await db.executeQuery(atOnce(db, args));
    if (Number(result.numAffectedRows) !== 1) throw refusal();
  };
}

/** Whether `db` is a PostgreSQL handle (for a statement built differently there, such as a row lock SQLite has no syntax for). */
export const isPostgres = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Waits until every statement this transaction wrote so far has answered, and throws the first failure among them
 * (a guard's refusal included): for the point before a transaction reaches outside the database (a provider call),
 * so nothing is asked of a provider for a change that is already refused. Sends nothing; on PostgreSQL it costs a
 * wait only when statements are still unanswered, and on SQLite (every statement already ran) nothing.
 */
export async function checkpoint(db: Executor): Promise<void> {
  if (isPostgres(db)) await db.executeQuery(CompiledQuery.raw(CHECKPOINT));
}

function compileOnce<A extends object, R>(
  build: (db: Executor, args: A) => Compilable<R>,
  prefix: string,
  /** Rewrites the compiled SQL (its parameters stay where they are). */
  wrap?: (sql: string) => string,
): (db: Executor, args: A, extra?: unknown) => CompiledQuery<R> {
  // Per dialect adapter (one per database handle; transactions share their handle's adapter), with
  // the template used last checked first: most statements are always called with one shape.
  const templates = new WeakMap<object, { byShape: Map<string, Template>; last?: Template }>();
  return (db, typed, extra) => {
    const args = typed as PrecompiledArgs;
    const adapter = db.getExecutor().adapter;
    let known = templates.get(adapter);
    if (!known) templates.set(adapter, (known = { byShape: new Map() }));
    let template = known.last;
    if (!template || !hasShape(args, template.shape)) {
      const shape = shapeOf(args);
      template = known.byShape.get(shape);
      if (!template) {
        const { values, count } = placeholders(args);
        const compiled = build(db, values as unknown as A).compile();
        // Every argument value must have become a parameter (one may be used more than once).
        const found = new Set(compiled.parameters.filter((p) => p instanceof Placeholder)).size;
        if (found !== count) throw new Error(`precompiled statement placed ${found} of ${count} argument values as parameters: ${compiled.sql}`);
        template = { shape, sql: prefix + (wrap ? wrap(compiled.sql) : compiled.sql), query: compiled.query, parameters: compiled.parameters };
        prepareStatement(template.sql);
        known.byShape.set(shape, template);
      }
      known.last = template;
    }
    const parameters = new Array<unknown>(template.parameters.length);
    for (let i = 0; i < template.parameters.length; i++) {
      const p = template.parameters[i];
      parameters[i] = p instanceof Placeholder ? valueAt(args, p.path) : p;
    }
    // Rides after the statement's own parameters to the pipelined client, which takes it off (`GuardRefusal`).
    if (extra !== undefined) parameters.push(extra);
    return { sql: template.sql, query: template.query, parameters, queryId: { queryId: '' } } as CompiledQuery<R>;
  };
}
