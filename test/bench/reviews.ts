import crypto from 'node:crypto';
import { sql } from 'kysely';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import type { LoanReviewsTable } from '../../server/platform/db/schema';
import { startTestApp, type TestApp } from '../support/harness';
import { seed, signUp } from './dashboard';
import { percentile, withPostgresSchema } from './support';

/**
 * `npm run bench -- reviews`: `GET /v1/reviews` p99 in an organisation of 100,000 loans (the dashboard bench's seed:
 * statuses and creation days spread like a year of lending), with a review for every loan that waited for a person —
 * open for the loans `under_review`, closed (cleared or rejected) for the rejected ones and a share of the rest — on
 * SQLite and on PostgreSQL. Requests one after another from one client; budget 100 ms. Baseline in the same run:
 * `GET /v1/products` (the key's authentication and the envelope, a cached list).
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const P99_BUDGET_MS = 100;

async function seedReviews(app: TestApp, organisationId: string): Promise<{ reviews: number; loanIds: string[] }> {
  const { db } = app.platform;
  const loans = await db.selectFrom('loans').select(['id', 'status', 'createdAt']).where('organisationId', '=', organisationId).execute();
  const rows: LoanReviewsTable[] = [];
  const loanIds: string[] = [];
  for (const loan of loans) {
    const waited = loan.status === 'under_review' || loan.status === 'rejected' || Math.random() < 0.05;
    if (!waited) continue;
    const open = loan.status === 'under_review';
    const closedReason = open ? null : loan.status === 'rejected' ? 'rejected' : 'cleared';
    const at = loan.createdAt;
    rows.push({
      id: crypto.randomUUID(), organisationId, mode: 'test', loanId: loan.id, decidedBy: 'partner', openedReason: Math.random() < 0.8 ? 'aml_not_screened' : 'aml_hit',
      evidence: JSON.stringify({ amlScreenStatus: 'pending', amlScreenDetail: 'not screened' }), resumeWith: 'issue_offer', status: open ? 'open' : 'closed',
      closedReason, closedBy: open ? null : 'pk_test_bench…', note: open ? null : 'checked by hand', openedAt: at, closedAt: open ? null : at, updatedAt: at,
    });
    if (rows.length % 50 === 0) loanIds.push(loan.id);
  }
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('loanReviews').values(rows.slice(i, i + 500)).execute();
  await (app.platform.dialect === 'postgres' ? sql`analyze loan_reviews` : sql`analyze`).execute(db);
  if (app.platform.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return { reviews: rows.length, loanIds };
}

async function figures(label: string, app: TestApp): Promise<number> {
  const owner = await signUp(app);
  const seeded = await seed(app, owner.organisationId);
  const { reviews, loanIds } = await seedReviews(app, owner.organisationId);
  const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'test', now: new Date() });
  const headers = { 'X-API-Public-Key': key.publicKey, 'X-API-Secret-Key': key.secretKey };
  const get = async (p: string) => (await (await fetch(`${app.url}${p}`, { headers })).json()) as { data: { nextCursor: string | null } };
  let deep: string | null = null;
  for (let i = 0; i < 40; i += 1) deep = (await get(`/v1/reviews?limit=50${deep ? `&cursor=${deep}` : ''}`)).data.nextCursor;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  const cases: Array<[string, () => string]> = [
    ['baseline: GET /v1/products', () => '/v1/products'],
    ['first page (50)', () => '/v1/reviews?limit=50'],
    ['open queue', () => '/v1/reviews?status=open&limit=50'],
    ['page 41 (cursor)', () => `/v1/reviews?limit=50&cursor=${deep}`],
    ['reason=aml_hit', () => '/v1/reviews?reason=aml_hit&limit=50'],
    ['open + reason', () => '/v1/reviews?status=open&reason=aml_hit&limit=50'],
    ['opened between (30 days)', () => `/v1/reviews?openedFrom=${day(90)}&openedTo=${day(60)}&limit=50`],
    ['one loan', () => `/v1/reviews?loanId=${pick(loanIds)}`],
  ];
  console.log(`\n${label}: ${seeded.ms} ms to seed the loans; ${reviews.toLocaleString('en')} reviews; ${REQUESTS} sequential requests per row, one client`);
  console.log(`${'request'.padEnd(30)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`);
  let worst = 0;
  let baseline = 0;
  for (const [name, next] of cases) {
    const times: number[] = [];
    let errors = 0;
    for (let i = 0; i < 20; i += 1) await fetch(`${app.url}${next()}`, { headers }).then((r) => r.arrayBuffer());
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      const res = await fetch(`${app.url}${next()}`, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - started);
      if (res.status !== 200) errors += 1;
    }
    times.sort((a, b) => a - b);
    const p50 = Math.round(percentile(times, 50) * 10) / 10;
    const p99 = Math.round(percentile(times, 99) * 10) / 10;
    if (name.startsWith('baseline')) baseline = p99;
    else worst = Math.max(worst, p99);
    console.log(`${name.padEnd(30)}${String(p50).padStart(9)}${String(p99).padStart(9)}${String(errors).padStart(8)}`);
  }
  console.log(`${label} reviews list p99, worst row: ${worst} ms (target < ${P99_BUDGET_MS} ms) ${worst < P99_BUDGET_MS ? 'PASS' : 'FAIL'}   baseline GET /v1/products p99: ${baseline} ms`);
  return worst;
}

export async function reviewsBench(): Promise<void> {
  const app = await startTestApp();
  try {
    await figures('SQLite', app);
  } finally {
    await app.stop();
  }
  await withPostgresSchema(async (url) => {
    const pgApp = await startTestApp({ env: { DATABASE_URL: url } });
    try {
      await figures('PostgreSQL', pgApp);
    } finally {
      await pgApp.stop();
    }
  });
}
