import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * PostgreSQL test schemas (one per test app) are named `t_<run>_<random>`, `<run>` being this run's start time in
 * base 36 seconds, and dropped here once every test file of the run has finished, and only this run's: a second
 * `vitest` started beside a running suite (one file, while the whole suite runs) must not drop the first one's schemas
 * under it. At the start, schemas of runs older than a day (a run that was killed)
 * and of the old unnamed format are dropped.
 */
const STALE_AFTER_SECONDS = 24 * 60 * 60;

async function dropSchemas(which: (run: string | undefined) => boolean): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 't\\_%'");
    for (const { nspname } of rows) {
      const run = /^t_([0-9a-z]+)_[0-9a-f]+$/.exec(nspname)?.[1];
      if (which(run)) await client.query(`drop schema if exists "${nspname}" cascade`);
    }
  } finally {
    await client.end();
  }
}

const run = Math.floor(Date.now() / 1000).toString(36);

export async function setup(project: TestProject): Promise<void> {
  project.provide('testRun', run);
  const now = Date.now() / 1000;
  await dropSchemas((other) => other === undefined || now - parseInt(other, 36) > STALE_AFTER_SECONDS);
}

export async function teardown(): Promise<void> {
  await dropSchemas((other) => other === run);
}

declare module 'vitest' {
  export interface ProvidedContext {
    testRun: string;
  }
}
