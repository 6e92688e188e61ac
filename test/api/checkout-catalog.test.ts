import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { accountBalance, findAccount } from '../../server/platform/domain/ledger/ledger';
import { createProvider } from '../../server/platform/domain/providers/provider';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, eventsOf, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';

const clock = new FakeClock(new Date());
let app: TestApp;
/** A lender whose default product pays a merchant the borrower picks from the directory. */
let lender: LendingTenant;
let plain: LendingTenant;
const merchants = {} as Record<'alpha' | 'beta' | 'gamma' | 'closed', string>;

const unique = () => crypto.randomBytes(3).toString('hex').toUpperCase();

beforeAll(async () => {
  app = await startTestApp({ clock });
  lender = await lendingTenant(app, { product: { settlementDestination: 'merchant_wallet', settlementCatalogEnabled: true } });
  plain = await lendingTenant(app);
  const directory = [
    { key: 'alpha', name: 'Alpha Labs', providerType: 'laboratory', state: 'Lagos', city: 'Ikeja' },
    { key: 'beta', name: 'Beta Pharmacy', providerType: 'pharmacy', state: 'FCT', city: 'Abuja', address: '4 Wuse Close' },
    { key: 'gamma', name: 'Gamma Lab & Pharmacy', providerType: 'laboratory_pharmacy', state: 'Kano', city: 'Kano' },
    { key: 'closed', name: 'Closed Labs', providerType: 'laboratory', state: 'Lagos', isActive: false },
  ] as const;
  for (const { key, ...p } of directory) {
    merchants[key] = (await createProvider(app.platform.db, { code: `${key}-${unique()}`, ...p }, clock.now())).id;
  }
});
afterAll(() => app.stop());

const signature = (documentReference: string) => ({
  signatureFullName: 'Ada Obi',
  documentReference,
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
});

async function catalogSession(tenant: LendingTenant = lender) {
  return verifiedSession(app, tenant);
}

const loanRow = (id: string) => app.platform.db.selectFrom('loans').select(['status', 'settlementProviderId', 'settlementProviderChosenAt', 'updatedAt']).where('id', '=', id).executeTakeFirstOrThrow();

describe('the catalog step', () => {
  it('is listed before the offer for a merchant_wallet product with the catalog, and never for other products', async () => {
    const { session } = await catalogSession();
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state.steps.map((s: { name: string }) => s.name)).toEqual(['otp', 'catalog', 'offer', 'bank', 'mandate']);
    expect(state).toMatchObject({ nextStep: 'catalog', settlementCatalog: true, settlementMerchant: null, status: 'in_progress' });

    const other = await verifiedSession(app, plain);
    const theirs = (await other.session.get('/v1/checkout/session')).body.data;
    expect(theirs.steps.map((s: { name: string }) => s.name)).toEqual(['otp', 'offer', 'bank', 'mandate']);
    expect(theirs).toMatchObject({ settlementCatalog: false, settlementMerchant: null });
  });

  it('lists active merchants by name with their public business facts only, searchable and paginated', async () => {
    const { session } = await catalogSession();
    const all = await session.get('/v1/checkout/merchants?limit=50');
    expect(all.status).toBe(200);
    const ids = all.body.data.merchants.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([merchants.alpha, merchants.beta, merchants.gamma]));
    expect(ids).not.toContain(merchants.closed);
    const names = all.body.data.merchants.map((m: { name: string }) => m.name);
    expect(names).toEqual([...names].sort());
    const beta = all.body.data.merchants.find((m: { id: string }) => m.id === merchants.beta);
    expect(beta).toEqual({ id: merchants.beta, name: 'Beta Pharmacy', providerType: 'pharmacy', address: '4 Wuse Close', city: 'Abuja', state: 'FCT' });

    const byName = await session.get('/v1/checkout/merchants?q=pharm');
    expect(byName.body.data.merchants.map((m: { id: string }) => m.id)).toEqual([merchants.beta, merchants.gamma]);
    const byPlace = await session.get(`/v1/checkout/merchants?q=${encodeURIComponent('ABUJA')}`);
    expect(byPlace.body.data.merchants.map((m: { id: string }) => m.id)).toEqual([merchants.beta]);
    expect((await session.get('/v1/checkout/merchants?q=%25')).body.data.merchants).toEqual([]);

    const first = await session.get('/v1/checkout/merchants?limit=1');
    const second = await session.get('/v1/checkout/merchants?limit=1&page=2');
    expect(first.body.data.pagination).toMatchObject({ page: 1, limit: 1, total: ids.length, hasNext: true });
    expect(second.body.data.merchants[0].id).toBe(ids[1]);
    expect((await session.get('/v1/checkout/merchants?limit=51')).status).toBe(400);
  });

  it('when the borrower picks a merchant, then it is recorded on the loan, shown in the state, and the step is done; picking it again changes nothing', async () => {
    const { session, loan } = await catalogSession();
    const eventsBefore = await eventsOf(app, lender.organisationId);
    const chosen = await session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toEqual({ merchant: expect.objectContaining({ id: merchants.alpha, name: 'Alpha Labs' }), chosenAt: clock.now().toISOString() });
    expect(await loanRow(loan.id)).toMatchObject({ settlementProviderId: merchants.alpha, settlementProviderChosenAt: clock.now().toISOString() });
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state).toMatchObject({ nextStep: 'offer', steps: expect.arrayContaining([{ name: 'catalog', done: true }]), settlementMerchant: chosen.body.data });

    clock.advance(60_000);
    const before = await loanRow(loan.id);
    const again = await session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(chosen.body.data);
    expect(await loanRow(loan.id)).toEqual(before);

    const replayKey = { 'Idempotency-Key': `merchant-${loan.id}` };
    const changed = await session.post('/v1/checkout/merchant', { providerId: merchants.beta }, replayKey);
    expect(changed.body.data.merchant.id).toBe(merchants.beta);
    const replay = await session.post('/v1/checkout/merchant', { providerId: merchants.beta }, replayKey);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(changed.body.data);
    // No event: the spec's catalog has none for this.
    expect(await eventsOf(app, lender.organisationId)).toEqual(eventsBefore);
  });

  it('when the borrower signs before choosing, then 409 checkout_step_required and the loan is unchanged', async () => {
    const { session, loan } = await catalogSession();
    const early = await session.post('/v1/checkout/accept', signature(loan.documentReference));
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('checkout_step_required');
    expect((await loanRow(loan.id)).status).toBe('awaiting_acceptance');
    await session.post('/v1/checkout/merchant', { providerId: merchants.gamma });
    expect((await session.post('/v1/checkout/accept', signature(loan.documentReference))).status).toBe(200);
  });

  it.each([
    ['an unknown id', () => ({ providerId: '00000000-0000-4000-8000-000000000000' }), 422, 'provider_not_found'],
    ['an inactive merchant', () => ({ providerId: merchants.closed }), 422, 'provider_not_found'],
    ['another organisation\'s id (not a merchant)', () => ({ providerId: plain.organisationId }), 422, 'provider_not_found'],
    ['a malformed id', () => ({ providerId: 'alpha' }), 400, 'invalid_request'],
    ['no id', () => ({}), 400, 'invalid_request'],
    ['an extra field', () => ({ providerId: merchants.alpha, merchantWallet: 'x' }), 400, 'invalid_request'],
  ])('with %s answers %i %s and records nothing', async (_name, body, status, code) => {
    const { session, loan } = await catalogSession();
    const before = await loanRow(loan.id);
    const res = await session.post('/v1/checkout/merchant', body());
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, error: code });
    expect(await loanRow(loan.id)).toEqual(before);
    expect((await session.get('/v1/checkout/session')).body.data.settlementMerchant).toBeNull();
  });

  it('refuses loans without the catalog (422), and both routes before the OTP (403)', async () => {
    const other = await verifiedSession(app, plain);
    expect((await other.session.get('/v1/checkout/merchants')).body.error).toBe('settlement_catalog_not_offered');
    const refused = await other.session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('settlement_catalog_not_offered');
    expect((await loanRow(other.loan.id)).settlementProviderId).toBeNull();

    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const unverified = sessionClient(app, tokenOf(loan.applicationUrl));
    expect((await unverified.get('/v1/checkout/merchants')).status).toBe(403);
    const early = await unverified.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    expect(early.status).toBe(403);
    expect(early.body.error).toBe('checkout_otp_required');
    expect((await loanRow(loan.id)).settlementProviderId).toBeNull();
    // A partner key is not a session: the checkout routes answer 403 to it.
    expect((await client(app, lender.test).post('/v1/checkout/merchant', { providerId: merchants.alpha })).status).toBe(403);
  });

  it('a session chooses for its own loan only: another organisation\'s borrower choosing changes nothing here, and each disbursement pays its own organisation\'s merchant wallet', async () => {
    const rival = await lendingTenant(app, { product: { settlementDestination: 'merchant_wallet', settlementCatalogEnabled: true } });
    const mine = await catalogSession();
    const theirs = await catalogSession(rival);
    await mine.session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    await theirs.session.post('/v1/checkout/merchant', { providerId: merchants.beta });
    expect((await loanRow(mine.loan.id)).settlementProviderId).toBe(merchants.alpha);
    expect((await loanRow(theirs.loan.id)).settlementProviderId).toBe(merchants.beta);

    await mine.session.post('/v1/checkout/accept', signature(mine.loan.documentReference));
    expect((await client(app, lender.test).post(`/v1/loans/${mine.loan.id}/disburse`)).status).toBe(200);
    // The rival's key cannot disburse (nor see) this loan.
    expect((await client(app, rival.test).post(`/v1/loans/${mine.loan.id}/disburse`)).status).toBe(404);
    expect(await findAccount(app.platform.db, { organisationId: rival.organisationId, mode: 'test', kind: 'merchant_wallet', code: merchants.alpha })).toBeUndefined();
  });
});

describe('disbursement pays the chosen merchant', () => {
  it('credits the merchant wallet of the provider the borrower chose, not the one in the push', async () => {
    const { session, loan } = await catalogSession();
    await session.post('/v1/checkout/merchant', { providerId: merchants.gamma });
    await session.post('/v1/checkout/merchant', { providerId: merchants.beta });
    await session.post('/v1/checkout/accept', signature(loan.documentReference));
    const wallet = { organisationId: lender.organisationId, mode: 'test' as const, kind: 'merchant_wallet' as const, code: merchants.beta };
    const before = await findAccount(app.platform.db, wallet);
    const balanceBefore = before ? await accountBalance(app.platform.db, before.id) : 0;

    const disbursed = await client(app, lender.test).post(`/v1/loans/${loan.id}/disburse`);
    expect(disbursed.status).toBe(200);
    const account = await findAccount(app.platform.db, wallet);
    expect(account).toBeDefined();
    // Credit-normal: what the merchant is owed is the negative of the balance.
    expect(balanceBefore - (await accountBalance(app.platform.db, account!.id))).toBe(loan.principalKobo);
    const gamma = await findAccount(app.platform.db, { ...wallet, code: merchants.gamma });
    expect(gamma ? await accountBalance(app.platform.db, gamma.id) : 0).toBe(0);
    expect(await findAccount(app.platform.db, { ...wallet, code: 'unassigned' })).toBeUndefined();
    expect((await session.get('/v1/checkout/session')).body.data.steps).toContainEqual({ name: 'catalog', done: true });
  });

  it('after disbursement, another choice answers 409 invalid_loan_state and changes nothing; the same choice still answers it', async () => {
    const { session, loan } = await catalogSession();
    await session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    await session.post('/v1/checkout/accept', signature(loan.documentReference));
    await client(app, lender.test).post(`/v1/loans/${loan.id}/disburse`);
    const before = await loanRow(loan.id);
    const res = await session.post('/v1/checkout/merchant', { providerId: merchants.beta });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
    expect(await loanRow(loan.id)).toEqual(before);
  });

  it('a declined loan has no merchant to choose (409)', async () => {
    const { session, loan } = await catalogSession();
    await session.post('/v1/checkout/decline', { ...signature(loan.documentReference), reason: 'not now' });
    const res = await session.post('/v1/checkout/merchant', { providerId: merchants.alpha });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
    expect((await loanRow(loan.id)).settlementProviderId).toBeNull();
  });

  it('a loan on the same product without a choice (partner-accepted) still pays the pushed provider', async () => {
    const phone = uniquePhone();
    const api = client(app, lender.test);
    const pushed = await api.post('/v1/preapprovals', { ...pushBody({ phone }), providerId: merchants.gamma });
    expect(pushed.status).toBe(202);
    const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    const loan = issued.body.data;
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    await session.post('/v1/checkout/otp/send');
    await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    expect((await session.get('/v1/checkout/session')).body.data.nextStep).toBe('catalog');
    expect((await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) })).status).toBe(200);
    expect((await api.post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    const account = await findAccount(app.platform.db, { organisationId: lender.organisationId, mode: 'test', kind: 'merchant_wallet', code: merchants.gamma });
    expect(account).toBeDefined();
    expect((await session.get('/v1/checkout/session')).body.data.steps).toContainEqual({ name: 'catalog', done: true });
  });
});

describe('the checkout server\'s catalog endpoints', () => {
  it('forwards the list (with its query) and the choice with the cookie', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const opened = await fetch(`${app.url}/checkout/c/${tokenOf(loan.applicationUrl)}`, { redirect: 'manual' });
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${app.url}/checkout/api${path}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    await call('POST', '/otp/send', {});
    await call('POST', '/otp/verify', { code: await latestOtp(app, phone) });
    const listed = await call('GET', '/merchants?q=alpha&extra=1');
    expect(listed.status).toBe(200);
    expect(listed.body.data.merchants.map((m: { id: string }) => m.id)).toEqual([merchants.alpha]);
    expect((await call('GET', '/merchants?limit=500')).status).toBe(400);
    const chosen = await call('POST', '/merchant', { providerId: merchants.alpha, organisationId: plain.organisationId });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.merchant.id).toBe(merchants.alpha);
    expect((await loanRow(loan.id)).settlementProviderId).toBe(merchants.alpha);
    expect((await call('POST', '/merchant', { providerId: 'nope' })).status).toBe(400);
  });
});
