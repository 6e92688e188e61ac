import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createTenant, keyHeaders, startTestApp, type TestApp } from '../support/harness';
import { GOOD_PASSWORD, signedInOwner, uniqueEmail } from '../support/dashboard';
import { SoftAuthenticator } from '../support/passkeys';
import { livePayout, opsClient, staffMember, type OpsClient } from '../support/ops';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import { createEndpoint } from '../../server/platform/domain/webhooks/endpoint';
import { FakeClock } from '../../server/integrations/clock';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/platform/domain/dashboard/sign-in-throttle';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { client } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant } from '../support/lifecycle';

/**
 * The operations console's API (/ops/api) for the service's own staff: accounts on the access module shared with the
 * dashboard (invitation, password, passkeys, the second-factor gate), the staff audit log, four eyes on live money,
 * and the wall between the console and the partners' dashboard and API.
 */
let app: TestApp;
let origin: string;
let rpId: string;
beforeAll(async () => {
  app = await startTestApp();
  origin = new URL(app.platform.baseUrl).origin;
  rpId = new URL(app.platform.baseUrl).hostname;
});
afterAll(() => app.stop());

async function registerPasskey(client: OpsClient, authenticator = new SoftAuthenticator(origin, rpId)) {
  const options = await client.send('POST', '/passkeys/registration-options', {});
  expect(options.status).toBe(200);
  expect(options.json.data.rp).toMatchObject({ id: rpId, name: 'Operations console' });
  const saved = await client.send('POST', '/passkeys', { response: authenticator.register({ challenge: options.json.data.challenge, userHandle: options.json.data.user.id }), name: 'Laptop' });
  expect(saved.status).toBe(201);
  return authenticator;
}

async function auditRows(client: OpsClient): Promise<Array<{ action: string; staffEmail: string | null; target: string | null; ip: string | null; at: string }>> {
  const page = await client.send('GET', '/audit?limit=100');
  expect(page.status).toBe(200);
  return page.json.data;
}

describe('staff accounts', () => {
  it('the console’s sign-in has the dashboard’s lockout: 30 parallel wrong passwords verify exactly the limit, the rest wait, and then the right one waits too', async () => {
    const member = await staffMember(app, 'support');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => opsClient(app).send('POST', '/sign-in', { email: member.email, password: `wrong password number ${i} here` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - MAX_FAILURES_PER_ACCOUNT);
    expect((await opsClient(app).send('POST', '/sign-in', { email: member.email, password: GOOD_PASSWORD })).status).toBe(429);
  });

  it('an invited staff member accepts the link with a password, signs in with it, and the audit log names who, what, when and from where', async () => {
    const finance = await staffMember(app, 'finance');
    const session = await finance.send('GET', '/session');
    expect(session.status).toBe(200);
    expect(session.json.data.staff).toMatchObject({ email: finance.email, role: 'finance' });
    expect(session.json.data.enrolment).toBe(false);

    const again = opsClient(app);
    expect((await again.send('POST', '/sign-in', { email: finance.email, password: 'wrong password entirely' })).json.error).toBe('invalid_credentials');
    const signedIn = await again.send('POST', '/sign-in', { email: finance.email, password: GOOD_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('set-cookie')).toMatch(/ops_session=[^;]+; Max-Age=\d+; Path=\/ops; .*HttpOnly; SameSite=Lax/);

    const rows = await auditRows(again);
    const mine = rows.filter((row) => row.staffEmail === finance.email).map((row) => row.action);
    expect(mine).toEqual(expect.arrayContaining(['invitation_accepted', 'sign_in', 'sign_in_failed']));
    expect(rows.find((row) => row.action === 'invitation_accepted' && row.staffEmail === finance.email)).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1/), at: expect.any(String) });
    // The link works once.
    expect((await opsClient(app).send('POST', '/accept-invitation', { token: finance.token, password: GOOD_PASSWORD })).json.error).toBe('invitation_invalid');
  });

  it('a passkey registered in the console signs the staff member in alone', async () => {
    const support = await staffMember(app, 'support');
    const authenticator = await registerPasskey(support);
    const fresh = opsClient(app);
    const options = await fresh.send('POST', '/passkeys/sign-in/options', {});
    const verified = await fresh.send('POST', '/passkeys/sign-in/verify', { response: authenticator.sign({ challenge: options.json.data.challenge }) });
    expect(verified.status).toBe(200);
    expect((await fresh.send('GET', '/session')).json.data.staff.email).toBe(support.email);
    expect((await auditRows(fresh)).filter((row) => row.staffEmail === support.email).map((row) => row.action)).toEqual(expect.arrayContaining(['passkey_registered', 'passkey_sign_in']));
  });

  it('a dashboard passkey does not sign in to the console, nor a console passkey to the dashboard', async () => {
    const owner = await signedInOwner(app);
    const partnerKey = new SoftAuthenticator(origin, rpId);
    const options = await owner.post('/passkeys/registration-options', {});
    expect((await owner.post('/passkeys', { response: partnerKey.register({ challenge: options.json.data.challenge, userHandle: options.json.data.user.id }) })).status).toBe(201);
    const staffOptions = await opsClient(app).send('POST', '/passkeys/sign-in/options', {});
    const refused = await opsClient(app).send('POST', '/passkeys/sign-in/verify', { response: partnerKey.sign({ challenge: staffOptions.json.data.challenge }) });
    expect(refused.json.error).toBe('passkey_verification_failed');
    // A console challenge is not a dashboard one either.
    const crossed = await owner.post('/passkeys/sign-in/verify', { response: partnerKey.sign({ challenge: staffOptions.json.data.challenge }) });
    expect(crossed.json.error).toBe('passkey_challenge_invalid');
  });
});

describe('the passkey gate where every staff member must show one (OPS_PASSKEY_REQUIRED, the production default)', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ env: { OPS_PASSKEY_REQUIRED: 'true' } });
  });
  afterAll(() => strict.stop());

  it('accepting the invitation opens only an enrolment session; the passkey it registers unlocks it; the password alone later gives the passkey step, never a session', async () => {
    const email = uniqueEmail('compliance');
    const invitation = await inviteStaff(
      { db: strict.platform.db, clock: strict.platform.clock, baseUrl: strict.platform.baseUrl, passkeyAlways: true },
      { email, role: 'compliance', invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
    );
    const client = opsClient(strict);
    const accepted = await client.send('POST', '/accept-invitation', { token: new URL(invitation.link).searchParams.get('token'), password: GOOD_PASSWORD });
    expect(accepted.json.data.enrolment).toBe(true);
    expect((await client.send('GET', '/overview')).json.error).toBe('dashboard_passkey_needed');
    expect((await client.send('GET', '/session')).json.data.enrolment).toBe(true);

    const authenticator = await registerPasskey(client, new SoftAuthenticator(new URL(strict.platform.baseUrl).origin, rpId));
    expect((await client.send('GET', '/overview')).status).toBe(200);

    const later = opsClient(strict);
    const password = await later.send('POST', '/sign-in', { email, password: GOOD_PASSWORD });
    expect(password.json.data).toMatchObject({ secondFactor: 'passkey' });
    expect(later.cookie).toBeUndefined();
    expect((await later.send('GET', '/overview')).json.error).toBe('session_required');
    const second = await later.send('POST', '/passkeys/second-factor/verify', { response: authenticator.sign({ challenge: password.json.data.options.challenge }) });
    expect(second.status).toBe(200);
    expect((await later.send('GET', '/overview')).status).toBe(200);
  });
});

describe('four eyes on live money', () => {
  it('a live payout settlement is a proposal; its proposer approving gets 403 four_eyes_required and nothing moves; another staff member approving settles it; the audit log shows both', async () => {
    const [alice, bola] = [await staffMember(app, 'finance'), await staffMember(app, 'finance')];
    const { payoutId } = await livePayout(app);
    const queue = await alice.send('GET', '/payouts');
    expect(queue.json.data.find((row: { id: string }) => row.id === payoutId)).toMatchObject({ mode: 'live', status: 'requested', accountNumberLast4: '4579', proposalId: null });

    const proposed = await alice.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-LIVE-0001' });
    expect(proposed.status).toBe(202);
    const proposal = proposed.json.data.proposal;
    expect(proposal).toMatchObject({ kind: 'payout_settle', subject: payoutId, status: 'open', payload: { payoutId, reference: 'NIP-LIVE-0001' } });
    expect((await app.platform.db.selectFrom('payoutRequests').select('status').where('id', '=', payoutId).executeTakeFirstOrThrow()).status).toBe('requested');
    expect((await alice.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-LIVE-0001' })).json).toMatchObject({ error: 'proposal_pending', data: { proposalId: proposal.id } });

    const self = await alice.send('POST', `/proposals/${proposal.id}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.json.error).toBe('four_eyes_required');
    expect((await app.platform.db.selectFrom('payoutRequests').select('status').where('id', '=', payoutId).executeTakeFirstOrThrow()).status).toBe('requested');

    const approved = await bola.send('POST', `/proposals/${proposal.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.json.data.proposal).toMatchObject({ status: 'approved', decidedBy: expect.any(String) });
    expect(approved.json.data.result).toMatchObject({ id: payoutId, status: 'completed', changed: true });
    const payout = await app.platform.db.selectFrom('payoutRequests').selectAll().where('id', '=', payoutId).executeTakeFirstOrThrow();
    expect(payout).toMatchObject({ status: 'completed', settlementReference: 'NIP-LIVE-0001' });
    expect((await bola.send('POST', `/proposals/${proposal.id}/approve`, {})).json.error).toBe('proposal_closed');

    const rows = await auditRows(bola);
    const about = rows.filter((row) => row.target?.includes(proposal.id));
    expect(about.map((row) => [row.action, row.staffEmail])).toEqual(
      expect.arrayContaining([
        ['proposal_created', alice.email],
        ['proposal_approved', bola.email],
        ['payout_settled', bola.email],
      ]),
    );
  });

  it('in test mode a settlement happens at once; a role without money may neither settle nor approve', async () => {
    const finance = await staffMember(app, 'finance');
    const support = await staffMember(app, 'support');
    const { payoutId } = await livePayout(app, { mode: 'test' });
    const denied = await support.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-TEST-1' });
    expect(denied).toMatchObject({ status: 403, json: { error: 'staff_permission_denied' } });
    const done = await finance.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-TEST-1' });
    expect(done.status).toBe(200);
    expect(done.json.data).toMatchObject({ outcome: 'done', result: { id: payoutId, status: 'completed', changed: true } });
    expect((await app.platform.db.selectFrom('opsProposals').select('id').where('subject', '=', payoutId).execute()).length).toBe(0);
    expect((await auditRows(finance)).find((row) => row.target?.includes(payoutId))).toMatchObject({ action: 'payout_settled', staffEmail: finance.email });
  });

  it('a live pool-funding confirmation and live enablement take two staff members; a refusal changes nothing', async () => {
    const owner = await signedInOwner(app);
    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, app.platform.clock.now());
    const notice = (await owner.post('/pool/fund', { pool: 'MAIN', amountKobo: 7_000_000 }, { 'x-dashboard-mode': 'live' })).json.data.notice;
    const [finance, second, admin] = [await staffMember(app, 'finance'), await staffMember(app, 'finance'), await staffMember(app, 'admin')];
    expect((await finance.send('GET', '/funding-notices')).json.data.map((n: { reference: string }) => n.reference)).toContain(notice.reference);

    const proposed = await finance.send('POST', `/funding-notices/${notice.reference}/confirm`, {});
    expect(proposed.status).toBe(202);
    expect((await finance.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {})).json.error).toBe('four_eyes_required');
    const approved = await second.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {});
    expect(approved.json.data.result).toMatchObject({ reference: notice.reference, status: 'confirmed', changed: true, balance: { balanceKobo: 7_000_000 } });

    const tenant = await createTenant(app);
    await configureOrganisation(app.platform.db, tenant.organisationId, { liveEnabled: false }, app.platform.clock.now());
    const enable = await admin.send('POST', `/organisations/${tenant.organisationId}/enable-live`, { reason: 'checks done: KYB, contract, bank account' });
    expect(enable.status).toBe(202);
    const refused = await finance.send('POST', `/proposals/${enable.json.data.proposal.id}/refuse`, { reason: 'not mine to refuse' });
    expect(refused.json.error).toBe('staff_permission_denied');
    const withdrawn = await admin.send('POST', `/proposals/${enable.json.data.proposal.id}/refuse`, { reason: 'contract not signed yet' });
    expect(withdrawn.json.data).toMatchObject({ status: 'refused', note: 'contract not signed yet' });
    expect((await app.platform.db.selectFrom('organisations').select('liveEnabled').where('id', '=', tenant.organisationId).executeTakeFirstOrThrow()).liveEnabled).toBeFalsy();
    const home = await admin.send('GET', '/overview');
    expect(home.json.data.counts).toMatchObject({ payouts: expect.any(Number), fundingNotices: expect.any(Number), reviews: expect.any(Number), proposals: expect.any(Number) });
  });
});

describe('webhook endpoints switched off after failing', () => {
  it('are listed across organisations; support re-enables one (its failure count starts afresh), compliance may not; audited', async () => {
    const tenant = await createTenant(app);
    const scope = { organisationId: tenant.organisationId, mode: 'test' as const };
    const { endpoint } = await createEndpoint(app.platform.db, app.platform.secrets, scope, { url: 'https://hooks.example/lending' }, new Date(), { allowLoopback: true });
    // What the dispatcher does after too many failures (record-attempt.ts).
    await app.platform.db.updateTable('webhookEndpoints').set({ status: 'disabled', consecutiveFails: 12, failingSince: new Date().toISOString() }).where('id', '=', endpoint.id).execute();
    const [support, compliance] = [await staffMember(app, 'support'), await staffMember(app, 'compliance')];
    expect((await support.send('GET', '/webhook-endpoints')).json.data.find((row: { id: string }) => row.id === endpoint.id)).toMatchObject({ url: 'https://hooks.example/lending', consecutiveFails: 12, mode: 'test' });
    expect((await support.send('GET', '/overview')).json.data.counts.disabledEndpoints).toBeGreaterThanOrEqual(1);
    expect((await compliance.send('POST', `/webhook-endpoints/${endpoint.id}/enable`, {})).json.error).toBe('staff_permission_denied');
    const enabled = await support.send('POST', `/webhook-endpoints/${endpoint.id}/enable`, {});
    expect(enabled.status).toBe(200);
    expect(await app.platform.db.selectFrom('webhookEndpoints').select(['status', 'consecutiveFails', 'failingSince']).where('id', '=', endpoint.id).executeTakeFirstOrThrow()).toEqual({ status: 'active', consecutiveFails: 0, failingSince: null });
    expect((await support.send('POST', `/webhook-endpoints/${endpoint.id}/enable`, {})).status).toBe(404);
    expect((await auditRows(support)).find((row) => row.target?.includes(endpoint.id))).toMatchObject({ action: 'webhook_endpoint_reenabled', staffEmail: support.email });
  });
});

describe('search', () => {
  it('finds a payout by id and by its bank reference, a funding notice by reference, loans by the borrower phone as typed, organisations by name', async () => {
    const staff = await staffMember(app, 'support');
    const { payoutId, organisationId } = await livePayout(app);
    const search = async (q: string) => (await staff.send('GET', `/search?q=${encodeURIComponent(q)}`)).json.data as Array<{ kind: string; id: string }>;
    expect(await search(payoutId)).toEqual([expect.objectContaining({ kind: 'payout', id: payoutId, organisationId, mode: 'live', status: 'requested' })]);
    const finance = [await staffMember(app, 'finance'), await staffMember(app, 'finance')];
    const proposed = await finance[0]!.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-SEARCH-77' });
    await finance[1]!.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {});
    expect((await search('NIP-SEARCH-77')).map((hit) => hit.id)).toEqual([payoutId]);

    const tenant = await lendingTenant(app);
    const { loan } = await acceptedLoan(app, tenant, { phone: '+2348091234567' });
    expect((await search('0809 123 4567')).map((hit) => [hit.kind, hit.id])).toContainEqual(['loan', loan.id]);
    const name = (await app.platform.db.selectFrom('organisations').select('name').where('id', '=', tenant.organisationId).executeTakeFirstOrThrow()).name;
    expect((await search(name.toUpperCase())).map((hit) => hit.id)).toContain(tenant.organisationId);
    expect((await staff.send('GET', '/search?q=x')).json.error).toBe('invalid_request');
  });
});

describe('writing off a loan', () => {
  const clock = new FakeClock(new Date());
  let timed: TestApp;
  beforeAll(async () => {
    timed = await startTestApp({ clock, env: { DEFAULT_AFTER_DAYS_OVERDUE: '60' } });
  });
  afterAll(() => timed.stop());

  it('only an active loan in arrears: in test mode at once, the loan defaulted, its receivable written off and loan.defaulted emitted', async () => {
    const tenant = await lendingTenant(timed);
    const api = client(timed, tenant.test);
    const { loan } = await acceptedLoan(timed, tenant, { amount: '100000' });
    await api.post(`/v1/loans/${loan.id}/disburse`);
    const finance = await staffMember(timed, 'finance');
    const early = await finance.send('POST', `/loans/${loan.id}/write-off`, { reason: 'borrower unreachable' });
    expect(early).toMatchObject({ status: 409, json: { error: 'invalid_loan_state' } });

    const [first] = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    clock.set(new Date(new Date(first.dueDate).getTime() + 1000));
    await sweepArrears(timed.platform.db, timed.platform, clock.now());
    // A month later the first session has ended (idle): a colleague signs in.
    expect((await finance.send('GET', '/overview')).json.error).toBe('session_required');
    const colleague = await staffMember(timed, 'finance');
    const written = await colleague.send('POST', `/loans/${loan.id}/write-off`, { reason: 'borrower unreachable' });
    expect(written.status).toBe(200);
    expect(written.json.data).toMatchObject({ outcome: 'done', result: { loanId: loan.id, status: 'defaulted', writtenOffKobo: expect.any(Number) } });
    expect(written.json.data.result.writtenOffKobo).toBeGreaterThan(0);
    expect((await api.get(`/v1/loans/${loan.id}`)).body.data.status).toBe('defaulted');
    expect((await eventsOf(timed, tenant.organisationId)).map((e) => e.name)).toContain('loan.defaulted');
    expect((await colleague.send('POST', `/loans/${loan.id}/write-off`, { reason: 'again' })).json.error).toBe('invalid_loan_state');
  });
});

describe('the wall between the console and the partners', () => {
  it('a dashboard session, its cookie under the console name, or an API key opens nothing in /ops; a staff session opens nothing in the dashboard or the API', async () => {
    const owner = await signedInOwner(app);
    const staff = await staffMember(app, 'admin');
    const tenant = await createTenant(app);
    const dashboardToken = owner.cookie!.split('=')[1]!;
    const staffToken = staff.cookie!.split('=')[1]!;
    const get = (url: string, headers: Record<string, string>) => fetch(`${app.url}${url}`, { headers }).then(async (res) => ({ status: res.status, json: await res.json() }));

    expect(await get('/ops/api/overview', { cookie: owner.cookie! })).toMatchObject({ status: 401, json: { error: 'session_required' } });
    expect(await get('/ops/api/overview', { cookie: `ops_session=${dashboardToken}` })).toMatchObject({ status: 401, json: { error: 'session_required' } });
    expect(await get('/ops/api/overview', keyHeaders(tenant.live))).toMatchObject({ status: 401, json: { error: 'session_required' } });
    expect(await get('/dashboard/api/session', { cookie: staff.cookie! })).toMatchObject({ status: 401 });
    expect(await get('/dashboard/api/session', { cookie: `dashboard_session=${staffToken}` })).toMatchObject({ status: 401 });
    expect((await get('/v1/loans', { cookie: staff.cookie! })).status).toBe(401);
  });

  it('CSRF as the dashboard: a change without the token, from another site, or not JSON is refused and changes nothing', async () => {
    const staff = await staffMember(app, 'admin');
    const { payoutId } = await livePayout(app);
    const noToken = await fetch(`${app.url}/ops/api/payouts/${payoutId}/settle`, { method: 'POST', headers: { cookie: staff.cookie!, 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'NIP-X-1' }) });
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).error).toBe('csrf_token_invalid');
    const foreign = await staff.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-X-1' }, { origin: 'https://evil.example' });
    expect(foreign.json.error).toBe('csrf_token_invalid');
    const form = await fetch(`${app.url}/ops/api/payouts/${payoutId}/settle`, { method: 'POST', headers: { cookie: staff.cookie!, 'x-csrf-token': staff.csrf!, 'content-type': 'application/x-www-form-urlencoded' }, body: 'reference=NIP-X-1' });
    expect(form.status).toBe(415);
    expect((await app.platform.db.selectFrom('opsProposals').select('id').where('subject', '=', payoutId).execute()).length).toBe(0);
  });

  it('bad input gets a 4xx naming the field', async () => {
    const staff = await staffMember(app, 'admin');
    expect((await staff.send('POST', '/payouts/not-a-uuid/settle', { reference: 'NIP-1' })).json).toMatchObject({ error: 'invalid_request' });
    expect((await staff.send('POST', `/payouts/${crypto.randomUUID()}/settle`, { reference: 'x' })).json).toMatchObject({ error: 'invalid_request', data: { field: 'reference' } });
    expect((await staff.send('POST', `/payouts/${crypto.randomUUID()}/settle`, { reference: 'NIP-404' })).status).toBe(404);
    expect((await staff.send('GET', '/payouts?cursor=zzz')).json.error).toBe('invalid_request');
  });
});
