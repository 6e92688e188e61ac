import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './database';
import { WRITE_BEHIND_MARK, prepareStatement } from './pipelined-pool';

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

export function precompiled<A extends object, R = unknown>(
  build: (db: Executor, args: A) => Compilable<R>,
): (db: Executor, args: A) => Promise<QueryResult<R>> {
  return compileOnce(build, '');
}

/**
 * A precompiled write whose result the caller never reads (no rows, no row count): inside a transaction
 * on PostgreSQL it is written without waiting for its answer, and the next statement (or the commit)
 * follows it on the wire; a failure still fails the transaction, from the next statement waited for
 * (see `pipelined-pool.ts`). For inserts and updates whose failure nobody handles on the spot (no
 * unique-violation fallback, no affected-row check). Elsewhere it runs like any other statement.
 */
export function writeBehind<A extends object>(build: (db: Executor, args: A) => Compilable<unknown>): (db: Executor, args: A) => Promise<void> {
  const run = compileOnce(build, WRITE_BEHIND_MARK);
  return async (db, args) => {
    await run(db, args);
  };
}

function compileOnce<A extends object, R>(build: (db: Executor, args: A) => Compilable<R>, prefix: string): (db: Executor, args: A) => Promise<QueryResult<R>> {
  // Per dialect adapter (one per database handle; transactions share their handle's adapter), with
  // the template used last checked first: most statements are always called with one shape.
  const templates = new WeakMap<object, { byShape: Map<string, Template>; last?: Template }>();
  return (db, typed) => {
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
        template = { shape, sql: prefix + compiled.sql, query: compiled.query, parameters: compiled.parameters };
        prepareStatement(template.sql);
        known.byShape.set(shape, template);
      }
      known.last = template;
    }
    const parameters = new Array<unknown>(template.parameters.length);
    for (let i = 0; i < parameters.length; i++) {
      const p = template.parameters[i];
      parameters[i] = p instanceof Placeholder ? valueAt(args, p.path) : p;
    }
    return db.executeQuery<R>({ sql: template.sql, query: template.query, parameters, queryId: { queryId: '' } });
  };
}
