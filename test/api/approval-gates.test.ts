import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmlScreens } from '../../server/integrations/aml';
import { createProduct } from '../../server/platform/domain/products/product';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import { issueLoanOffer } from '../../server/platform/domain/loans/issue-loan-offer';
import { productInput } from '../support/factories';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, eventsOf, lendingTenant, operatorLoan, type LendingTenant } from '../support/lifecycle';

/**
 * The gates on the way to an offer and to acceptance, on every path: an approval without an attestation screens the
 * borrower like one with it (live mode with no AML provider parks the loan `under_review`, and nothing it leads to
 * can follow); no live loan is offered without a clear screen on record, whichever code path tries; and the product's
 * guarantor rule holds on the partner's accept-terms as in the checkout.
 */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const live = () => client(app, tenant.live);
const test = () => client(app, tenant.test);

async function withLiveAml<T>(status: 'clear' | 'hit', work: () => Promise<T>): Promise<T> {
  const before = app.platform.aml;
  app.platform.aml = new AmlScreens({ provider: 'fake', adapter: { screen: async () => ({ status, detail: `fake live provider: ${status}` }) } });
  try {
    return await work();
  } finally {
    app.platform.aml = before;
  }
}

async function liveTenantLoan(kycTier: 'delegated' | 'managed' = 'delegated') {
  const now = new Date();
  const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant', kycTier }), now });
  return app.platform.db.transaction().execute((trx) =>
    createOperatorLoan(
      { db: trx, platform: app.platform, now, scope: { organisationId: tenant.organisationId, mode: 'live' }, actor: 'test' },
      { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000000' }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
    ),
  );
}

const screensOf = (loanId: string) => app.platform.db.selectFrom('kycAttestations').select(['amlScreenStatus', 'attestedChecks']).where('loanId', '=', loanId).execute();

describe('an approval without an attestation screens the borrower', () => {
  it('live, no AML provider: approve {} parks the loan under_review with a pending screen; accept-terms is refused and no offer exists', async () => {
    const loan = await liveTenantLoan();
    const approved = await live().post(`/v1/loans/${loan.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id: loan.id, status: 'under_review', documentReference: null, applicationUrl: null });
    expect(approved.body.message).toMatch(/under review/);
    const screens = await screensOf(loan.id);
    expect(screens.map((s) => s.amlScreenStatus)).toEqual(['pending']);
    const accept = await live().post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor('DOC-anything') });
    expect(accept.status).toBe(409);
    expect(accept.body.error).toBe('invalid_loan_state');
    expect((await live().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('under_review');
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(events).toContain('loan.kyc.attested');
    expect(events).not.toContain('loan.offer.issued');
  });

  it('live, a clear screen from the provider: approve {} offers the loan, with the screen on record', async () => {
    const loan = await liveTenantLoan();
    const approved = await withLiveAml('clear', () => live().post(`/v1/loans/${loan.id}/approve`, {}));
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'awaiting_acceptance', documentReference: expect.any(String) });
    expect(await screensOf(loan.id)).toMatchObject([{ amlScreenStatus: 'clear' }]);
  });

  it('live, a hit: approve {} parks the loan under_review', async () => {
    const loan = await liveTenantLoan();
    const approved = await withLiveAml('hit', () => live().post(`/v1/loans/${loan.id}/approve`, {}));
    expect(approved.body.data.status).toBe('under_review');
    expect(await screensOf(loan.id)).toMatchObject([{ amlScreenStatus: 'hit' }]);
  });

  it('test mode behaves as a provider would: the sandbox list’s name is a hit, anyone else is offered', async () => {
    const hit = await operatorLoan(app, tenant, { kycTier: 'delegated' }, { borrower: { firstName: 'Ada', lastName: 'Sanctioned', phone: '+2348030000001' } });
    expect((await test().post(`/v1/loans/${hit.id}/approve`, {})).body.data.status).toBe('under_review');
    const clear = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    const offered = await test().post(`/v1/loans/${clear.id}/approve`, { notes: 'ok' });
    expect(offered.body.data).toMatchObject({ status: 'awaiting_acceptance' });
    expect(await screensOf(clear.id)).toMatchObject([{ amlScreenStatus: 'clear' }]);
  });
});

describe('no live loan is offered without a clear screen on record', () => {
  it('a code path that issues an offer without screening is refused with aml_screen_required, and nothing is written', async () => {
    const loan = await liveTenantLoan();
    const product = await app.platform.db.selectFrom('loanProducts').selectAll().where('id', '=', loan.loanProductId).executeTakeFirstOrThrow();
    const attempt = app.platform.db.transaction().execute((trx) =>
      issueLoanOffer({ db: trx, platform: app.platform, now: new Date(), scope: { organisationId: tenant.organisationId, mode: 'live' }, actor: 'test' }, loan, product, ['pending']),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'aml_screen_required' });
    const after = await app.platform.db.selectFrom('loans').select(['status', 'documentReference']).where('id', '=', loan.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ status: 'pending', documentReference: null });
  });
});

describe('the guarantor rule on the partner’s accept-terms', () => {
  for (const mode of ['test', 'live'] as const) {
    it(`${mode}: a product asking for a guarantor refuses accept-terms with none confirmed (409 guarantors_required), and the loan is unchanged`, async () => {
      const now = new Date();
      const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'delegated', guarantorsRequired: 1 }), now });
      const loan = await app.platform.db.transaction().execute((trx) =>
        createOperatorLoan(
          { db: trx, platform: app.platform, now, scope: { organisationId: tenant.organisationId, mode }, actor: 'test' },
          { borrower: { firstName: 'Ada', lastName: 'Obi', phone: '+2348030000002' }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
        ),
      );
      const api = mode === 'live' ? live() : test();
      const offered = await withLiveAml('clear', () => api.post(`/v1/loans/${loan.id}/approve`, {}));
      expect(offered.body.data.status).toBe('awaiting_acceptance');
      const accept = await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(offered.body.data.documentReference) });
      expect(accept.status).toBe(409);
      expect(accept.body).toMatchObject({ error: 'guarantors_required', data: { required: 1, confirmed: 0 } });
      expect((await api.get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
    });
  }

  it('a product without guarantors accepts as before', async () => {
    const pushed = await test().post('/v1/preapprovals', pushBody());
    const issued = await test().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    const accepted = await test().post(`/v1/loans/${issued.body.data.id}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('terms_accepted');
  });
});
