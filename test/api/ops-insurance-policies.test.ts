import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { AmlScreens } from '../../server/integrations/aml';
import { FakeClock } from '../../server/integrations/clock';
import { ConfigError, loadConfig } from '../../server/config';
import { liveProviders } from '../../server/platform/platform';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { scopeBalances } from '../../server/platform/domain/ledger/loan-books';
import { POLICY_DOCUMENT_MAX_BYTES } from '../../server/platform/domain/ops/insurance-policies';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { staffMember, type OpsClient } from '../support/ops';

/**
 * Insurance bound by hand: with `INSURANCE_LIVE_INSURER` set, an insured live loan disburses with its policy `pending`
 * and the premium booked payable to the insurer; staff record the insurer's policy number and document (a PDF) in the
 * console, under four eyes in live mode and at once in test mode; the policy becomes `active` with
 * `loan.insurance.activated`.
 */
const clock = new FakeClock(new Date());
const INSURER = 'leadway_test';
let app: TestApp;
let tenant: LendingTenant;
let financeA: OpsClient;
let financeB: OpsClient;
let support: OpsClient;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { INSURANCE_LIVE_INSURER: INSURER } });
  tenant = await lendingTenant(app);
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'live', code: 'MAIN', amountKobo: 1_000_000_000, now: clock.now() }),
  );
  financeA = await staffMember(app, 'finance');
  financeB = await staffMember(app, 'finance');
  support = await staffMember(app, 'support');
});
afterAll(() => app.stop());

const live = () => client(app, tenant.live);
const pdf = (text = 'policy') => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
const body = (policyNumber: string, document: Buffer = pdf(policyNumber)) => ({ policyNumber, documentBase64: document.toString('base64') });

/** A live loan, accepted, then disbursed (live loans reach an offer only through a screen: a fake live AML provider clears it). */
async function liveDisbursedLoan(): Promise<{ id: string }> {
  const before = app.platform.aml;
  app.platform.aml = new AmlScreens({ provider: 'fake', adapter: { screen: async () => ({ status: 'clear', detail: 'fake live provider: no match' }) } });
  try {
    const pushed = await live().post('/v1/preapprovals', pushBody());
    expect(pushed.status).toBe(202);
    const issued = await live().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    const accepted = await live().post(`/v1/loans/${issued.body.data.id}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) });
    expect(accepted.status).toBe(200);
  } finally {
    app.platform.aml = before;
  }
  const loan = (await app.platform.db.selectFrom('loans').select('id').where('organisationId', '=', tenant.organisationId).where('mode', '=', 'live').where('status', '=', 'terms_accepted').executeTakeFirstOrThrow());
  const disbursed = await live().post(`/v1/loans/${loan.id}/disburse`);
  expect(disbursed.status).toBe(200);
  return loan;
}

const policyOf = (loanId: string) => app.platform.db.selectFrom('loanInsurancePolicies').selectAll().where('loanId', '=', loanId).executeTakeFirstOrThrow();
const activations = (loanId: string) =>
  app.platform.db.selectFrom('events').select(['name', 'mode', 'payload']).where('name', '=', 'loan.insurance.activated').execute().then((rows) => rows.filter((row) => JSON.stringify(row.payload).includes(loanId)));
const storedFiles = (policyId: string) => {
  const dir = path.join(app.platform.config.FILE_STORAGE_DIR ?? path.join(app.platform.config.DATA_DIR, 'files'), 'insurance-policies', policyId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
const counts = async () => ({
  proposals: (await app.platform.db.selectFrom('opsProposals').select('id').where('kind', '=', 'insurance_policy_record').execute()).length,
  postings: (await app.platform.db.selectFrom('ledgerPostings').select('id').execute()).length,
  events: (await app.platform.db.selectFrom('events').select('id').execute()).length,
});

describe('insurance bound by hand', () => {
  it('INSURANCE_LIVE_INSURER names the live insurer (the start-up line shows it); a name that is not a short name is refused at start', () => {
    expect(liveProviders(app.platform).insurance).toBe(`staff_recorded:${INSURER}`);
    expect(loadConfig({ INSURANCE_LIVE_INSURER: 'leadway' }).INSURANCE_LIVE_INSURER).toBe('leadway');
    expect(() => loadConfig({ INSURANCE_LIVE_INSURER: 'Leadway Assurance Plc' })).toThrow(ConfigError);
    expect(loadConfig({}).INSURANCE_LIVE_INSURER).toBeUndefined();
  });

  it('an insured live loan disburses with its policy pending and the premium booked payable to the insurer; the queue lists it', async () => {
    const loan = await liveDisbursedLoan();
    const insurance = await live().get(`/v1/loans/${loan.id}/insurance`);
    expect(insurance.status).toBe(200);
    expect(insurance.body.data).toMatchObject({ status: 'pending', provider: INSURER, policyReference: null, activatedAt: null, premiumBearer: 'borrower' });
    const { premiumKobo, commissionKobo, id: policyId } = insurance.body.data;
    expect(premiumKobo).toBeGreaterThan(0);

    // Double entry: the borrower owes the premium, the insurer is owed it less the platform's commission.
    const transaction = await app.platform.db.selectFrom('ledgerTransactions').select('id').where('reference', '=', `insurance-${policyId}`).executeTakeFirstOrThrow();
    const postings = await app.platform.db
      .selectFrom('ledgerPostings as p')
      .innerJoin('ledgerAccounts as a', 'a.id', 'p.accountId')
      .select(['a.kind', 'a.code', 'p.amountKobo'])
      .where('p.transactionId', '=', transaction.id)
      .execute();
    expect(postings.map((p) => [p.kind, p.code, Number(p.amountKobo)]).sort()).toEqual(
      [
        ['insurance_receivable', loan.id, premiumKobo],
        ['insurance_payable', INSURER, -(premiumKobo - commissionKobo)],
        ['platform_revenue', 'insurance_commission', -commissionKobo],
      ].sort(),
    );
    const balances = await scopeBalances(app.platform.db, { organisationId: tenant.organisationId, mode: 'live' });
    expect(balances.find((b) => b.kind === 'insurance_payable' && b.code === INSURER)?.balanceKobo).toBe(-(premiumKobo - commissionKobo));
    expect(await checkLedger(app.platform.db)).toMatchObject({ ok: true, ledgerSumKobo: 0 });

    const queue = await support.send('GET', '/insurance-policies?limit=100');
    expect(queue.status).toBe(200);
    expect(queue.json.data.find((row: { id: string }) => row.id === policyId)).toMatchObject({ loanId: loan.id, mode: 'live', provider: INSURER, premiumKobo, proposalId: null });
    expect((await support.send('GET', '/overview')).json.data.counts.insurancePolicies).toBeGreaterThanOrEqual(1);
  });

  it('recording a live policy is a proposal: refused when its proposer approves it, in force when another staff member does', async () => {
    const loan = await liveDisbursedLoan();
    const policy = await policyOf(loan.id);
    const before = await counts();

    const proposed = await financeA.send('POST', `/insurance-policies/${policy.id}/record`, body('LW/CL/2026/000123'));
    expect(proposed.status).toBe(202);
    expect(proposed.json.data.proposal).toMatchObject({ kind: 'insurance_policy_record', subject: policy.id, status: 'open', payload: { policyNumber: 'LW/CL/2026/000123', documentBytes: pdf('LW/CL/2026/000123').length } });
    expect(await policyOf(loan.id)).toMatchObject({ status: 'pending', policyReference: null, documentKey: null });
    const queued = (await financeB.send('GET', '/insurance-policies?limit=100')).json.data.find((row: { id: string }) => row.id === policy.id);
    expect(queued.proposalId).toBe(proposed.json.data.proposal.id);
    // Whoever approves reads the document the proposal would record.
    const document = await fetch(`${app.url}/ops/api/insurance-policies/${policy.id}/document`, { headers: { cookie: financeB.cookie! } });
    expect([document.status, document.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(Buffer.from(await document.arrayBuffer())).toEqual(pdf('LW/CL/2026/000123'));

    const twice = await financeB.send('POST', `/insurance-policies/${policy.id}/record`, body('LW/CL/2026/000124'));
    expect([twice.status, twice.json.error]).toEqual([409, 'proposal_pending']);
    expect(storedFiles(policy.id)).toHaveLength(1);

    const own = await financeA.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {});
    expect([own.status, own.json.error]).toEqual([403, 'four_eyes_required']);
    expect(await policyOf(loan.id)).toMatchObject({ status: 'pending', policyReference: null });
    expect(await activations(loan.id)).toHaveLength(0);

    const approved = await financeB.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.json.data.result).toMatchObject({ policyId: policy.id, loanId: loan.id, status: 'active', policyReference: 'LW/CL/2026/000123' });
    const recorded = await policyOf(loan.id);
    expect(recorded).toMatchObject({ status: 'active', policyReference: 'LW/CL/2026/000123', documentBytes: pdf('LW/CL/2026/000123').length, activatedAt: expect.any(String) });
    expect(recorded.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await live().get(`/v1/loans/${loan.id}/insurance`)).body.data).toMatchObject({ status: 'active', policyReference: 'LW/CL/2026/000123', activatedAt: recorded.activatedAt });

    const events = await activations(loan.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.mode).toBe('live');
    const payload = typeof events[0]!.payload === 'string' ? JSON.parse(events[0]!.payload) : events[0]!.payload;
    expect(JSON.stringify(payload)).toContain('LW/CL/2026/000123');

    // Recording moves no money (the payable was booked at disbursement); the ledger still balances.
    const after = await counts();
    expect(after.postings).toBe(before.postings);
    expect(after.proposals).toBe(before.proposals + 1);
    expect(await checkLedger(app.platform.db)).toMatchObject({ ok: true });
    expect((await financeB.send('GET', '/insurance-policies?limit=100')).json.data.some((row: { id: string }) => row.id === policy.id)).toBe(false);

    const audit = (await financeB.send('GET', '/audit?limit=100')).json.data as Array<{ action: string; target: string }>;
    const actions = audit.filter((row) => row.target.includes(policy.id)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['proposal_created', 'proposal_approved', 'insurance_policy_recorded']));

    const again = await financeA.send('POST', `/insurance-policies/${policy.id}/record`, body('LW/CL/2026/000999'));
    expect([again.status, again.json.error, again.json.data?.status]).toEqual([409, 'insurance_policy_not_pending', 'active']);
    expect(storedFiles(policy.id)).toHaveLength(1);
  });

  it('bad input gets a 4xx and changes nothing: no proposal, no file, the policy still pending', async () => {
    const loan = await liveDisbursedLoan();
    const policy = await policyOf(loan.id);
    const before = await counts();
    const cases: Array<[OpsClient, string, unknown, number, string]> = [
      [financeA, policy.id, { policyNumber: 'LW-1', documentBase64: Buffer.from('hello, not a pdf').toString('base64') }, 422, 'policy_document_not_pdf'],
      [financeA, policy.id, body('LW-1', Buffer.alloc(POLICY_DOCUMENT_MAX_BYTES + 1, 0x25).fill('%PDF-', 0, 5, 'latin1')), 413, 'policy_document_size'],
      [financeA, policy.id, { policyNumber: 'LW-1', documentBase64: '' }, 400, 'invalid_request'],
      [financeA, policy.id, { policyNumber: 'LW-1', documentBase64: 'not base64 at all!' }, 400, 'invalid_request'],
      [financeA, policy.id, { policyNumber: '<script>', documentBase64: pdf().toString('base64') }, 400, 'invalid_request'],
      [financeA, policy.id, { policyNumber: 'x', documentBase64: pdf().toString('base64') }, 400, 'invalid_request'],
      [financeA, policy.id, { ...body('LW-1'), premiumKobo: 1 }, 400, 'invalid_request'],
      [financeA, 'not-a-uuid', body('LW-1'), 400, 'invalid_request'],
      [financeA, '00000000-0000-4000-8000-000000000000', body('LW-1'), 404, 'NOT_FOUND'],
      [support, policy.id, body('LW-1'), 403, 'staff_permission_denied'],
    ];
    for (const [who, id, payload, status, error] of cases) {
      const res = await who.send('POST', `/insurance-policies/${id}/record`, payload);
      expect([res.status, res.json?.error], JSON.stringify(payload).slice(0, 80)).toEqual([status, error]);
    }
    expect(await counts()).toEqual(before);
    expect(storedFiles(policy.id)).toEqual([]);
    expect(await policyOf(loan.id)).toMatchObject({ status: 'pending', policyReference: null, documentKey: null });
    expect((await financeA.send('GET', `/insurance-policies/${policy.id}/document`)).status).toBe(404);
  });

  it('a refused live record changes nothing and its document is removed; the policy can be recorded again', async () => {
    const loan = await liveDisbursedLoan();
    const policy = await policyOf(loan.id);
    const proposed = await financeA.send('POST', `/insurance-policies/${policy.id}/record`, body('LW-WRONG-1'));
    expect(proposed.status).toBe(202);
    expect(storedFiles(policy.id)).toHaveLength(1);
    const refused = await financeB.send('POST', `/proposals/${proposed.json.data.proposal.id}/refuse`, { reason: 'policy number does not match the certificate' });
    expect(refused.status).toBe(200);
    expect(storedFiles(policy.id)).toEqual([]);
    expect(await policyOf(loan.id)).toMatchObject({ status: 'pending', policyReference: null, documentKey: null });
    expect(await activations(loan.id)).toHaveLength(0);
    const again = await financeA.send('POST', `/insurance-policies/${policy.id}/record`, body('LW-RIGHT-1'));
    expect(again.status).toBe(202);
    expect((await financeB.send('POST', `/proposals/${again.json.data.proposal.id}/approve`, {})).status).toBe(200);
    expect(await policyOf(loan.id)).toMatchObject({ status: 'active', policyReference: 'LW-RIGHT-1' });
  });

  it('in test mode recording takes effect at once: the policy is active with its event', async () => {
    // The sandbox insurer leaves a principal ending in 77 kobo pending, as live cover bound by hand is.
    const { loan } = await acceptedLoan(app, tenant, { amount: 150000.77 });
    const disbursed = await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`);
    expect(disbursed.status).toBe(200);
    const policy = await policyOf(loan.id);
    expect(policy).toMatchObject({ mode: 'test', status: 'pending', provider: 'sandbox_insurer' });
    expect(await app.platform.db.selectFrom('ledgerTransactions').select('id').where('reference', '=', `insurance-${policy.id}`).executeTakeFirst()).toBeDefined();

    const recorded = await financeA.send('POST', `/insurance-policies/${policy.id}/record`, body('SBX 55/2026'));
    expect(recorded.status).toBe(200);
    expect(recorded.json.data).toMatchObject({ outcome: 'done', result: { status: 'active', policyReference: 'SBX 55/2026' } });
    expect(await policyOf(loan.id)).toMatchObject({ status: 'active', policyReference: 'SBX 55/2026' });
    const events = await activations(loan.id);
    expect(events.map((e) => e.mode)).toEqual(['test']);
    const audit = (await financeA.send('GET', '/audit?limit=100')).json.data as Array<{ action: string; target: string }>;
    expect(audit.some((row) => row.action === 'insurance_policy_recorded' && row.target.startsWith('test ') && row.target.includes(policy.id))).toBe(true);
    expect(await checkLedger(app.platform.db)).toMatchObject({ ok: true });
  });
});
