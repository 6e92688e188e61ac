import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import type { NameMismatchPolicy } from '../../server/shared/name-mismatch-policy';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import { transitionLoan } from '../../server/platform/domain/loans/loan';
import { createProduct } from '../../server/platform/domain/products/product';
import { productInput } from '../support/factories';

/**
 * Every state that waits for a person opens a review a person can move on: managed KYC the identity provider could
 * not decide (`kyc_undecided`: clearing completes KYC as a `verified` answer would have), and a bank account in another
 * name the borrower confirmed, when the product asks for a review (`name_mismatch`: clearing returns the loan to where
 * it was). Rejecting rejects the loan.
 */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const UNDECIDED_BVN = '33333333333';

/** A managed-KYC loan whose identity the sandbox provider cannot decide (a fresh organisation: the BVN is nobody's yet). */
async function undecidedKycLoan() {
  tenant = await lendingTenant(app);
  const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
  const submitted = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: UNDECIDED_BVN, nin: '12345678901' });
  expect(submitted.status).toBe(200);
  expect(submitted.body.data).toMatchObject({ outcome: 'pending', loanStatus: 'under_review', documents: [{ type: 'bvn', status: 'undecided' }, { type: 'nin', status: 'undecided' }] });
  const reviews = (await api().get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews;
  expect(reviews).toHaveLength(1);
  return { loan, review: reviews[0] };
}
const borrowerOf = (loanId: string) =>
  app.platform.db.selectFrom('loans as l').innerJoin('borrowers as b', 'b.id', 'l.borrowerId').select(['b.bvnHash', 'b.ninHash']).where('l.id', '=', loanId).executeTakeFirstOrThrow();

describe('managed KYC the provider could not decide', () => {
  it('parks the loan under_review with a kyc_undecided review (no BVN in the evidence); clearing completes KYC as a verified answer would have', async () => {
    const { loan, review } = await undecidedKycLoan();
    expect(review).toMatchObject({ status: 'open', openedReason: 'kyc_undecided', evidence: { kycSubmissionId: expect.any(String), submissions: 1, ninGiven: true } });
    expect(JSON.stringify(review)).not.toContain(UNDECIDED_BVN);
    expect(await borrowerOf(loan.id)).toEqual({ bvnHash: null, ninHash: null });
    // While a person decides, the borrower cannot submit again.
    expect((await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '22222222222' })).body.error).toBe('invalid_loan_state');

    const cleared = await api().post(`/v1/reviews/${review.id}/clear`, { reason: 'Checked the ID card in branch' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.loan.status).toBe('kyc_completed');
    expect(await borrowerOf(loan.id)).toEqual({ bvnHash: expect.any(String), ninHash: expect.any(String) });
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names).toEqual(['review.opened', 'review.closed']);
    // It goes on as any loan with KYC completed: the lender approves and the offer is issued.
    expect((await api().post(`/v1/loans/${loan.id}/approve`, {})).body.data.status).toBe('awaiting_acceptance');
  });

  it('rejecting the review rejects the loan with the reason', async () => {
    const { loan, review } = await undecidedKycLoan();
    const rejected = await api().post(`/v1/reviews/${review.id}/reject`, { reason: 'The ID card did not match' });
    expect(rejected.body.data.loan).toMatchObject({ id: loan.id, status: 'rejected', rejectionReason: 'The ID card did not match' });
    expect(await borrowerOf(loan.id)).toEqual({ bvnHash: null, ninHash: null });
  });

  it('a pending answer (asking again may answer) still leaves the loan as it is, with no review', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    const first = await api().post(`/v1/loans/${loan.id}/kyc`, { bvn: '11111111111' });
    expect(first.body.data).toMatchObject({ outcome: 'pending', loanStatus: 'kyc_required' });
    expect((await api().get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews).toEqual([]);
  });
});

describe('a bank account in another name, by the product\'s nameMismatchPolicy', () => {
  const someoneElses = { bankCode: '058', accountNumber: `777777777${nubanCheckDigit('058', '777777777')}` };

  /** An offered loan of a product with `policy`, and its borrower's verified checkout session. */
  async function borrowerAtBankStep(policy: NameMismatchPolicy) {
    const lender = await lendingTenant(app, { product: { nameMismatchPolicy: policy } });
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    return { lender, loan, session, api: client(app, lender.test) };
  }

  it('review: the confirmed account is kept, the loan waits under_review with the names, the score and the confirmation; clearing returns it to awaiting_acceptance', async () => {
    const { lender, loan, session, api: partner } = await borrowerAtBankStep('review');
    const kept = await session.post('/v1/checkout/bank-account', { ...someoneElses, confirmNameMismatch: true });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ accountName: 'ADEYEMI NGOZI', nameConfirmed: true });
    expect((await partner.get(`/v1/loans/${loan.id}`)).body.data.status).toBe('under_review');
    expect((await session.get('/v1/checkout/session')).body.data.status).toBe('waiting_for_lender');

    const review = (await partner.get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews[0];
    expect(review).toMatchObject({
      openedReason: 'name_mismatch',
      evidence: { accountName: 'ADEYEMI NGOZI', bankName: expect.any(String), accountNumberLast4: someoneElses.accountNumber.slice(-4), nameOnRecord: 'Ada Obi', nameMatch: 'mismatch', scorePercent: 0, confirmedAt: expect.any(String) },
    });
    expect(JSON.stringify(review.evidence)).not.toContain(someoneElses.accountNumber);
    // While a person decides, no other account is taken.
    expect((await session.post('/v1/checkout/bank-account', { bankCode: '044', accountNumber: `123123123${nubanCheckDigit('044', '123123123')}` })).body.error).toBe('invalid_loan_state');

    const cleared = await partner.post(`/v1/reviews/${review.id}/clear`, { reason: 'Called the borrower: it is her business account' });
    expect(cleared.body.data.loan.status).toBe('awaiting_acceptance');
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'in_progress', nextStep: 'offer' });
    const names = (await eventsOf(app, lender.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names.slice(-2)).toEqual(['review.opened', 'review.closed']);
  });

  it('review, rejected: the loan is rejected with the reason', async () => {
    const { loan, session, api: partner } = await borrowerAtBankStep('review');
    await session.post('/v1/checkout/bank-account', { ...someoneElses, confirmNameMismatch: true });
    const review = (await partner.get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews[0];
    const rejected = await partner.post(`/v1/reviews/${review.id}/reject`, { reason: 'The account belongs to a relative' });
    expect(rejected.body.data.loan).toMatchObject({ status: 'rejected', rejectionReason: 'The account belongs to a relative' });
  });

  it('refuse: a confirmed account in another name is still 409 account_name_mismatch and nothing is kept or parked', async () => {
    const { loan, session, api: partner } = await borrowerAtBankStep('refuse');
    const refused = await session.post('/v1/checkout/bank-account', { ...someoneElses, confirmNameMismatch: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'account_name_mismatch', data: { policy: 'refuse', accountName: 'ADEYEMI NGOZI' } });
    expect((await session.get('/v1/checkout/session')).body.data.bank).toBeNull();
    expect((await partner.get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
  });

  it('allow (the default): kept as before, no review', async () => {
    const { loan, session, api: partner } = await borrowerAtBankStep('allow');
    expect((await session.post('/v1/checkout/bank-account', { ...someoneElses, confirmNameMismatch: true })).status).toBe(200);
    expect((await partner.get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
    expect((await partner.get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews).toEqual([]);
  });
});

describe('an approval whose AML screen did not come back clear', () => {
  /** A tenant-approval loan the partner approves itself, in `mode`, for a borrower with this last name. */
  async function approvedByPartner(mode: 'test' | 'live', lastName: string) {
    const lender = await lendingTenant(app);
    const now = new Date();
    const product = await createProduct(app.platform.db, { organisationId: lender.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'delegated' }), now });
    const loan = await app.platform.db.transaction().execute((trx) =>
      createOperatorLoan(
        { db: trx, platform: app.platform, now, scope: { organisationId: lender.organisationId, mode }, actor: 'test' },
        { borrower: { firstName: 'Bola', lastName, phone: uniquePhone() }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
      ),
    );
    const partner = client(app, mode === 'live' ? lender.live : lender.test);
    const approved = await partner.post(`/v1/loans/${loan.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('under_review');
    const review = (await partner.get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews[0];
    return { loan, partner, review };
  }

  it('a screen hit (the sandbox\'s "Sanctioned") opens an aml_hit review with the matched entry; clearing issues the offer', async () => {
    const { loan, partner, review } = await approvedByPartner('test', 'Sanctioned');
    expect(review).toMatchObject({ openedReason: 'aml_hit', evidence: { amlScreenStatus: 'hit', amlScreenDetail: expect.stringContaining('SANCTIONED') } });
    const cleared = await partner.post(`/v1/reviews/${review.id}/clear`, { reason: 'A namesake: date of birth differs from the list entry' });
    expect(cleared.body.data.loan).toMatchObject({ id: loan.id, status: 'awaiting_acceptance', documentReference: expect.any(String) });
  });

  it('live without an AML provider, the partner\'s own approval opens an aml_not_screened review; rejecting rejects the loan', async () => {
    const { loan, partner, review } = await approvedByPartner('live', 'Bello');
    expect(review).toMatchObject({ openedReason: 'aml_not_screened', evidence: { amlScreenStatus: 'pending' } });
    const rejected = await partner.post(`/v1/reviews/${review.id}/reject`, { reason: 'Could not screen the borrower by hand' });
    expect(rejected.body.data.loan).toMatchObject({ id: loan.id, status: 'rejected' });
  });
});

describe('the live screen check', () => {
  it('a cleared identity or name review does not stand in for an AML screen: a live loan without one is never offered', async () => {
    const lender = await lendingTenant(app);
    const now = new Date();
    const product = await createProduct(app.platform.db, { organisationId: lender.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'managed' }), now });
    const loan = await app.platform.db.transaction().execute((trx) =>
      createOperatorLoan(
        { db: trx, platform: app.platform, now, scope: { organisationId: lender.organisationId, mode: 'live' }, actor: 'test' },
        { borrower: { firstName: 'Bola', lastName: 'Bello', phone: uniquePhone() }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
      ),
    );
    const at = now.toISOString();
    for (const reason of ['kyc_undecided', 'name_mismatch']) {
      await app.platform.db
        .insertInto('loanReviews')
        .values({ id: crypto.randomUUID(), organisationId: lender.organisationId, mode: 'live', loanId: loan.id, decidedBy: 'partner', openedReason: reason, evidence: '{}', resumeWith: 'kyc_completed', status: 'closed', closedReason: 'cleared', closedBy: 'test', note: 'cleared', openedAt: at, closedAt: at, updatedAt: at })
        .execute();
    }
    await expect(app.platform.db.transaction().execute((trx) => transitionLoan(trx, loan, [loan.status as 'pending'], { status: 'awaiting_acceptance' }, now))).rejects.toMatchObject({ code: 'aml_screen_required' });
  });
});
