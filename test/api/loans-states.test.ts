import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, eventsOf, lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';

let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const loanOf = async (id: string) => (await api().get(`/v1/loans/${id}`)).body.data;

/** Asserts a refused transition: the status and error, and the loan unchanged. */
async function expectRefused(path: string, body: unknown, status: number, error: string) {
  const id = path.split('/')[3]!;
  const before = await loanOf(id);
  const res = await api().post(path, body);
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
  expect(await loanOf(id)).toEqual(before);
}

describe('tenant approval (delegated tier)', () => {
  it('approve from pending screens the borrower, issues the offer and emits loan.kyc.attested (clear), loan.approved then loan.offer.issued', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    expect(loan.status).toBe('pending');
    const res = await api().post(`/v1/loans/${loan.id}/approve`, { notes: 'looks good' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'awaiting_acceptance', approvalNotes: 'looks good', documentReference: `OFR-${loan.id}-1` });
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id);
    expect(events.map((e) => e.name)).toEqual(['loan.kyc.attested', 'loan.approved', 'loan.offer.issued']);
    expect(events[0]!.data.amlScreenStatus).toBe('clear');
  });

  it('approve with an attestation whose screen is clear answers {approved: true, loan, attestation}', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    const res = await api().post(`/v1/loans/${loan.id}/approve`, { attestation: { schemaVersion: 1, attestedChecks: { bvnVerified: true, idType: 'nin' } } });
    expect(res.body.data.approved).toBe(true);
    expect(res.body.data.loan.status).toBe('awaiting_acceptance');
    expect(res.body.data.attestation).toMatchObject({ amlScreenStatus: 'clear', schemaVersion: 1, attestedChecks: { bvnVerified: true, idType: 'nin' }, attestedByKey: expect.stringMatching(/^pk_test_.{4}…/) });
  });

  it('approve with an attestation whose screen hits answers 200 approved: false, loan under_review, no offer', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' }, { borrower: { firstName: 'Ivan', lastName: 'Sanctioned', phone: '+2348030000001' } });
    const res = await api().post(`/v1/loans/${loan.id}/approve`, { attestation: { schemaVersion: 1, attestedChecks: {} } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ approved: false, loan: { status: 'under_review', documentReference: null }, attestation: { amlScreenStatus: 'hit' } });
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id);
    expect(events.map((e) => e.name)).toEqual(['loan.kyc.attested', 'review.opened']);
    await expectRefused(`/v1/loans/${loan.id}/approve`, {}, 409, 'invalid_loan_state');
  });

  it('the attestation route moves pending to attested (201), then approve works from attested', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    const att = await api().post(`/v1/loans/${loan.id}/attestation`, { attestedChecks: { bvnVerified: true } });
    expect(att.status).toBe(201);
    expect(att.body.data).toMatchObject({ loanId: loan.id, amlScreenStatus: 'clear', schemaVersion: 1 });
    expect((await loanOf(loan.id)).status).toBe('attested');
    expect((await api().post(`/v1/loans/${loan.id}/approve`, {})).body.data.status).toBe('awaiting_acceptance');
  });

  it('refuses KYC on a delegated-tier loan with 400', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    await expectRefused(`/v1/loans/${loan.id}/kyc`, { bvn: '22222222222' }, 400, 'wrong_kyc_tier');
  });

  it('refuses to approve a partner_pushed loan through the tenant path', async () => {
    const { loan } = await offeredLoan(app, tenant);
    await expectRefused(`/v1/loans/${loan.id}/approve`, {}, 409, 'approval_mode_mismatch');
  });

  it('reject is terminal, idempotent, and refused once the borrower has accepted', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'delegated' });
    const res = await api().post(`/v1/loans/${loan.id}/reject`, { reason: 'thin file' });
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'thin file' });
    expect((await api().post(`/v1/loans/${loan.id}/reject`, {})).status).toBe(200);
    await expectRefused(`/v1/loans/${loan.id}/approve`, {}, 409, 'invalid_loan_state');
    await expectRefused(`/v1/loans/${loan.id}/cancel`, {}, 409, 'invalid_loan_state');
    const { loan: accepted } = await acceptedLoan(app, tenant);
    await expectRefused(`/v1/loans/${accepted.id}/reject`, {}, 409, 'invalid_loan_state');
  });
});

describe('managed tier (the service runs KYC)', () => {
  it('starts in kyc_required; approve before KYC is 409; attestation is 400', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    expect(loan.status).toBe('kyc_required');
    await expectRefused(`/v1/loans/${loan.id}/approve`, {}, 409, 'invalid_loan_state');
    await expectRefused(`/v1/loans/${loan.id}/attestation`, { attestedChecks: {} }, 400, 'wrong_kyc_tier');
  });

  it('a verifying BVN completes KYC, then approve issues the offer', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    const kyc = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '22222222222', nin: '12345678901' });
    expect(kyc.body.data).toEqual({ outcome: 'verified', loanStatus: 'kyc_completed', documents: [{ type: 'bvn', status: 'verified' }, { type: 'nin', status: 'verified' }] });
    expect((await api().post(`/v1/loans/${loan.id}/approve`, {})).body.data.status).toBe('awaiting_acceptance');
  });

  it('a failing BVN answers 200 outcome failed and leaves the loan as it is', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    const kyc = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '00000000000' });
    expect(kyc.status).toBe(200);
    expect(kyc.body.data).toMatchObject({ outcome: 'failed', loanStatus: 'kyc_required' });
  });

  it('a pending BVN is pending on the first submission and verifies on the second', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    const first = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '11111111111' });
    const second = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '11111111111' });
    expect(first.body.data).toMatchObject({ outcome: 'pending', loanStatus: 'kyc_required' });
    expect(second.body.data).toMatchObject({ outcome: 'verified', loanStatus: 'kyc_completed' });
  });

  it('refuses a BVN that is not 11 digits with 400', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    await expectRefused(`/v1/loans/${loan.id}/kyc`, { bvn: '2222222222' }, 400, 'invalid_request');
  });
});

describe('offer responses and cancellation', () => {
  it('accept with a stale documentReference answers 409 and changes nothing', async () => {
    const { loan } = await offeredLoan(app, tenant);
    await expectRefused(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(`OFR-${loan.id}-0`) }, 409, 'stale_document_reference');
  });

  it('accept without consent answers 400; a consent with a bad IP answers 400', async () => {
    const { loan } = await offeredLoan(app, tenant);
    await expectRefused(`/v1/loans/${loan.id}/accept-terms`, {}, 400, 'invalid_request');
    await expectRefused(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference, { ipAddress: 'nope' }) }, 400, 'invalid_request');
  });

  it('stores the consent as evidence and accept is idempotent', async () => {
    const { loan } = await offeredLoan(app, tenant);
    const consent = consentFor(loan.documentReference, { signatureEmail: 'ada@example.com' });
    const first = await api().post(`/v1/loans/${loan.id}/accept-terms`, { consent });
    const again = await api().post(`/v1/loans/${loan.id}/accept-terms`, { consent });
    expect(again.body.data).toEqual(first.body.data);
    const stored = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'accept', signatureFullName: 'Ada Obi', ipAddress: '102.89.34.7', documentReference: loan.documentReference, signatureEmail: 'ada@example.com' });
  });

  it('decline is terminal and idempotent; the pre-approval follows; accept afterwards is 409', async () => {
    const { loan, preapprovalId } = await offeredLoan(app, tenant);
    const res = await api().post(`/v1/loans/${loan.id}/decline-terms`, { consent: consentFor(loan.documentReference), reason: 'too dear' });
    expect(res.body.data.status).toBe('terms_declined');
    expect((await api().post(`/v1/loans/${loan.id}/decline-terms`, { consent: consentFor(loan.documentReference) })).status).toBe(200);
    expect((await api().get(`/v1/preapprovals/${preapprovalId}`)).body.data.status).toBe('declined');
    await expectRefused(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) }, 409, 'invalid_loan_state');
    const declinedEvents = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.offer.declined' && e.data.loanId === loan.id);
    expect(declinedEvents).toHaveLength(1);
    expect(declinedEvents[0]!.data.reason).toBe('too dear');
  });

  it.each(['pending', 'awaiting_acceptance', 'terms_accepted'])('cancel from %s works, is idempotent and emits loan.cancelled once', async (state) => {
    const id =
      state === 'pending'
        ? (await operatorLoan(app, tenant, { kycTier: 'delegated' })).id
        : state === 'awaiting_acceptance'
          ? (await offeredLoan(app, tenant)).loan.id
          : (await acceptedLoan(app, tenant)).loan.id;
    const res = await api().post(`/v1/loans/${id}/cancel`, { reason: 'changed plans' });
    expect(res.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'tenant', cancellationReason: 'changed plans' });
    expect((await api().post(`/v1/loans/${id}/cancel`, {})).status).toBe(200);
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.cancelled' && e.data.loanId === id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ cancelledBy: 'tenant', reason: 'changed plans' });
    await expectRefused(`/v1/loans/${id}/disburse`, undefined, 409, 'invalid_loan_state');
  });

  it('cancel after disbursement answers 400 loan_already_disbursed and changes nothing', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    await api().post(`/v1/loans/${loan.id}/disburse`);
    await expectRefused(`/v1/loans/${loan.id}/cancel`, {}, 400, 'loan_already_disbursed');
  });

  it('disburse is allowed only from terms_accepted, once', async () => {
    const { loan } = await offeredLoan(app, tenant);
    await expectRefused(`/v1/loans/${loan.id}/disburse`, undefined, 409, 'invalid_loan_state');
    await api().post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) });
    expect((await api().post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    await expectRefused(`/v1/loans/${loan.id}/disburse`, undefined, 409, 'invalid_loan_state');
    await expectRefused(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) }, 409, 'invalid_loan_state');
  });

  it('lists loans filtered by status, newest first', async () => {
    const res = await api().get('/v1/loans?status=cancelled&limit=2');
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data.every((l: { status: string }) => l.status === 'cancelled')).toBe(true);
    expect((await api().get('/v1/loans?status=nope')).status).toBe(400);
  });
});

describe('insurance', () => {
  it('a manual-insurance product is insured when the tenant triggers it, once', async () => {
    // 1% of ₦150,000.50 is 150000.5 kobo: half-to-even gives 150000.
    const manual = await lendingTenant(app, { product: { insuranceMode: 'manual', insurancePremiumBearer: 'tenant', insurancePremiumBps: 100 } });
    const { loan } = await acceptedLoan(app, manual);
    const m = client(app, manual.test);
    await m.post(`/v1/loans/${loan.id}/disburse`);
    expect((await m.get(`/v1/loans/${loan.id}/insurance`)).status).toBe(404);
    const first = await m.post(`/v1/loans/${loan.id}/insurance`);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ triggeredBy: 'manual', premiumBearer: 'tenant', premiumKobo: 150000, status: 'active' });
    const again = await m.post(`/v1/loans/${loan.id}/insurance`);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
  });
});
