import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { productInput } from '../support/factories';
import { createOrganisation } from '../../server/platform/domain/organisations/organisation';
import { lendingTenant } from '../support/lifecycle';
import { walletBalance } from '../support/wallets';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { opsClient } from '../support/ops';

const exec = promisify(execFile);
let app: TestApp;

let bundle: string;
beforeAll(async () => {
  // No caches: each CLI change must show on the next API call here (cache lifetimes are tested elsewhere).
  app = await startTestApp({ env: { AUTH_CACHE_TTL_MS: '0', PRODUCT_CACHE_TTL_MS: '0' } });
  // The same esbuild bundle `npm run admin` runs, built into a private folder inside the project.
  bundle = path.resolve('dist', `test-cli-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

interface CliResult {
  code: number;
  json: any;
  stdout: string;
  stderr: string;
}

async function admin(...args: string[]): Promise<CliResult> {
  const env = { ...process.env, ...app.env, LOG_LEVEL: 'warn' };
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env, timeout: 60_000 }).catch((e) => e);
  const stdout: string = result.stdout ?? '';
  const lines = stdout.trim().split('\n').filter(Boolean);
  expect(lines, `stdout must hold exactly one JSON object: ${stdout}`).toHaveLength(1);
  return { code: result.code ?? 0, json: JSON.parse(lines[0]!), stdout, stderr: result.stderr ?? '' };
}

/** `staff invite --email E --role R` prints a one-time link; the person accepts it in the console with a password. */
async function staffFromCli(role: string): Promise<string> {
  const email = uniqueEmail(role);
  const invited = await admin('staff', 'invite', '--email', email, '--role', role);
  expect(invited.code).toBe(0);
  expect(invited.json).toMatchObject({ email: email.toLowerCase(), role, link: expect.stringMatching(/\/ops\/accept-invitation\?token=/) });
  const accepted = await opsClient(app).send('POST', '/accept-invitation', { token: new URL(invited.json.link).searchParams.get('token'), password: GOOD_PASSWORD });
  expect(accepted.status).toBe(200);
  return email;
}

function inputFile(name: string, value: unknown): string {
  const file = path.join(app.dataDir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('admin CLI', { timeout: 90_000 }, () => {
  let orgId: string;

  it('org create prints the organisation; the flags withhold permissions', async () => {
    const [org, restricted] = await Promise.all([
      admin('org', 'create', '--name', 'Acme Lending'),
      admin('org', 'create', '--name', 'Restricted', '--no-loan-tenant', '--no-preapproved-lending'),
    ]);
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({ id: expect.any(String), name: 'Acme Lending', loanTenant: true, preapprovedLending: true });
    expect(restricted.json).toMatchObject({ loanTenant: false, preapprovedLending: false });
    orgId = org.json.id;
  });

  it('key create prints a key pair that authenticates; key revoke makes it answer 401', async () => {
    const key = await admin('key', 'create', '--org', orgId, '--mode', 'live');
    expect(key.json).toMatchObject({ publicKey: expect.stringMatching(/^pk_live_/), secretKey: expect.stringMatching(/^sk_live_/) });
    const api = client(app, { publicKey: key.json.publicKey, secretKey: key.json.secretKey });
    expect((await api.get('/v1/products')).status).toBe(200);
    const revoked = await admin('key', 'revoke', '--public-key', key.json.publicKey);
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
    expect((await api.get('/v1/products')).status).toBe(401);
  });

  it('product create validates, enforces a unique code, and the product shows over the API', async () => {
    const input = productInput({ code: 'CLI_FLAT' });
    const [created, bad] = await Promise.all([
      admin('product', 'create', '--org', orgId, '--input', inputFile('product', input)),
      admin('product', 'create', '--org', orgId, '--input', inputFile('bad', { ...input, code: 'X', minAmountKobo: 10, maxAmountKobo: 5 })),
    ]);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ code: 'CLI_FLAT', approvalMode: 'partner_pushed', organisationId: orgId });
    expect(bad.code).not.toBe(0);
    expect(bad.json).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('minAmountKobo') });
    const duplicate = await admin('product', 'create', '--org', orgId, '--input', inputFile('product', input));
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.json.error).toBe('ALREADY_EXISTS');
    const key = await admin('key', 'create', '--org', orgId, '--mode', 'test');
    const products = await client(app, key.json).get('/v1/products');
    expect(products.body.data.map((p: { code: string }) => p.code)).toEqual(['CLI_FLAT']);
  });

  it('org configure sets tenant settings and refuses unknown or ill-typed ones', async () => {
    const ok = await admin('org', 'configure', '--org', orgId, '--input', inputFile('settings', { autoIssueOffers: true, maxInterestRateBps: 4800, preapprovalTtlSeconds: 3600 }));
    expect(ok.json).toMatchObject({ autoIssueOffers: true, maxInterestRateBps: 4800, preapprovalTtlSeconds: 3600 });
    const bad = await admin('org', 'configure', '--org', orgId, '--input', inputFile('bad-settings', { maxInterestRateBps: 'high' }));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('maxInterestRateBps');
  });

  it('org enable-live lets a self-serve (test-only) organisation use live keys', async () => {
    const selfServe = await createOrganisation(app.platform.db, { name: 'Signed Up Clinic', liveEnabled: false, now: new Date() });
    expect(selfServe.liveEnabled).toBe(false);
    // Two staff members: `staff invite` prints the link, each accepts it in the console; one proposes, another approves.
    const [first, second] = [await staffFromCli('admin'), await staffFromCli('admin')];
    const proposed = await admin('org', 'enable-live', '--org', selfServe.id, '--staff', first, '--reason', 'KYB and contract checked');
    expect(proposed.code).toBe(0);
    expect(proposed.json).toMatchObject({ proposed: true, proposal: { kind: 'live_enable', subject: selfServe.id, status: 'open' } });
    expect((await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', first)).json.error).toBe('four_eyes_required');
    const enabled = await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', second);
    expect(enabled.code).toBe(0);
    expect(enabled.json.result).toMatchObject({ id: selfServe.id, liveEnabled: true });
    expect((await admin('org', 'enable-live', '--org', 'not-a-uuid', '--staff', first, '--reason', 'typo')).code).toBe(2);
    expect((await admin('org', 'enable-live', '--org', selfServe.id, '--reason', 'nobody named')).json.message).toContain('--staff is required');
  });

  it('pool fund credits the pool; the API shows the new balance; bad amounts are refused', async () => {
    const funded = await admin('pool', 'fund', '--org', orgId, '--pool', 'MAIN', '--amount-kobo', '250000');
    expect(funded.json).toEqual({ code: 'MAIN', currency: 'NGN', balanceKobo: 250000, balanceNaira: 2500 });
    const again = await admin('pool', 'fund', '--org', orgId, '--pool', 'MAIN', '--amount-kobo', '50');
    expect(again.json.balanceKobo).toBe(250050);
    const bad = await admin('pool', 'fund', '--org', orgId, '--pool', 'MAIN', '--amount-kobo', '12.5');
    expect(bad.code).not.toBe(0);
    const key = await admin('key', 'create', '--org', orgId, '--mode', 'test');
    const balance = await client(app, key.json).get('/v1/pools/balance');
    expect(balance.body.data.pools).toEqual([{ code: 'MAIN', currency: 'NGN', balanceKobo: 250050, balanceNaira: 2500.5 }]);
  });

  it('provider create adds a directory entry', async () => {
    const created = await admin('provider', 'create', '--input', inputFile('provider', { code: 'CLI-LAB', name: 'CLI Lab', providerType: 'laboratory', state: 'Lagos' }));
    expect(created.json).toMatchObject({ code: 'CLI-LAB', receivesTests: true, receivesDrugs: false, isActive: true });
  });

  it('bootstrap creates the sandbox once and returns the same thing again', async () => {
    const first = await admin('bootstrap');
    const second = await admin('bootstrap');
    expect(second.json).toEqual(first.json);
    expect(first.json.products).toHaveLength(8);
    expect(new Set(first.json.products.map((p: { approvalMode: string }) => p.approvalMode))).toEqual(
      new Set(['tenant', 'auto_credit_score', 'myitura_analyst', 'partner_pushed']),
    );
    expect(first.json.pool.balanceKobo).toBeGreaterThan(0);
    const products = await client(app, first.json.keys).get('/v1/products');
    expect(products.body.data).toHaveLength(8);
  });

  it('loan create brings in a loan in its initial state on a tenant-approval product', async () => {
    const delegated = await admin('product', 'create', '--org', orgId, '--input', inputFile('tenant-product', productInput({ code: 'TENANT_D', approvalMode: 'tenant', kycTier: 'delegated' })));
    const managed = await admin('product', 'create', '--org', orgId, '--input', inputFile('managed-product', productInput({ code: 'TENANT_M', approvalMode: 'tenant', kycTier: 'managed' })));
    const body = (productId: string) => ({ borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000000', bvn: '22222222222' }, productId, amountKobo: 5_000_000, tenorDays: 60 });
    const [a, b, bad] = await Promise.all([
      admin('loan', 'create', '--org', orgId, '--mode', 'test', '--input', inputFile('loan-a', body(delegated.json.id))),
      admin('loan', 'create', '--org', orgId, '--mode', 'test', '--input', inputFile('loan-b', body(managed.json.id))),
      admin('loan', 'create', '--org', orgId, '--mode', 'test', '--input', inputFile('loan-bad', { ...body(delegated.json.id), amountKobo: 1 })),
    ]);
    expect(a.json).toMatchObject({ status: 'pending', approvalMode: 'tenant', kycTier: 'delegated', principalKobo: 5_000_000 });
    expect(b.json).toMatchObject({ status: 'kyc_required', kycTier: 'managed' });
    expect(b.json.borrowerId).toBe(a.json.borrowerId);
    expect(bad.code).not.toBe(0);
    expect(bad.json.error).toBe('outside_product_limits');
  });

  it('settlement run writes (or finds) the period\'s statement; ledger check reconciles', async () => {
    const first = await admin('settlement', 'run', '--org', orgId, '--mode', 'test');
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ organisationId: orgId, status: 'skipped', created: true });
    const again = await admin('settlement', 'run', '--org', orgId, '--until', first.json.periodEnd);
    expect(again.json).toMatchObject({ id: first.json.id, created: false });
    const bad = await admin('settlement', 'run', '--org', orgId, '--until', 'yesterday');
    expect(bad.code).not.toBe(0);
    const check = await admin('ledger', 'check');
    expect(check.json).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [] });
  });

  it('ledger balances prints every account of one scope with kind, code and balance; settlement statement prints a statement with its CSV', async () => {
    const tenant = await lendingTenant(app);
    const books = await admin('ledger', 'balances', '--org', tenant.organisationId, '--mode', 'test');
    expect(books.code).toBe(0);
    expect(books.json).toEqual({
      organisationId: tenant.organisationId,
      mode: 'test',
      accounts: [
        { kind: 'capital_contributions', code: 'MAIN', currency: 'NGN', balanceKobo: -1_000_000_000 },
        { kind: 'capital_pool', code: 'MAIN', currency: 'NGN', balanceKobo: 1_000_000_000 },
      ],
    });
    const live = await admin('ledger', 'balances', '--org', tenant.organisationId, '--mode', 'live');
    expect(live.json.accounts).toEqual([]);
    const [noMode, unknown] = await Promise.all([
      admin('ledger', 'balances', '--org', tenant.organisationId),
      admin('ledger', 'balances', '--org', '00000000-0000-4000-8000-000000000000', '--mode', 'test'),
    ]);
    expect(noMode.code).toBe(2);
    expect(noMode.json.error).toBe('invalid_request');
    expect(unknown.code).toBe(2);

    const run = await admin('settlement', 'run', '--org', tenant.organisationId, '--mode', 'test');
    const statement = await admin('settlement', 'statement', '--org', tenant.organisationId, '--id', run.json.id);
    expect(statement.code, statement.stderr).toBe(0);
    expect(statement.json).toMatchObject({ id: run.json.id, organisationId: tenant.organisationId, status: 'skipped' });
    expect(statement.json.csv).toBe('statement_id,period_start,period_end,loan_id,fee_kobo,interest_kobo,total_kobo,repayments\r\n');
    const elsewhere = await admin('settlement', 'statement', '--org', orgId, '--id', run.json.id);
    expect(elsewhere.code).toBe(2);
  });

  it('wallet credit tops up a test-mode borrower\'s wallet; live borrowers, unknown ones and bad amounts exit 2', async () => {
    const tenant = await lendingTenant(app);
    const testBorrower = (await client(app, tenant.test).post('/v1/preapprovals', pushBody())).body.data.borrowerId;
    const liveBorrower = (await client(app, tenant.live).post('/v1/preapprovals', pushBody())).body.data.borrowerId;
    const credited = await admin('wallet', 'credit', '--borrower', testBorrower, '--amount-kobo', '25000');
    expect(credited.code).toBe(0);
    expect(credited.json).toMatchObject({ borrowerId: testBorrower, organisationId: tenant.organisationId, mode: 'test', balanceKobo: 25_000, ledgerTransactionRef: expect.stringMatching(/^WCR-/) });
    const again = await admin('wallet', 'credit', '--borrower', testBorrower, '--amount-kobo', '5000');
    expect(again.json.balanceKobo).toBe(30_000);
    const [live, unknown, fraction, zero, missing] = await Promise.all([
      admin('wallet', 'credit', '--borrower', liveBorrower, '--amount-kobo', '25000'),
      admin('wallet', 'credit', '--borrower', '00000000-0000-4000-8000-000000000000', '--amount-kobo', '1'),
      admin('wallet', 'credit', '--borrower', testBorrower, '--amount-kobo', '1.5'),
      admin('wallet', 'credit', '--borrower', testBorrower, '--amount-kobo', '0'),
      admin('wallet', 'credit', '--amount-kobo', '100'),
    ]);
    expect(live).toMatchObject({ code: 2, json: { error: 'SANDBOX_ONLY', message: expect.stringContaining('live-mode borrower') } });
    expect(live.stderr).toContain('live-mode borrower');
    expect(unknown).toMatchObject({ code: 2, json: { error: 'NOT_FOUND' } });
    expect(fraction.code).toBe(2);
    expect(zero.code).toBe(2);
    expect(missing).toMatchObject({ code: 2, json: { message: expect.stringContaining('--borrower is required') } });
    expect(await walletBalance(app, tenant.organisationId, testBorrower)).toBe(30_000);
    expect(await walletBalance(app, tenant.organisationId, liveBorrower, 'live')).toBeUndefined();
  });

  it('payout settle and payout reject consume or release the reservation, repeat idempotently and refuse wrong states with exit 2', async () => {
    const tenant = await lendingTenant(app);
    const api = client(app, tenant.test);
    const borrowerId = (await api.post('/v1/preapprovals', pushBody())).body.data.borrowerId;
    await admin('wallet', 'credit', '--borrower', borrowerId, '--amount-kobo', '10000');
    const bank = { bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579' };
    const first = (await api.post('/v1/payouts', { borrowerId, amountKobo: 3_000, ...bank })).body.data;
    const second = (await api.post('/v1/payouts', { borrowerId, amountKobo: 2_000, ...bank })).body.data;
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(5_000);

    const settled = await admin('payout', 'settle', '--id', first.id, '--reference', 'NIP-0001');
    expect(settled.code).toBe(0);
    expect(settled.json).toMatchObject({ id: first.id, status: 'completed', settlementReference: 'NIP-0001', ledgerTransactionRef: `PYT-${first.id}-settle`, changed: true });
    const repeat = await admin('payout', 'settle', '--id', first.id, '--reference', 'NIP-0001');
    expect(repeat.json).toMatchObject({ status: 'completed', changed: false });
    const [otherRef, rejectSettled] = await Promise.all([
      admin('payout', 'settle', '--id', first.id, '--reference', 'NIP-0002'),
      admin('payout', 'reject', '--id', first.id, '--reason', 'too late'),
    ]);
    expect(otherRef).toMatchObject({ code: 2, json: { error: 'invalid_payout_state' } });
    expect(rejectSettled).toMatchObject({ code: 2, json: { error: 'invalid_payout_state' } });

    const rejected = await admin('payout', 'reject', '--id', second.id, '--reason', 'account name mismatch');
    expect(rejected.json).toMatchObject({ status: 'rejected', rejectionReason: 'account name mismatch', ledgerTransactionRef: `PYT-${second.id}-release`, changed: true });
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(7_000);
    const [rejectAgain, settleRejected, noReason, badId] = await Promise.all([
      admin('payout', 'reject', '--id', second.id, '--reason', 'again'),
      admin('payout', 'settle', '--id', second.id, '--reference', 'NIP-0003'),
      admin('payout', 'reject', '--id', second.id),
      admin('payout', 'settle', '--id', 'nope', '--reference', 'X'),
    ]);
    expect(rejectAgain.json).toMatchObject({ status: 'rejected', rejectionReason: 'account name mismatch', changed: false });
    expect(settleRejected).toMatchObject({ code: 2, json: { error: 'invalid_payout_state' } });
    expect(noReason).toMatchObject({ code: 2, json: { message: expect.stringContaining('--reason is required') } });
    expect(badId).toMatchObject({ code: 2, json: { message: expect.stringContaining('--id must be a UUID') } });
    expect(await walletBalance(app, tenant.organisationId, borrowerId)).toBe(7_000);
    expect((await api.get(`/v1/payouts/${first.id}`)).body.data.status).toBe('completed');
    const check = await admin('ledger', 'check');
    expect(check.json).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [], negativeGuardedAccounts: [] });
  });

  it('exits non-zero with a clear message on bad input', async () => {
    const [unknown, missing, badId] = await Promise.all([
      admin('frobnicate'),
      admin('key', 'create', '--mode', 'test'),
      admin('key', 'create', '--org', 'nope', '--mode', 'test'),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown command');
    expect(missing.json.message).toContain('--org is required');
    expect(badId.json.message).toContain('--org must be a UUID');
  });
});
