import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../server/platform/http/routes';
import { badBodies } from '../support/bad-bodies';
import { client, createTenant, pushBody, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { validBodies } from '../support/valid-bodies';
import { offeredLoan, lendingTenant } from '../support/lifecycle';
import { tokenOf, uniquePhone } from '../support/checkout';
import { lentLoan, mintBorrowerSession } from '../support/borrower-loans';

let app: TestApp;
let tenant: Tenant;
/** Checkout routes take a session token, not a key: their bad bodies are sent with one, so the schema itself is exercised. */
let sessionHeaders: Record<string, string>;
/** The borrower's own routes likewise take a borrower-session token. */
let borrowerHeaders: Record<string, string>;

/** A valid body for every POST route; add one when you add a route. */
const postRoutes = apiRoutes.filter((r) => r.method === 'post');

beforeAll(async () => {
  app = await startTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });
  tenant = await createTenant(app);
  const lender = await lendingTenant(app);
  const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
  sessionHeaders = { authorization: `CheckoutSession ${tokenOf(loan.applicationUrl)}` };
  const { loan: lent } = await lentLoan(app, lender, uniquePhone());
  borrowerHeaders = { authorization: `BorrowerSession ${(await mintBorrowerSession(app, lender.test, lent.id)).token}` };
});

const credentialFor = (route: { access: string }) => (route.access === 'checkoutSession' ? sessionHeaders : route.access === 'borrowerSession' ? borrowerHeaders : {});
const keyFor = (route: { access: string }) => (route.access === 'checkoutSession' || route.access === 'borrowerSession' ? undefined : tenant.test);
afterAll(() => app.stop());

async function rowCounts() {
  const tables = [
    'preapprovals', 'borrowers', 'events', 'ledgerPostings', 'loans', 'loanConsents', 'kycAttestations', 'kycSubmissions', 'loanRepayments', 'loanMandates', 'webhookEndpoints', 'payoutRequests',
    'checkoutSessions', 'otpChallenges', 'sandboxSms', 'users', 'loanGuarantors', 'userPasskeys', 'passkeyChallenges', 'loanConsentPasskeys',
    'borrowerSessions', 'settlementQuotes', 'mandateReplacements',
  ] as const;
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = (await app.platform.db.selectFrom(t).select('id').execute()).length;
  return counts;
}

function expectClientError(res: { status: number; body: any }) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ status: res.status, success: false, error: expect.any(String), message: expect.any(String) });
  expect(res.body.data).toBeUndefined();
}

describe('bad input on every POST route', () => {
  it('has a valid body for every POST route (add one when you add a route)', () => {
    expect(postRoutes.map((r) => r.path).sort()).toEqual(Object.keys(validBodies).sort());
  });

  for (const route of postRoutes) {
    const path = route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
    const raw: Array<[string, string, string]> = [
      ['malformed JSON', '{"borrower": ', 'application/json'],
      ['a JSON array', '[]', 'application/json'],
      ['a JSON string', '"hello"', 'application/json'],
      ['a JSON number', '42', 'application/json'],
      ['a body over the size limit', JSON.stringify({ pad: 'x'.repeat(10_000) }), 'application/json'],
      ['a form-encoded body', 'a=1&b=2', 'application/x-www-form-urlencoded'],
      ['a text body', 'hello', 'text/plain'],
    ];
    it.each(raw)(`POST ${route.path} with %s answers a 4xx envelope and changes nothing`, async (_name, body, type) => {
      const before = await rowCounts();
      const res = await client(app, keyFor(route)).call('POST', path, { raw: body, headers: { 'content-type': type, ...credentialFor(route) } });
      expectClientError(res);
      expect(await rowCounts()).toEqual(before);
    });

    if (route.body) {
      const variants = badBodies(route.body, validBodies[route.path]!() ?? {});
      it.each(variants.map((v) => [v.name, v.body] as const))(`POST ${route.path} with %s answers 4xx and changes nothing`, async (_name, body) => {
        const before = await rowCounts();
        const res = await client(app, keyFor(route)).post(path, body, credentialFor(route));
        expectClientError(res);
        expect(await rowCounts()).toEqual(before);
      });
    }
  }

  it.each([
    ['no assessment id', 'assessment_id_required', (b: any) => delete b.decision.metadata.assessment_id],
    ['a 10-digit BVN', 'bvn_invalid', (b: any) => (b.decision.metadata.bvn = '1234567890')],
    ['a BVN with letters', 'bvn_invalid', (b: any) => (b.decision.metadata.bvn = '1234567890a')],
    ['no BVN', 'bvn_invalid', (b: any) => delete b.decision.metadata.bvn],
    ['no recommendation', 'recommendation_required', (b: any) => delete b.decision.decision.recommendation],
    ['an amount with three decimals', 'approved_amount_invalid', (b: any) => (b.decision.decision.approved_amount = 10.005)],
    ['a negative amount', 'approved_amount_invalid', (b: any) => (b.decision.decision.approved_amount = -5)],
    ['an amount in exponent form', 'approved_amount_invalid', (b: any) => (b.decision.decision.approved_amount = '1e5')],
    ['an approval without amount', 'approved_amount_invalid', (b: any) => delete b.decision.decision.approved_amount],
    ['a rate with three decimals', 'interest_rate_invalid', (b: any) => (b.decision.decision.conditions.interest_rate = 4.125)],
    ['a fractional tenor', 'tenor_days_invalid', (b: any) => (b.decision.decision.conditions.tenor_days = 30.5)],
    ['an unknown frequency', 'repayment_frequency_invalid', (b: any) => (b.decision.decision.conditions.repayment_frequency = 'hourly')],
    ['a short NIN', 'nin_invalid', (b: any) => (b.decision.metadata.nin = '123')],
    ['an unknown provider', 'provider_not_found', (b: any) => (b.providerId = '00000000-0000-4000-8000-000000000000')],
  ])('POST /v1/preapprovals with %s answers 422 %s and changes nothing', async (_name, code, mutate) => {
    const body = pushBody();
    mutate(body);
    const before = await rowCounts();
    const res = await client(app, tenant.test).post('/v1/preapprovals', body);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(code);
    expect(await rowCounts()).toEqual(before);
  });
});
