import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { purgeCheckoutData } from '../../server/platform/domain/checkout/purge-checkout-data';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, mintSession, nubanCheckDigit, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const signature = (documentReference: string) => ({
  signatureFullName: 'Ada Obi',
  signatureEmail: 'ada@example.com',
  documentReference,
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
});

async function freshSession() {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  return { phone, loan, session: sessionClient(app, tokenOf(loan.applicationUrl)) };
}

describe('OTP', () => {
  it('when the borrower enters the code from the SMS, then the session is verified and the borrower is linked to a platform user', async () => {
    const { phone, loan, session } = await freshSession();
    const sent = await session.post('/v1/checkout/otp/send');
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ sentTo: `•••• ${phone.slice(-4)}`, attemptsAllowed: 5 });
    expect(new Date(sent.body.data.expiresAt).getTime()).toBe(clock.now().getTime() + 5 * 60_000);
    const inbox = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(inbox.body.data.messages).toHaveLength(1);
    expect(inbox.body.data.messages[0].body).toMatch(/^\d{6} is your .+ loan code\. .*\n\n@localhost #\d{6}$/s);
    const stored = await app.platform.db.selectFrom('otpChallenges').selectAll().where('phone', '=', phone).execute();
    expect(JSON.stringify(stored)).not.toContain(await latestOtp(app, phone));

    const verified = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ verified: true, borrower: { identityStatus: 'linked', linkedAt: clock.now().toISOString(), userId: expect.any(String) } });
    const borrower = await api().get(`/v1/borrowers/${loan.borrowerId}`);
    expect(borrower.body.data).toMatchObject({ identityStatus: 'linked', linkedAt: clock.now().toISOString(), userId: verified.body.data.borrower.userId });
    const state = await session.get('/v1/checkout/session');
    expect(state.body.data).toMatchObject({ session: { otpVerified: true }, nextStep: 'offer', borrower: { firstName: 'Ada', identityStatus: 'linked' }, loan: { id: loan.id } });
    expect((await session.post('/v1/checkout/otp/verify', { code: '000000' })).status).toBe(200);
  });

  it('when the same phone is verified for another organisation\'s borrower, then both are linked to the same user', async () => {
    const { phone, loan } = await freshSession();
    const other = await lendingTenant(app);
    const { loan: otherLoan } = await offeredLoan(app, other, { phone: phone.replace('+234', '0') });
    for (const url of [loan.applicationUrl, otherLoan.applicationUrl]) {
      const session = sessionClient(app, tokenOf(url));
      await session.post('/v1/checkout/otp/send');
      expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
      clock.advance(31_000);
    }
    const a = (await api().get(`/v1/borrowers/${loan.borrowerId}`)).body.data;
    const b = (await client(app, other.test).get(`/v1/borrowers/${otherLoan.borrowerId}`)).body.data;
    expect(a.userId).toEqual(expect.any(String));
    expect(b.userId).toBe(a.userId);
  });

  it('when five wrong codes are entered, then the code is locked, even for the right code', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    const code = await latestOtp(app, phone);
    const wrong = code === '111111' ? '222222' : '111111';
    for (let left = 4; left >= 0; left--) {
      const res = await session.post('/v1/checkout/otp/verify', { code: wrong });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('otp_incorrect');
      expect(res.body.message).toMatch(left > 0 ? new RegExp(`${left} attempts? left`) : /no attempts are left/);
    }
    const locked = await session.post('/v1/checkout/otp/verify', { code });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe('otp_locked');
    expect((await session.get('/v1/checkout/session')).body.data.session.otpVerified).toBe(false);
    clock.advance(31_000);
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
  });

  it('when five minutes pass, then the code has expired', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    clock.advance(5 * 60_000);
    const res = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('otp_expired');
  });

  it('when no code was sent, then verify answers otp_expired', async () => {
    const { session } = await freshSession();
    expect((await session.post('/v1/checkout/otp/verify', { code: '123456' })).body.error).toBe('otp_expired');
  });

  it('when a new code is asked for within 30 seconds, then 429 otp_resend_too_soon with Retry-After; after, a new code replaces the old', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    const first = await latestOtp(app, phone);
    clock.advance(10_000);
    const early = await session.post('/v1/checkout/otp/send');
    expect(early.status).toBe(429);
    expect(early.body.error).toBe('otp_resend_too_soon');
    expect(early.headers.get('retry-after')).toBe('20');
    clock.advance(20_000);
    expect((await session.post('/v1/checkout/otp/send')).status).toBe(200);
    const second = await latestOtp(app, phone);
    // The first text's code is not "incorrect": a newer code replaced it (its own answer; never a match).
    if (first !== second) expect((await session.post('/v1/checkout/otp/verify', { code: first })).body.error).toBe('otp_superseded');
    expect((await session.post('/v1/checkout/otp/verify', { code: second })).status).toBe(200);
  });

  it('when a phone has had five codes this hour, then a sixth answers 429 otp_send_limit, whichever session asks', async () => {
    clock.set(new Date(Math.ceil(clock.now().getTime() / 3_600_000) * 3_600_000 + 60_000));
    const { phone, loan, session } = await freshSession();
    for (let i = 0; i < 5; i++) {
      expect((await session.post('/v1/checkout/otp/send')).status).toBe(200);
      clock.advance(31_000);
    }
    const limited = await session.post('/v1/checkout/otp/send');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('otp_send_limit');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const another = sessionClient(app, (await mintSession(app, tenant.test, loan.id)).token);
    expect((await another.post('/v1/checkout/otp/send')).body.error).toBe('otp_send_limit');
    const inbox = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
    expect(inbox.body.data.messages).toHaveLength(5);
    clock.advance(60 * 60_000);
    const nextHour = sessionClient(app, (await mintSession(app, tenant.test, loan.id)).token);
    expect((await nextHour.post('/v1/checkout/otp/send')).status).toBe(200);
  });

  it('sends to the phone on record, and keeps live-mode messages out of the sandbox inbox', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send', {});
    expect((await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages).toHaveLength(1);
    clock.advance(31_000);
    const elsewhere = await session.post('/v1/checkout/otp/send', { phone: '+2348099999999' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('invalid_request');
    expect((await client(app).get('/sandbox/sms?phone=not-a-phone')).status).toBe(400);
    expect(() => app.platform.sms.for('live')).toThrow(expect.objectContaining({ code: 'provider_not_configured', status: 503 }));
  });
});

describe('steps need a verified phone', () => {
  it.each([
    ['/v1/checkout/bank-account/resolve', { bankCode: '058', accountNumber: '0123456785' }],
    ['/v1/checkout/bank-account', { bankCode: '058', accountNumber: '0123456785' }],
    ['/v1/checkout/accept', signature('OFR-x-1')],
    ['/v1/checkout/decline', signature('OFR-x-1')],
    ['/v1/checkout/kyc', { bvn: '22222222222' }],
    ['/v1/checkout/mandate', {}],
    ['/v1/checkout/mandate/activate', undefined],
  ])('POST %s before the OTP answers 403 checkout_otp_required', async (path, body) => {
    const { session, loan } = await freshSession();
    const res = await session.post(path, body);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('checkout_otp_required');
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
  });
});

describe('bank details', () => {
  it('lists banks, microfinance banks and wallets by name', async () => {
    const { session } = await verifiedSession(app, tenant);
    const res = await session.get('/v1/checkout/banks');
    expect(res.body.data.length).toBeGreaterThanOrEqual(50);
    expect(res.body.data).toContainEqual({ code: '058', name: 'Guaranty Trust Bank', type: 'commercial', nipCode: '000013', nubanCode: '058', aliases: ['GTBank', 'GTB', 'GTCO'] });
    expect(res.body.data).toContainEqual(expect.objectContaining({ code: '100004', name: 'OPay', type: 'mobile_money', nubanCode: null }));
    expect(res.body.data.map((b: { name: string }) => b.name)).toEqual([...res.body.data.map((b: { name: string }) => b.name)].sort((a, b) => a.localeCompare(b)));
  });

  it('resolves a valid NUBAN to the same account name every time, and stores nothing until confirmed', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const account = { bankCode: '058', accountNumber: nuban('058', '012345678') };
    const first = await session.post('/v1/checkout/bank-account/resolve', account);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ ...account, bankName: 'Guaranty Trust Bank', accountName: 'OBI ADA', nameMatch: { status: 'match', score: 1, nameOnRecord: 'Ada Obi' } });
    expect((await session.post('/v1/checkout/bank-account/resolve', account)).body.data.accountName).toBe(first.body.data.accountName);
    expect((await session.get('/v1/checkout/session')).body.data.bank).toBeNull();
    const saved = await session.post('/v1/checkout/bank-account', account);
    expect(saved.body.data).toEqual({ ...first.body.data, nameConfirmed: false });
    expect((await session.get('/v1/checkout/session')).body.data.bank).toEqual({
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumberLast4: account.accountNumber.slice(-4),
      accountName: first.body.data.accountName,
    });
    expect(loan.id).toBeTruthy();
  });

  it.each([
    ['a wrong check digit', { bankCode: '058', accountNumber: '0123456780' }, 422, 'account_number_invalid'],
    ['an unknown bank', { bankCode: '999', accountNumber: '0123456785' }, 422, 'bank_not_found'],
    ['the not-found sandbox account', { bankCode: '044', accountNumber: nuban('044', '999999999') }, 422, 'account_not_found'],
    ['the unavailable sandbox account', { bankCode: '044', accountNumber: nuban('044', '888888888') }, 502, 'bank_lookup_unavailable'],
    ['nine digits', { bankCode: '058', accountNumber: '012345678' }, 400, 'invalid_request'],
  ])('with %s answers %i %s and keeps nothing', async (_name, account, status, code) => {
    const { session } = await verifiedSession(app, tenant);
    const res = await session.post('/v1/checkout/bank-account', account);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect((await session.get('/v1/checkout/session')).body.data.bank).toBeNull();
  });
});

describe('KYC through the session (managed tier)', () => {
  async function managedSession() {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const session = sessionClient(app, (await mintSession(app, tenant.test, loan.id)).token);
    await session.post('/v1/checkout/otp/send');
    await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    return { loan, session };
  }

  it('lists the kyc step, and the magic BVNs behave: failed, then pending, then verified → kyc_completed, waiting for the lender', async () => {
    const { loan, session } = await managedSession();
    const before = (await session.get('/v1/checkout/session')).body.data;
    expect(before.steps.map((s: { name: string }) => s.name)).toEqual(['otp', 'kyc', 'offer', 'bank', 'mandate']);
    expect(before.nextStep).toBe('kyc');
    const failed = await session.post('/v1/checkout/kyc', { bvn: '00000000000' });
    expect(failed.body.data).toMatchObject({ outcome: 'failed', loanStatus: 'kyc_required' });
    const pending = await session.post('/v1/checkout/kyc', { bvn: '11111111111', nin: '12345678901' });
    expect(pending.body.data).toMatchObject({ outcome: 'pending', loanStatus: 'kyc_required' });
    const verified = await session.post('/v1/checkout/kyc', { bvn: '11111111111', nin: '12345678901' });
    expect(verified.body.data).toMatchObject({ outcome: 'verified', loanStatus: 'kyc_completed' });
    const after = (await session.get('/v1/checkout/session')).body.data;
    expect(after).toMatchObject({ status: 'waiting_for_lender', nextStep: 'offer', offer: null });
    const rows = await app.platform.db.selectFrom('kycSubmissions').selectAll().where('loanId', '=', loan.id).execute();
    expect(JSON.stringify(rows)).not.toContain('11111111111');

    // The lender approves: the offer issues (with its own applicationUrl) and the open session moves on to it.
    const approved = await api().post(`/v1/loans/${loan.id}/approve`, {});
    expect(approved.body.data.applicationUrl).toMatch(/\/checkout\/c\/cs_test_/);
    const offered = (await session.get('/v1/checkout/session')).body.data;
    expect(offered).toMatchObject({ status: 'in_progress', nextStep: 'offer', offer: { documentReference: approved.body.data.documentReference } });
  });

  it('refuses KYC on a delegated-tier loan with 400 wrong_kyc_tier', async () => {
    const { session } = await verifiedSession(app, tenant);
    const res = await session.post('/v1/checkout/kyc', { bvn: '22222222222' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('wrong_kyc_tier');
  });
});

describe('the offer through the session', () => {
  it('shows the key facts from the frozen snapshot with a fresh offer-letter link', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const offer = (await session.get('/v1/checkout/session')).body.data.offer;
    const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(offer).toMatchObject({ documentReference: loan.documentReference, principalKobo: loan.principalKobo, tenorDays: 90, currency: 'NGN' });
    expect(offer.totalRepayableKobo).toBe(offer.principalKobo + offer.costOfCreditKobo);
    expect(offer.costOfCreditKobo).toBe(offer.totalInterestKobo + offer.fees.totalFeesKobo);
    expect(offer.fees.processingFeeKobo).toBeGreaterThan(0);
    expect(offer.aprBps).toBeGreaterThan(0);
    expect(offer.schedule.map((r: { totalKobo: number }) => r.totalKobo)).toEqual(schedule.map((r: { totalKobo: number }) => r.totalKobo));
    expect(offer.schedule.reduce((sum: number, r: { totalKobo: number }) => sum + r.totalKobo, 0)).toBe(offer.totalRepayableKobo);
    const pdf = await fetch(offer.offerLetter.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('when the borrower signs, then the loan is terms_accepted and the consent holds what the checkout server saw, signed at the platform\'s clock', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const res = await session.post('/v1/checkout/accept', signature(loan.documentReference), { 'Idempotency-Key': `accept-${loan.id}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ loanId: loan.id, status: 'terms_accepted', documentReference: loan.documentReference });
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({
      kind: 'accept',
      signatureFullName: 'Ada Obi',
      signatureEmail: 'ada@example.com',
      ipAddress: '102.89.34.7',
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
      signedAt: clock.now().toISOString(),
      documentReference: loan.documentReference,
      recordedBy: expect.stringMatching(/^checkout-session:/),
    });
    const replay = await session.post('/v1/checkout/accept', signature(loan.documentReference), { 'Idempotency-Key': `accept-${loan.id}` });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.offer.accepted' && e.data.loanId === loan.id)).toHaveLength(1);
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ nextStep: 'bank', steps: expect.arrayContaining([{ name: 'offer', done: true }]) });
  });

  it('when the borrower declines with a reason, then terms_declined and the checkout is declined', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const res = await session.post('/v1/checkout/decline', { ...signature(loan.documentReference), reason: 'Too expensive' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('terms_declined');
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ kind: 'decline', reason: 'Too expensive' });
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'declined', nextStep: null });
  });

  it('when the reference is stale, then 409 stale_document_reference with the current offer, and nothing changes', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const res = await session.post('/v1/checkout/accept', signature(`OFR-${loan.id}-0`));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: 'stale_document_reference', data: { currentOffer: { documentReference: loan.documentReference, totalRepayableKobo: expect.any(Number) } } });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
    expect(await app.platform.db.selectFrom('loanConsents').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(0);
  });

  it('refuses an IP that is not an address and a name that is too short', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    expect((await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), ipAddress: 'somewhere' })).status).toBe(400);
    expect((await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), signatureFullName: 'A' })).status).toBe(400);
  });
});

describe('the mandate through the session', () => {
  it('asks for an e-mail (422 email_required, nothing created) when the borrower has none, then takes the one sent', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
    // Signed without an e-mail.
    await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), signatureEmail: undefined });
    await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000001') });
    const missing = await session.post('/v1/checkout/mandate', {});
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe('email_required');
    expect(await app.platform.db.selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(0);
    expect((await session.post('/v1/checkout/mandate', { email: 'not-an-email' })).status).toBe(400);
    const created = await session.post('/v1/checkout/mandate', { email: 'tunde@example.com' });
    expect(created.status).toBe(201);
    expect(created.body.data.email).toBe('tunde@example.com');
  });

  it('the e-mail given with the signature is kept for a borrower with none on record: the direct-debit step does not ask for it again', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
    expect((await session.get('/v1/checkout/session')).body.data.borrower.emailHint).toBeNull();
    expect((await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), signatureEmail: 'tunde@example.com' })).status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data.borrower.emailHint).toEqual(expect.stringMatching(/@example\.com$/));
    await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000002') });
    const created = await session.post('/v1/checkout/mandate', {});
    expect(created.status).toBe(201);
    expect(created.body.data.email).toBe('tunde@example.com');
  });

  it('an e-mail on record is not replaced by the one given with the signature', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    await session.post('/v1/checkout/accept', { ...signature(loan.documentReference), signatureEmail: 'someone.else@example.com' });
    const { email } = await app.platform.db.selectFrom('borrowers').select('email').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(email).toBe('ada@example.com');
  });

  it('needs the signed offer and the bank account, then runs on the sandbox rail to active, and the checkout completes', async () => {
    const { session, loan } = await verifiedSession(app, tenant);
    const tooEarly = await session.post('/v1/checkout/mandate', {});
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error).toBe('checkout_step_required');
    await session.post('/v1/checkout/accept', signature(loan.documentReference));
    expect((await session.post('/v1/checkout/mandate', {})).body.error).toBe('checkout_step_required');
    const account = { bankCode: '057', accountNumber: nuban('057', '100000000') };
    await session.post('/v1/checkout/bank-account', account);

    const created = await session.post('/v1/checkout/mandate', { callbackUrl: 'https://shop.example/checkout/?return=mandate' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ loanId: loan.id, provider: 'rail_a', status: 'initiated', email: 'ada@example.com', ...account, authorizationUrl: expect.stringContaining('/sandbox/rails/rail_a/authorise/') });
    const again = await session.post('/v1/checkout/mandate', {});
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.body.data.id);
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ nextStep: 'mandate', mandate: { id: created.body.data.id, status: 'initiated' } });

    const approve = await fetch(created.body.data.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(approve.headers.get('location')).toMatch(/^https:\/\/shop\.example\/checkout\/\?return=mandate&.*status=approved/);
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('pending');
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    const active = await session.post('/v1/checkout/mandate/activate');
    expect(active.body.data.status).toBe('active');
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ hasActiveMandate: true, activeMandateId: created.body.data.id });
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'complete', nextStep: null });
  });
});

describe('sandbox inbox scope', () => {
  it('is not mounted when sandbox routes are off', async () => {
    const closed = await startTestApp({ env: { SANDBOX_ROUTES_ENABLED: 'false' } });
    try {
      expect((await client(closed).get('/sandbox/sms?phone=%2B2348012345678')).status).toBe(404);
    } finally {
      await closed.stop();
    }
  });
});

describe('housekeeping', () => {
  it('purges spent OTP data and old sandbox texts, keeping what is still live', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    const count = async () => ({
      challenges: (await app.platform.db.selectFrom('otpChallenges').select('id').where('phone', '=', phone).execute()).length,
      sms: (await app.platform.db.selectFrom('sandboxSms').select('id').where('phone', '=', phone).execute()).length,
    });
    await purgeCheckoutData(app.platform.db, clock.now());
    expect(await count()).toEqual({ challenges: 1, sms: 1 });
    await purgeCheckoutData(app.platform.db, new Date(clock.now().getTime() + 8 * 86_400_000));
    expect(await count()).toEqual({ challenges: 0, sms: 0 });
  });
});

describe('guarantors (when the product asks)', () => {
  let guarantorTenant: LendingTenant;
  beforeAll(async () => {
    guarantorTenant = await lendingTenant(app, { product: { guarantorsRequired: 1 } });
  });

  async function guarantorSession() {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, guarantorTenant, { phone });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    await session.post('/v1/checkout/otp/send');
    await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    return { loan, session, phone };
  }

  it('adds a guarantors step before the offer; signing waits until the guarantor confirms by OTP', async () => {
    const { loan, session, phone } = await guarantorSession();
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state.steps.map((s: { name: string }) => s.name)).toEqual(['otp', 'guarantors', 'offer', 'bank', 'mandate']);
    expect(state).toMatchObject({ nextStep: 'guarantors', guarantorsRequired: 1, guarantors: [] });
    const early = await session.post('/v1/checkout/accept', signature(loan.documentReference));
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('checkout_step_required');

    const guarantorPhone = uniquePhone();
    const added = await session.post('/v1/checkout/guarantors', { fullName: 'Chidi Obi', phone: guarantorPhone.replace('+234', '0'), relationship: 'brother' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      guarantor: { fullName: 'Chidi Obi', relationship: 'brother', verified: false, phoneHint: `•••• ${guarantorPhone.slice(-4)}` },
      otp: { sentTo: `•••• ${guarantorPhone.slice(-4)}` },
    });
    const text = (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(guarantorPhone)}`)).body.data.messages[0].body;
    expect(text).toMatch(/guaranteeing Ada's loan/);
    const code = await latestOtp(app, guarantorPhone);
    const guarantorId = added.body.data.guarantor.id;
    expect((await session.post('/v1/checkout/guarantors/verify', { guarantorId, code: code === '000000' ? '000001' : '000000' })).body.error).toBe('otp_incorrect');
    const verified = await session.post('/v1/checkout/guarantors/verify', { guarantorId, code });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ id: guarantorId, verified: true });
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ nextStep: 'offer', steps: expect.arrayContaining([{ name: 'guarantors', done: true }]) });
    expect((await session.post('/v1/checkout/accept', signature(loan.documentReference))).status).toBe(200);
    expect(phone).not.toBe(guarantorPhone);
  });

  it('refuses the borrower\'s own phone, a bad number, another loan\'s guarantor and products without guarantors', async () => {
    const { session, phone } = await guarantorSession();
    expect((await session.post('/v1/checkout/guarantors', { fullName: 'Me Myself', phone, relationship: 'self' })).body.error).toBe('guarantor_phone_invalid');
    expect((await session.post('/v1/checkout/guarantors', { fullName: 'Chidi Obi', phone: '12345678', relationship: 'brother' })).body.error).toBe('guarantor_phone_invalid');
    const other = await guarantorSession();
    const theirs = await other.session.post('/v1/checkout/guarantors', { fullName: 'Chidi Obi', phone: uniquePhone(), relationship: 'brother' });
    const id = theirs.body.data.guarantor.id;
    expect((await session.post('/v1/checkout/guarantors/verify', { guarantorId: id, code: '123456' })).status).toBe(404);
    expect((await session.post('/v1/checkout/guarantors/resend', { guarantorId: id })).status).toBe(404);
    const plain = await verifiedSession(app, tenant);
    expect((await plain.session.post('/v1/checkout/guarantors', { fullName: 'Chidi Obi', phone: uniquePhone(), relationship: 'brother' })).body.error).toBe('guarantors_not_accepted');
    expect((await plain.session.get('/v1/checkout/session')).body.data).toMatchObject({ guarantorsRequired: 0, guarantors: [] });
  });

  it('caps how many numbers a borrower can have texted: required + 2', async () => {
    const { session } = await guarantorSession();
    for (let i = 0; i < 3; i++) {
      expect((await session.post('/v1/checkout/guarantors', { fullName: `Guarantor ${i}`, phone: uniquePhone(), relationship: 'friend' })).status).toBe(201);
    }
    expect((await session.post('/v1/checkout/guarantors', { fullName: 'One More', phone: uniquePhone(), relationship: 'friend' })).body.error).toBe('guarantors_not_accepted');
  });
});
