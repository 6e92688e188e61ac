import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmlScreens } from '../../server/integrations/aml';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { staffMember } from '../support/ops';

/**
 * `admin insurance list` and `admin insurance record`: the console's "record the policy" from the operator's shell,
 * under the same two-person rule (`--staff E`; in live mode a proposal another staff member approves).
 */
const exec = promisify(execFile);
const INSURER = 'leadway_cli';
let app: TestApp;
let tenant: LendingTenant;
let bundle: string;

beforeAll(async () => {
  app = await startTestApp({ env: { INSURANCE_LIVE_INSURER: INSURER } });
  tenant = await lendingTenant(app);
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'live', code: 'MAIN', amountKobo: 1_000_000_000, now: new Date() }),
  );
  // The same esbuild bundle `npm run admin` runs, built into a private folder inside the project.
  bundle = path.resolve('dist', `test-cli-insurance-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

async function admin(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  const env = { ...process.env, ...app.env, INSURANCE_LIVE_INSURER: INSURER, LOG_LEVEL: 'warn' };
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env, timeout: 60_000 }).catch((e) => e);
  const lines = String(result.stdout ?? '').trim().split('\n').filter(Boolean);
  expect(lines, `stdout must hold exactly one JSON object: ${result.stdout}`).toHaveLength(1);
  return { code: result.code ?? 0, json: JSON.parse(lines[0]!), stderr: result.stderr ?? '' };
}

function pdfFile(name: string, content = `%PDF-1.4\n% ${name}\n%%EOF\n`): string {
  const file = path.join(app.dataDir, `${name}.pdf`);
  fs.writeFileSync(file, content);
  return file;
}

const policyOf = (loanId: string) => app.platform.db.selectFrom('loanInsurancePolicies').selectAll().where('loanId', '=', loanId).executeTakeFirstOrThrow();

async function liveDisbursedLoanId(): Promise<string> {
  const live = client(app, tenant.live);
  const before = app.platform.aml;
  app.platform.aml = new AmlScreens({ provider: 'fake', adapter: { screen: async () => ({ status: 'clear', detail: 'fake live provider: no match' }) } });
  let loanId: string;
  try {
    const pushed = await live.post('/v1/preapprovals', pushBody());
    const issued = await live.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    loanId = issued.body.data.id;
    expect((await live.post(`/v1/loans/${loanId}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) })).status).toBe(200);
  } finally {
    app.platform.aml = before;
  }
  expect((await live.post(`/v1/loans/${loanId}/disburse`)).status).toBe(200);
  return loanId;
}

describe('admin insurance', { timeout: 120_000 }, () => {
  it('is listed in the usage', async () => {
    const usage = await admin();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('insurance record --id POLICY_ID --policy-number N --document FILE.pdf --staff E');
    expect(usage.stderr).toContain('insurance list');
  });

  it('a live policy: listed, proposed with --staff, refused when the proposer approves, active when another staff member does', async () => {
    const loanId = await liveDisbursedLoanId();
    const policy = await policyOf(loanId);
    const [first, second] = [await staffMember(app, 'finance'), await staffMember(app, 'finance')];

    const listed = await admin('insurance', 'list');
    expect(listed.code).toBe(0);
    expect(listed.json.data.find((row: { id: string }) => row.id === policy.id)).toMatchObject({ loanId, mode: 'live', provider: INSURER, proposalId: null });

    // Nobody named: refused before anything is stored.
    const nobody = await admin('insurance', 'record', '--id', policy.id, '--policy-number', 'LW-CLI-1', '--document', pdfFile('nobody'));
    expect([nobody.code, nobody.json.error]).toEqual([2, 'invalid_request']);
    expect(nobody.json.message).toContain('--staff is required');

    const proposed = await admin('insurance', 'record', '--id', policy.id, '--policy-number', 'LW-CLI-1', '--document', pdfFile('first'), '--staff', first.email);
    expect(proposed.code).toBe(0);
    expect(proposed.json).toMatchObject({ proposed: true, proposal: { kind: 'insurance_policy_record', subject: policy.id, status: 'open' } });
    expect((await policyOf(loanId)).status).toBe('pending');

    const own = await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', first.email);
    expect([own.code, own.json.error]).toEqual([2, 'four_eyes_required']);
    expect((await policyOf(loanId)).status).toBe('pending');

    const approved = await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', second.email);
    expect(approved.code).toBe(0);
    expect(approved.json.result).toMatchObject({ policyId: policy.id, status: 'active', policyReference: 'LW-CLI-1' });
    expect(await policyOf(loanId)).toMatchObject({ status: 'active', policyReference: 'LW-CLI-1' });
    const events = await app.platform.db.selectFrom('events').select('payload').where('name', '=', 'loan.insurance.activated').where('mode', '=', 'live').execute();
    expect(events.some((e) => JSON.stringify(e.payload).includes(policy.id))).toBe(true);
  });

  it('test mode: at once; bad input exits 2 and changes nothing', async () => {
    const { loan } = await acceptedLoan(app, tenant, { amount: 150000.77 });
    expect((await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    const policy = await policyOf(loan.id);
    expect(policy.status).toBe('pending');
    const staff = await staffMember(app, 'finance');

    const notPdf = await admin('insurance', 'record', '--id', policy.id, '--policy-number', 'SBX-1', '--document', pdfFile('not-pdf', 'hello'), '--staff', staff.email);
    expect([notPdf.code, notPdf.json.error]).toEqual([2, 'policy_document_not_pdf']);
    const missing = await admin('insurance', 'record', '--id', policy.id, '--policy-number', 'SBX-1', '--document', path.join(app.dataDir, 'nowhere.pdf'), '--staff', staff.email);
    expect([missing.code, missing.json.error]).toEqual([2, 'invalid_request']);
    const badId = await admin('insurance', 'record', '--id', 'nope', '--policy-number', 'SBX-1', '--document', pdfFile('ok'), '--staff', staff.email);
    expect([badId.code, badId.json.error]).toEqual([2, 'invalid_request']);
    expect((await policyOf(loan.id)).status).toBe('pending');

    const done = await admin('insurance', 'record', '--id', policy.id, '--policy-number', 'SBX-1', '--document', pdfFile('ok'), '--staff', staff.email);
    expect(done.code).toBe(0);
    expect(done.json).toMatchObject({ policyId: policy.id, status: 'active', policyReference: 'SBX-1' });
    expect(await policyOf(loan.id)).toMatchObject({ status: 'active', policyReference: 'SBX-1', documentBytes: '%PDF-1.4\n% ok\n%%EOF\n'.length });
  });
});
