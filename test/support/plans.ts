import pg from 'pg';

/**
 * PostgreSQL plans of the statements the app really sends, as a prepared statement runs them from its sixth execution
 * (a generic plan), on tables the planner may have no statistics for (never analysed: a fresh deployment, or
 * autovacuum off). Used by the tests that hold the hot reads and the lists to plans that do not depend on statistics.
 */
export interface Captured {
  text: string;
  values: unknown[];
}

/** The statements the app sends while `work` runs (every pg client in this process). */
export async function capturing(work: () => Promise<void>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    const given = Array.isArray(values) ? values : ((config as { values?: unknown[] })?.values ?? []);
    if (typeof text === 'string') captured.push({ text, values: given });
    return query.call(this, config, values, ...rest);
  };
  try {
    await work();
  } finally {
    proto.query = query;
  }
  return captured;
}

export type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

/** Every node of a plan, the root first. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** Rows read by a node over all its loops. */
export const rowsRead = (node: PlanNode): number => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);

/**
 * Each statement planned generically and run with EXPLAIN ANALYZE, in `schema`, on a connection of its own; the
 * statements run for real, so pass reads only.
 */
export async function genericPlans(url: string, schema: string, statements: Captured[]): Promise<{ statement: Captured; plan: PlanNode }[]> {
  const admin = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await admin.connect();
  try {
    await admin.query('set plan_cache_mode = force_generic_plan');
    const plans: { statement: Captured; plan: PlanNode }[] = [];
    for (const [i, statement] of statements.entries()) {
      await admin.query(`prepare read_${i} as ${statement.text}`);
      const literals = statement.values.map((v) => (v === null ? 'null' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : admin.escapeLiteral(String(v))));
      const args = literals.length > 0 ? `(${literals.join(', ')})` : '';
      const { rows } = await admin.query(`explain (analyze, format json) execute read_${i}${args}`);
      plans.push({ statement, plan: (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan });
    }
    return plans;
  } finally {
    await admin.end();
  }
}
