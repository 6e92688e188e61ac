import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, eventsOf, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

async function pdfText(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text;
}

describe('push → issue-offer → accept → disburse', () => {
  it('runs the whole lifecycle, keeps the pre-approval in step and emits the events in order', async () => {
    const api = client(app, tenant.test);
    const { loan, preapprovalId } = await offeredLoan(app, tenant, { amount: '100000' });
    expect(loan).toMatchObject({
      status: 'awaiting_acceptance',
      approvalMode: 'partner_pushed',
      principalKobo: 10_000_000,
      interestRateBps: 450,
      tenorDays: 90,
      repaymentFrequency: 'monthly',
      preapprovalId,
      documentReference: `OFR-${loan.id}-1`,
    });
    expect(loan.pricingSnapshotId).toEqual(expect.any(String));
    expect((await api.get(`/v1/preapprovals/${preapprovalId}`)).body.data).toMatchObject({ status: 'offer_issued', loanId: loan.id });

    const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(schedule).toHaveLength(3);
    expect(schedule.reduce((s: number, r: { principalKobo: number }) => s + r.principalKobo, 0)).toBe(10_000_000);
    expect(schedule.reduce((s: number, r: { totalKobo: number }) => s + r.totalKobo, 0)).toBe(loan.outstandingKobo);

    const accepted = await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'terms_accepted', termsAcceptedAt: expect.any(String) });
    expect((await api.get(`/v1/preapprovals/${preapprovalId}`)).body.data.status).toBe('accepted');

    const poolBefore = (await api.get('/v1/pools/balance')).body.data.totalBalanceKobo;
    const disbursed = await api.post(`/v1/loans/${loan.id}/disburse`);
    expect(disbursed.status).toBe(200);
    expect(disbursed.body.data).toMatchObject({ status: 'active', disbursedAmountKobo: 10_000_000, disbursementReference: `DSB-${loan.id}` });
    expect((await api.get('/v1/pools/balance')).body.data.totalBalanceKobo).toBe(poolBefore - 10_000_000);
    expect((await api.get(`/v1/preapprovals/${preapprovalId}`)).body.data.status).toBe('disbursed');
    const insurance = await api.get(`/v1/loans/${loan.id}/insurance`);
    expect(insurance.body.data).toMatchObject({ status: 'active', triggeredBy: 'automatic', premiumBearer: 'borrower', premiumKobo: 50_000, commissionKobo: 7_500 });

    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id || e.data.preapprovalId === preapprovalId).map((e) => e.name);
    expect(names).toEqual(['preapproval.received', 'loan.kyc.attested', 'loan.approved', 'loan.offer.issued', 'loan.offer.accepted', 'loan.disbursed']);
  });

  it('puts a signed offer-letter link on loan.approved and loan.offer.issued, with the spec\'s fields', async () => {
    const { loan } = await offeredLoan(app, tenant);
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id);
    for (const name of ['loan.approved', 'loan.offer.issued']) {
      const event = events.find((e) => e.name === name)!;
      expect(event.data).toMatchObject({
        loanId: loan.id,
        assessmentId: expect.any(String),
        status: 'awaiting_acceptance',
        principalKobo: loan.principalKobo,
        offerLetterUrl: expect.stringContaining(`/offer-letters/${loan.id}.pdf?`),
        offerLetterExpiresAt: expect.any(String),
      });
    }
  });

  it('serves a real offer letter PDF by signed link, re-rendered with the signature after acceptance', async () => {
    const api = client(app, tenant.test);
    const { loan } = await offeredLoan(app, tenant, { amount: '100000' });
    const link = (await api.get(`/v1/loans/${loan.id}/offer-letter`)).body.data;
    expect(link).toMatchObject({ documentReference: loan.documentReference, expiresAt: expect.any(String) });
    const offerText = await pdfText(link.url);
    expect(offerText).toContain(loan.documentReference);
    expect(offerText).toContain('NGN 100,000.00');
    expect(offerText).not.toContain('Accepted electronically');

    await api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference, { ipAddress: '41.58.1.2' }) });
    const signed = await pdfText((await api.get(`/v1/loans/${loan.id}/offer-letter`)).body.data.url);
    expect(signed).toContain('Accepted electronically by Ada Obi');
    expect(signed).toContain('41.58.1.2');
  });

  it('refuses a tampered or foreign link with 403 and serves nothing', async () => {
    const api = client(app, tenant.test);
    const { loan } = await offeredLoan(app, tenant);
    const { url } = (await api.get(`/v1/loans/${loan.id}/offer-letter`)).body.data;
    const tampered = url.replace(/signature=([0-9a-f])/, (_m: string, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
    const otherRef = url.replace(/ref=[^&]+/, `ref=OFR-${loan.id}-2`);
    const longer = url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 3600}`);
    for (const bad of [tampered, otherRef, longer]) {
      const res = await fetch(bad);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(((await res.json()) as { error: string }).error).toBe('LINK_INVALID');
    }
  });

  it('issue-offer is idempotent: a second call returns the same loan and emits nothing', async () => {
    const api = client(app, tenant.test);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    const first = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    const count = (await eventsOf(app, tenant.organisationId)).length;
    const again = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await eventsOf(app, tenant.organisationId)).length).toBe(count);
  });

  it('when the pushed rate is above the tenant cap, then 422 interest_rate_bps_above_tenant_cap and nothing is created', async () => {
    const capped = await lendingTenant(app, { capBps: 400 });
    const api = client(app, capped.test);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    const res = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('interest_rate_bps_above_tenant_cap');
    expect((await api.get('/v1/loans')).body.data).toEqual([]);
    expect((await api.get(`/v1/preapprovals/${pushed.body.data.preapprovalId}`)).body.data).toMatchObject({ status: 'received', loanId: null });
  });

  it('when the amount is outside the product limits, then 422 outside_product_limits', async () => {
    const api = client(app, tenant.test);
    const pushed = await api.post('/v1/preapprovals', pushBody({ amount: '999999999' }));
    const res = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('outside_product_limits');
  });

  it('when the product is not partner_pushed, then 422 product_not_usable; a declined push answers 409', async () => {
    const api = client(app, tenant.test);
    const products = (await api.get('/v1/products')).body.data;
    const { createProduct } = await import('../../server/platform/domain/products/product');
    const { productInput } = await import('../support/factories');
    const tenantMode = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant' }), now: new Date() });
    expect(products.length).toBeGreaterThan(0);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    const wrong = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, { productId: tenantMode.id });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toBe('product_not_usable');
    const declined = await api.post('/v1/preapprovals', pushBody({ recommendation: 'decline', amount: null }));
    const refused = await api.post(`/v1/preapprovals/${declined.body.data.preapprovalId}/issue-offer`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('invalid_preapproval_state');
  });

  it('when the AML screen hits, then the loan is under review, no offer issues and loan.kyc.attested says hit', async () => {
    const api = client(app, tenant.test);
    const pushed = await api.post('/v1/preapprovals', pushBody({ lastName: 'SANCTIONED' }));
    const res = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'under_review', documentReference: null, pricingSnapshotId: null });
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === res.body.data.id);
    expect(events.map((e) => e.name)).toEqual(['loan.kyc.attested', 'review.opened']);
    expect(events[0]!.data.amlScreenStatus).toBe('hit');
    expect((await api.get(`/v1/loans/${res.body.data.id}/offer-letter`)).status).toBe(404);
  });

  it('auto-issues the offer on push when the tenant has auto-issue on', async () => {
    const auto = await lendingTenant(app, { autoIssue: true });
    const api = client(app, auto.test);
    const pushed = await api.post('/v1/preapprovals', pushBody());
    expect(pushed.status).toBe(202);
    expect(pushed.body.data.status).toBe('offer_issued');
    const loans = (await api.get('/v1/loans')).body.data;
    expect(loans).toHaveLength(1);
    expect(loans[0]).toMatchObject({ status: 'awaiting_acceptance', preapprovalId: pushed.body.data.preapprovalId });
  });

  it('when the pool cannot fund the loan, then 409 insufficient_pool_funds and nothing changes', async () => {
    const poor = await lendingTenant(app, { poolKobo: 1_000_000 });
    const api = client(app, poor.test);
    const { loan } = await acceptedLoan(app, poor, { amount: '100000' });
    const res = await api.post(`/v1/loans/${loan.id}/disburse`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('insufficient_pool_funds');
    expect((await api.get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'terms_accepted', disbursedAt: null });
    expect((await api.get('/v1/pools/balance')).body.data.totalBalanceKobo).toBe(1_000_000);
    expect((await api.get(`/v1/loans/${loan.id}/insurance`)).status).toBe(404);
  });

  it('computes the funnel by aggregation', async () => {
    const fresh = await lendingTenant(app);
    const api = client(app, fresh.test);
    await api.post('/v1/preapprovals', pushBody());
    await api.post('/v1/preapprovals', pushBody({ recommendation: 'decline', amount: null }));
    await offeredLoan(app, fresh, { amount: '1000' });
    const { loan } = await acceptedLoan(app, fresh, { amount: '2000' });
    await api.post(`/v1/loans/${loan.id}/disburse`);
    const declined = await offeredLoan(app, fresh, { amount: '3000' });
    await api.post(`/v1/loans/${declined.loan.id}/decline-terms`, { consent: consentFor(declined.loan.documentReference), reason: 'changed my mind' });
    const funnel = (await api.get('/v1/preapprovals/funnel')).body.data;
    expect(funnel).toEqual({
      pushed: 5,
      awaitingOffer: 1,
      offerIssued: 3,
      acceptedByBorrower: 1,
      declinedByBorrower: 1,
      declinedByPartner: 1,
      expired: 0,
      disbursed: 1,
      approvedAmountKobo: 15000050 + 100000 + 200000 + 300000,
      disbursedAmountKobo: 200000,
      repaidAmountKobo: 0,
      outstandingKobo: expect.any(Number),
    });
    expect(funnel.outstandingKobo).toBeGreaterThan(200000);
  });
});
