import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { newId } from '../../server/platform/domain/ids';
import { toJson } from '../../server/platform/db/database';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { STATEMENTS_CSV_COLUMNS } from '../../server/platform/domain/settlements/statements-csv';

/** Settlement statements on the dashboard: keyset list, CSV download (quoting, naira columns, formula guard). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

async function statement(organisationId: string, mode: 'test' | 'live', at: string, fields: Partial<{ feeSweptKobo: number; interestSweptKobo: number; status: string; failureReason: string | null; transferReference: string | null }> = {}) {
  const fee = fields.feeSweptKobo ?? 0;
  const interest = fields.interestSweptKobo ?? 0;
  const id = newId();
  await app.platform.db
    .insertInto('settlementStatements')
    .values({
      id,
      organisationId,
      mode,
      periodStart: '2026-01-01T00:00:00.000Z',
      periodEnd: at,
      feeSweptKobo: fee,
      interestSweptKobo: interest,
      totalSweptKobo: fee + interest,
      status: fields.status ?? 'completed',
      failureReason: fields.failureReason ?? null,
      transferReference: fields.transferReference ?? null,
      lines: toJson([{ loanId: newId(), feeKobo: fee, interestKobo: interest, repayments: 1 }]),
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF) to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 1);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), (i += 1);
    else field += c;
  }
  return rows;
}

describe('dashboard settlements', () => {
  let owner: DashboardClient & { organisationId: string };
  let ids: string[];
  beforeAll(async () => {
    owner = await signedInOwner(app);
    ids = [
      await statement(owner.organisationId, 'test', '2026-02-01T00:00:00.000Z', { feeSweptKobo: 150_050, interestSweptKobo: 5, transferReference: 'TRF, "quoted"\nline' }),
      await statement(owner.organisationId, 'test', '2026-03-01T00:00:00.000Z', { status: 'failed', failureReason: '=HYPERLINK("http://evil.example","click")' }),
      await statement(owner.organisationId, 'test', '2026-04-01T00:00:00.000Z', { status: 'failed', failureReason: '@SUM(A1)', transferReference: '-1+2' }),
    ];
    await statement(owner.organisationId, 'live', '2026-04-02T00:00:00.000Z', { feeSweptKobo: 999 });
  });

  it('lists the mode\'s statements newest first by keyset, with the loan count instead of the lines', async () => {
    // A real run for the period up to now (nothing to sweep: a skipped statement).
    const run = await runSettlement(app.platform.db, { organisationId: owner.organisationId, mode: 'test', until: app.platform.clock.now(), now: app.platform.clock.now() });
    const first = await owner.get('/settlements?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.data.map((s: any) => s.id)).toEqual([run.statement.id, ids[2]]);
    expect(first.json.data[1]).toMatchObject({ loans: 1, status: 'failed' });
    expect(first.json.data[1]).not.toHaveProperty('lines');
    const second = await owner.get(`/settlements?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json.data.map((s: any) => s.id)).toEqual([ids[1], ids[0]]);
    expect(second.json.nextCursor).toBeNull();
    const one = await owner.get(`/settlements/${ids[0]}`);
    expect(one.json.data.lines).toHaveLength(1);
  });

  it('downloads every statement as an attachment CSV: quoted cells, kobo and exact naira, formula cells defused; audited', async () => {
    const res = await owner.send('GET', '/settlements.csv?mode=test');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="settlements-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([...STATEMENTS_CSV_COLUMNS]);
    expect(rows).toHaveLength(5);
    const byId = new Map(rows.slice(1).map((r) => [r[0], Object.fromEntries(STATEMENTS_CSV_COLUMNS.map((c, i) => [c, r[i]]))]));
    expect(byId.get(ids[0])).toMatchObject({ fee_swept_kobo: '150050', fee_swept_naira: '1500.50', interest_swept_naira: '0.05', total_swept_kobo: '150055', total_swept_naira: '1500.55', transfer_reference: 'TRF, "quoted"\nline', loans: '1' });
    expect(byId.get(ids[1])!.failure_reason).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(byId.get(ids[2])).toMatchObject({ failure_reason: '\'@SUM(A1)', transfer_reference: '\'-1+2' });
    // The live statement is not in the test file.
    expect([...byId.values()].some((r) => r.fee_swept_kobo === '999')).toBe(false);
    const audit = await app.platform.db.selectFrom('dashboardAuditLog').select('target').where('organisationId', '=', owner.organisationId).where('action', '=', 'settlements_exported').execute();
    expect(audit).toEqual([{ target: 'test' }]);
  });

  it('live mode shows only live statements once live is enabled; another organisation sees none and its ids 404; analysts may read', async () => {
    expect((await owner.get('/settlements', { 'x-dashboard-mode': 'live' })).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    expect((await owner.send('GET', '/settlements.csv?mode=live')).status).toBe(403);
    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, app.platform.clock.now());
    const live = await owner.get('/settlements', { 'x-dashboard-mode': 'live' });
    expect(live.json.data.map((s: any) => s.feeSweptKobo)).toEqual([999]);
    expect((await owner.get(`/settlements/${ids[0]}`, { 'x-dashboard-mode': 'live' })).status).toBe(404);

    const other = await signedInOwner(app);
    expect((await other.get('/settlements')).json.data).toEqual([]);
    expect((await other.get(`/settlements/${ids[0]}`)).status).toBe(404);
    expect(parseCsv((await other.send('GET', '/settlements.csv')).text)).toHaveLength(1);
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'analyst' }).where('organisationId', '=', other.organisationId).execute();
    expect((await other.get('/settlements')).status).toBe(200);
    expect((await other.get('/settlements?limit=0')).status).toBe(400);
    expect((await other.get('/settlements?cursor=zzz')).json.error).toBe('invalid_request');
  });
});
