import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../server/platform/http/routes';
import { createProduct } from '../../server/platform/domain/products/product';
import { client, createTenant, pushBody, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { productInput } from '../support/factories';
import { acceptedLoan, lendingTenant, offeredLoan } from '../support/lifecycle';
import { validBodies } from '../support/valid-bodies';
import { makeDelivery } from '../support/webhooks';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';

let app: TestApp;
let owner: Tenant;
let disbursedLoanId: string;
let settlementId: string;
let mandateId: string;
let payoutId: string;
let stranger: Tenant;
const ids: Record<string, string> = {};

/** For every route with an `{id}`, how to make a record of the owner's (test mode) for it. */
const makeRecord: Record<string, () => Promise<string>> = {
  '/v1/products/{id}': async () =>
    (await createProduct(app.platform.db, { organisationId: owner.organisationId, input: productInput(), now: new Date() })).id,
  '/v1/borrowers/{id}': async () => (await client(app, owner.test).post('/v1/preapprovals', pushBody())).body.data.borrowerId,
  '/v1/preapprovals/{id}': async () => (await client(app, owner.test).post('/v1/preapprovals', pushBody())).body.data.preapprovalId,
  '/v1/loans/{id}': async () => (await offeredLoan(app, owner)).loan.id,
  '/v1/loans/{id}/offer-letter': async () => (await offeredLoan(app, owner)).loan.id,
  '/v1/loans/{id}/schedule': async () => (await offeredLoan(app, owner)).loan.id,
  '/v1/loans/{id}/insurance': async () => disbursedLoanId,
  '/v1/loans/{id}/repayments': async () => disbursedLoanId,
  '/v1/settlements/{id}': async () => settlementId,
  '/v1/settlements/{id}/csv': async () => settlementId,
  '/v1/mandates/{id}': async () => mandateId,
  '/v1/events/{id}': async () => makeDelivery(app, owner),
  '/v1/payouts/{id}': async () => payoutId,
  '/v1/reviews/{id}': async () => reviewOf(owner),
  '/v1/webhook-endpoints/{id}': async () => (await client(app, owner.test).post('/v1/webhook-endpoints', { url: 'https://partner.example/h' })).body.data.endpoint.id,
};

/** A review of the tenant's: a test-mode push for the sandbox screen's listed surname waits for a person. */
async function reviewOf(tenant: Tenant): Promise<string> {
  const pushed = await client(app, tenant.test).post('/v1/preapprovals', pushBody({ lastName: 'Sanctioned' }));
  const issued = await client(app, tenant.test).post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  return (await client(app, tenant.test).get(`/v1/reviews?loanId=${issued.body.data.id}`)).body.data.reviews[0].id;
}

/** The routes an API key reaches (a borrower session's own routes keep lenders apart in borrower-loans.test.ts). */
const keyRoutes = apiRoutes.filter((r) => r.access !== 'borrowerSession');
const idRoutes = keyRoutes.filter((r) => r.method === 'get' && r.path.includes('{id}'));

beforeAll(async () => {
  app = await startTestApp();
  owner = await lendingTenant(app);
  stranger = await createTenant(app);
  const { loan } = await acceptedLoan(app, owner);
  await client(app, owner.test).post(`/v1/loans/${loan.id}/disburse`);
  disbursedLoanId = loan.id;
  await client(app, owner.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: 100_000 });
  mandateId = (await client(app, owner.test).post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', provider: 'rail_c' })).body.data.id;
  // The loan went to borrower_bank_account: its money awaits payout, so a payout can draw on it.
  const payout = await client(app, owner.test).post('/v1/payouts', {
    borrowerId: loan.borrowerId,
    loanId: loan.id,
    amountKobo: 10_000,
    bankName: 'First Bank',
    bankCode: '011',
    accountNumber: '0000014579',
  });
  if (payout.status !== 201) throw new Error(`payout failed: ${JSON.stringify(payout.body)}`);
  payoutId = payout.body.data.id;
  settlementId = (await runSettlement(app.platform.db, { organisationId: owner.organisationId, mode: 'test', until: new Date(), now: new Date() })).statement.id;
  for (const route of idRoutes) ids[route.path] = await makeRecord[route.path]!();
});
afterAll(() => app.stop());

describe('tenant isolation', () => {
  it('has a record factory for every {id} route (add one when you add a route)', () => {
    expect(idRoutes.map((r) => r.path).sort()).toEqual(Object.keys(makeRecord).sort());
  });

  it.each(idRoutes.map((r) => r.path))('GET %s: the owner sees the record', async (path) => {
    const res = await client(app, owner.test).get(path.replace('{id}', ids[path]!));
    expect(res.status).toBe(200);
    if (path.endsWith('/csv')) expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    else if (path.split('/').length === 4) expect(res.body.data.id).toBe(ids[path]);
    else expect(res.body.data).toBeTruthy();
  });

  it.each(keyRoutes.filter((r) => r.method === 'post' && r.path.includes('{id}')).map((r) => r.path))(
    'POST %s on another organisation\'s record answers 404 and changes nothing',
    async (path) => {
      const { loan, preapprovalId } = await offeredLoan(app, owner);
      const mandate = path.includes('/mandates/{id}') ? (await client(app, owner.test).post(`/v1/loans/${loan.id}/mandates`, { email: 'a@example.com' })).body.data.id : undefined;
      const endpoint = path.startsWith('/v1/webhook-endpoints')
        ? (await client(app, owner.test).post('/v1/webhook-endpoints', { url: 'https://partner.example/h' })).body.data.endpoint.id
        : undefined;
      const delivery = path.startsWith('/v1/events') ? await makeDelivery(app, owner) : undefined;
      const session = path.startsWith('/v1/checkout-sessions') ? (await client(app, owner.test).post(`/v1/loans/${loan.id}/checkout-sessions`)).body.data : undefined;
      const review = path.startsWith('/v1/reviews') ? await reviewOf(owner) : undefined;
      const id = path.startsWith('/v1/preapprovals') ? preapprovalId : (review ?? session?.id ?? delivery ?? endpoint ?? mandate ?? loan.id);
      const before = await client(app, owner.test).get(`/v1/loans/${loan.id}`);
      const res = await client(app, stranger.test).post(path.replace('{id}', id), validBodies[path]!() ?? {});
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
      const after = await client(app, owner.test).get(`/v1/loans/${loan.id}`);
      expect(after.body.data).toEqual(before.body.data);
      if (session) expect((await client(app).get('/v1/checkout/session', { authorization: `CheckoutSession ${session.token}` })).status).toBe(200);
      if (review) expect((await client(app, owner.test).get(`/v1/reviews/${review}`)).body.data.status).toBe('open');
    },
  );

  it.each(idRoutes.map((r) => r.path))('GET %s: another organisation gets 404 NOT_FOUND and no data', async (path) => {
    const res = await client(app, stranger.test).get(path.replace('{id}', ids[path]!));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, success: false, message: expect.any(String), error: 'NOT_FOUND', docUrl: `${app.url}/docs/errors#NOT_FOUND` });
  });

  it.each(idRoutes.filter((r) => r.path !== '/v1/products/{id}').map((r) => r.path))(
    'GET %s: the owner\'s live key does not see a test-mode record',
    async (path) => {
      const res = await client(app, owner.live).get(path.replace('{id}', ids[path]!));
      expect(res.status).toBe(404);
    },
  );

  it.each(idRoutes.map((r) => r.path))('GET %s with a malformed id answers 400 INVALID_ID', async (path) => {
    const res = await client(app, owner.test).get(path.replace('{id}', 'not-a-uuid'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_ID');
  });

  it('lists only the caller\'s own records', async () => {
    const mine = await client(app, owner.test).get('/v1/preapprovals');
    const theirs = await client(app, stranger.test).get('/v1/preapprovals');
    expect(mine.body.data.preapprovals.length).toBeGreaterThan(0);
    expect(mine.body.data.preapprovals.every((p: { organisationId: string }) => p.organisationId === owner.organisationId)).toBe(true);
    expect(theirs.body.data.preapprovals).toEqual([]);
    const products = await client(app, stranger.test).get('/v1/products');
    expect(products.body.data).toEqual([]);
  });
});
