import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SandboxRailAdapter } from '../../server/integrations/rails/sandbox-rail-adapter';
import { FakeClock } from '../../server/integrations/clock';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { createProduct } from '../../server/platform/domain/products/product';
import { productInput } from '../support/factories';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { borrowerClient, lentLoan, mintBorrowerSession } from '../support/borrower-loans';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let other: LendingTenant;
beforeAll(async () => {
  // The sandbox rail decides a charge at once, so a payment is taken (or refused) within the request.
  app = await startTestApp({ clock, env: { RAIL_CHARGE_LAG_MS: '0' } });
  tenant = await lendingTenant(app, { product: { earlySettlement: { interest: 'to_date', feeBps: 100 } } });
  other = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const inbox = async (phone: string) => (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;
const key = (n: number) => ({ 'idempotency-key': `pay-${n}-${Math.random().toString(36).slice(2)}` });

async function signedIn(phone: string, loanTenant = tenant) {
  const { loan } = await lentLoan(app, loanTenant, phone);
  const session = await mintBorrowerSession(app, loanTenant.test, loan.id);
  return { loan, session, borrower: borrowerClient(app, session.token) };
}

describe('borrower sessions', () => {
  it('the partner mints a session for a lent loan: the token (shown once) reaches that phone\'s loans at this lender only', async () => {
    const phone = uniquePhone();
    const { loan, session, borrower } = await signedIn(phone);
    expect(session.token).toMatch(/^bs_test_[0-9A-Za-z]{40}$/);
    const stored = await app.platform.db.selectFrom('borrowerSessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(session.token);

    // The same phone borrows from another lender: kept apart.
    const { loan: elsewhere } = await lentLoan(app, other, phone);
    const list = await borrower.get('/v1/borrower/loans');
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([loan.id]);
    expect((await borrower.get(`/v1/borrower/loans/${elsewhere.id}`)).status).toBe(404);
  });

  it('when a loan is not lent yet, then 409 invalid_loan_state and no session', async () => {
    const { loan } = await acceptedLoan(app, tenant, { phone: uniquePhone() });
    const res = await api().post(`/v1/loans/${loan.id}/borrower-sessions`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
  });

  it('credentials stay in their lanes: an API key on a borrower route and a borrower token on a partner route are 403', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    expect((await api().get('/v1/borrower/loans')).body.error).toBe('credential_not_allowed');
    const res = await borrower.get(`/v1/loans/${loan.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('credential_not_allowed');
  });

  it('a restricted key needs loans:write to mint (403 insufficient_scope with loans:read only)', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    const readOnly = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'test', now: new Date(), scopes: ['loans:read'] });
    const res = await client(app, readOnly).post(`/v1/loans/${loan.id}/borrower-sessions`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'loans:write' } });
  });

  it('a revoked session answers 401 borrower_session_ended at once', async () => {
    const { session, borrower } = await signedIn(uniquePhone());
    expect((await api().post(`/v1/borrower-sessions/${session.id}/revoke`)).body.data.revokedAt).toEqual(expect.any(String));
    const res = await borrower.get('/v1/borrower/loans');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('borrower_session_ended');
  });

  it('an expired session answers 401 borrower_session_ended', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    const minted = (await api().post(`/v1/loans/${loan.id}/borrower-sessions`, { ttlMinutes: 5 })).body.data;
    clock.advance(5 * 60_000 + 1);
    const res = await borrowerClient(app, minted.token).get('/v1/borrower/loans');
    expect(res.body.error).toBe('borrower_session_ended');
  });
});

describe('sign-in by phone and code', () => {
  const send = (body: unknown) => client(app).post('/v1/borrower/sign-in/send', body);
  const verify = (body: unknown) => client(app).post('/v1/borrower/sign-in/verify', body);

  it('answers the same whether or not the phone has loans; only a phone with loans gets the text', async () => {
    const withLoans = uniquePhone();
    await lentLoan(app, tenant, withLoans);
    const without = uniquePhone();
    const a = await send({ phone: withLoans, mode: 'test' });
    const b = await send({ phone: without, mode: 'test' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(Object.keys(b.body.data).sort()).toEqual(Object.keys(a.body.data).sort());
    expect({ ...b.body, data: { ...b.body.data, sentTo: 'x', expiresAt: 'x' } }).toEqual({ ...a.body, data: { ...a.body.data, sentTo: 'x', expiresAt: 'x' } });
    await expect.poll(async () => (await inbox(withLoans)).length).toBe(1);
    expect(await inbox(without)).toHaveLength(0);
    // A wrong code is wrong either way.
    expect((await verify({ phone: without, mode: 'test', code: '000000' })).body.error).toBe('otp_incorrect');
  });

  it('texts the code in the language picked on the page, else the one chosen at checkout, else the browser\'s', async () => {
    const sendIn = (phone: string, body: object, acceptLanguage: string) => client(app).post('/v1/borrower/sign-in/send', { phone, mode: 'test', ...body }, { 'accept-language': acceptLanguage });
    const withSaved = async (locale: string | null) => {
      const phone = uniquePhone();
      const { loan } = await lentLoan(app, tenant, phone);
      const { borrowerId } = await app.platform.db.selectFrom('loans').select('borrowerId').where('id', '=', loan.id).executeTakeFirstOrThrow();
      await app.platform.db.updateTable('borrowers').set({ preferredLocale: locale }).where('id', '=', borrowerId).execute();
      return phone;
    };
    const text = async (phone: string) => {
      await expect.poll(async () => (await inbox(phone)).length).toBe(1);
      return (await inbox(phone))[0]!.body;
    };
    // Picked on the page: it wins over the checkout's choice and the browser's.
    const picked = await withSaved('ha');
    expect((await sendIn(picked, { locale: 'ig' }, 'yo')).status).toBe(200);
    expect(await text(picked)).toMatch(/^\d{6} bụ koodu mbinye ego /);
    // Not picked: the checkout's choice wins over the browser's.
    const saved = await withSaved('ha');
    expect((await sendIn(saved, {}, 'yo')).status).toBe(200);
    expect(await text(saved)).toMatch(/^\d{6} ce lambar lamunin /);
    // Neither: the browser's language.
    const browser = await withSaved(null);
    expect((await sendIn(browser, {}, 'yo-NG, en;q=0.5')).status).toBe(200);
    expect(await text(browser)).toMatch(/^\d{6} ni kóòdù awin /);
    // A language the platform does not ship is refused, and nothing is sent.
    const other = await withSaved(null);
    expect((await sendIn(other, { locale: 'fr' }, 'en')).body.error).toBe('invalid_request');
    expect(await inbox(other)).toEqual([]);
  });

  it('a verified code gives one session per lender, each seeing only its own loans', async () => {
    const phone = uniquePhone();
    const { loan: mine } = await lentLoan(app, tenant, phone);
    const { loan: theirs } = await lentLoan(app, other, phone);
    expect((await send({ phone, mode: 'test' })).status).toBe(200);
    await expect.poll(async () => (await inbox(phone)).length).toBe(1);
    const res = await verify({ phone, mode: 'test', code: await latestOtp(app, phone) });
    expect(res.status).toBe(200);
    const sessions = res.body.data.sessions as Array<{ token: string; lender: { organisationId: string } }>;
    expect(sessions.map((s) => s.lender.organisationId).sort()).toEqual([tenant.organisationId, other.organisationId].sort());
    for (const session of sessions) {
      const ids = (await borrowerClient(app, session.token).get('/v1/borrower/loans')).body.data.map((l: { id: string }) => l.id);
      expect(ids).toEqual([session.lender.organisationId === tenant.organisationId ? mine.id : theirs.id]);
    }
    // The code is used up.
    expect((await verify({ phone, mode: 'test', code: await latestOtp(app, phone) })).body.error).toBe('otp_expired');
  });

  it('an organisation that does not exist answers like any other, and its code signs in to nothing', async () => {
    const phone = uniquePhone();
    await lentLoan(app, tenant, phone);
    const res = await send({ phone, mode: 'test', organisation: '00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ attemptsAllowed: 5, resendInSeconds: 30 });
    expect(await inbox(phone)).toHaveLength(0);
  });

  it('with an organisation, the session is for that lender only', async () => {
    const phone = uniquePhone();
    await lentLoan(app, tenant, phone);
    await lentLoan(app, other, phone);
    await send({ phone, mode: 'test', organisation: other.organisationId });
    await expect.poll(async () => (await inbox(phone)).length).toBe(1);
    const res = await verify({ phone, mode: 'test', organisation: other.organisationId, code: await latestOtp(app, phone) });
    expect(res.body.data.sessions.map((s: { lender: { organisationId: string } }) => s.lender.organisationId)).toEqual([other.organisationId]);
  });

  it('keeps the checkout\'s limits: a second code within 30 s is 429 otp_resend_too_soon, naming the code in play; bad input is 400', async () => {
    const phone = uniquePhone();
    const first = await send({ phone, mode: 'test' });
    expect(first.status).toBe(200);
    const again = await send({ phone, mode: 'test' });
    expect(again.status).toBe(429);
    expect(again.body.error).toBe('otp_resend_too_soon');
    // What the first send said, so a reloaded page (or a second tab) shows the box for that code instead of a wait with
    // nowhere to type it; nothing more (whether the code was texted, tried or used would tell a phone with loans apart).
    expect(Object.keys(again.body.data).sort()).toEqual(['attemptsAllowed', 'expiresAt', 'resendAvailableAt', 'resendInSeconds', 'sentTo']);
    expect(again.body.data).toMatchObject({ sentTo: first.body.data.sentTo, expiresAt: first.body.data.expiresAt, attemptsAllowed: first.body.data.attemptsAllowed });
    expect(again.body.data.resendInSeconds).toBeGreaterThan(0);
    expect(again.body.data.resendInSeconds).toBeLessThanOrEqual(first.body.data.resendInSeconds);
    // A wrong try changes nothing in it.
    expect((await verify({ phone, mode: 'test', code: '000000' })).body.error).toMatch(/otp_incorrect/);
    expect((await send({ phone, mode: 'test' })).body.data).toMatchObject({ sentTo: first.body.data.sentTo, expiresAt: first.body.data.expiresAt });
    expect((await send({ phone: 'not a phone', mode: 'test' })).body.error).toBe('invalid_request');
    expect((await verify({ phone, mode: 'test', code: '12' })).body.error).toBe('invalid_request');
  });
});

describe('what I owe', () => {
  it('shows status, outstanding, next debit, the schedule, repayments, the lender and the offer letter', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    const res = await borrower.get(`/v1/borrower/loans/${loan.id}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(data).toMatchObject({ id: loan.id, status: 'active', outstandingKobo: loan.outstandingKobo, payments: { minKobo: 10_000, maxKobo: loan.outstandingKobo, directDebitActive: true } });
    expect(data.nextDebit).toEqual({ dueDate: schedule[0].dueDate, amountKobo: schedule[0].totalKobo, byDirectDebit: true });
    expect(data.schedule.map((i: { state: string }) => i.state)).toEqual(schedule.map(() => 'due'));
    expect(data.lender.name).toEqual(expect.any(String));
    expect(data.offerLetter.url).toContain(`/offer-letters/${loan.id}.pdf`);
    expect(data.earlySettlement).toEqual({ interest: 'to_date', feeBps: 100 });
  });
});

describe('pay now', () => {
  it('charges the mandate once, applies it, texts a receipt, and a retry with the same key replays', async () => {
    const phone = uniquePhone();
    const { loan, borrower } = await signedIn(phone);
    const headers = key(1);
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_000 }, headers);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'completed', amountKobo: 10_000, outstandingKobo: loan.outstandingKobo - 10_000 });
    const replay = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_000 }, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    const repayments = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(repayments).toHaveLength(1);
    expect(repayments[0]).toMatchObject({ method: 'mandate', initiatedBy: 'borrower', status: 'completed', amountKobo: 10_000 });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.outstandingKobo).toBe(loan.outstandingKobo - 10_000);
    // The receipt: the amount and its reference, what is still owed, and the loan page's link (test mode says so).
    const owed = (loan.outstandingKobo - 10_000) / 100;
    const receipt = `payment of NGN 100.00 received, ref ${res.body.data.reference}. Still owed: NGN ${owed.toLocaleString('en-NG', { minimumFractionDigits: 2 })}. See your loan: `;
    await expect.poll(async () => (await inbox(phone)).find((m) => m.body.includes(receipt))?.body).toMatch(/\/checkout\/my-loan\?mode=test$/);
    expect((await checkLedger(app.platform.db)).ok).toBe(true);
  });

  it('texts the receipt in the borrower\'s language, and says the loan is fully paid when the payment clears it', async () => {
    const phone = uniquePhone();
    const { loan, borrower } = await signedIn(phone);
    const { borrowerId } = await app.platform.db.selectFrom('loans').select('borrowerId').where('id', '=', loan.id).executeTakeFirstOrThrow();
    await app.platform.db.updateTable('borrowers').set({ preferredLocale: 'yo' }).where('id', '=', borrowerId).execute();
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: loan.outstandingKobo }, key(31));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ outstandingKobo: 0, loanStatus: 'completed' });
    await expect.poll(async () => (await inbox(phone)).some((m) => m.body.includes(`ref ${res.body.data.reference}. O ti san awin rẹ tán.`))).toBe(true);
  });

  it('refuses a payment without an Idempotency-Key, below ₦100 or above the outstanding, and changes nothing', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_000 })).body.error).toBe('invalid_request');
    const low = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 9_999 }, key(2));
    expect(low.status).toBe(422);
    expect(low.body).toMatchObject({ error: 'payment_amount_out_of_range', data: { minKobo: 10_000, maxKobo: loan.outstandingKobo } });
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: loan.outstandingKobo + 1 }, key(3))).body.error).toBe('payment_amount_out_of_range');
    expect((await api().get(`/v1/loans/${loan.id}/repayments`)).body.data).toHaveLength(0);
  });

  it('when the bank refuses the debit, then 422 payment_refused with a way forward, and nothing changed', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    const postings = async () => Number((await app.platform.db.selectFrom('ledgerPostings').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await postings();
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_051 }, key(4));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'payment_refused', data: { reason: 'insufficient_funds', lender: { name: expect.any(String) } } });
    expect((await api().get(`/v1/loans/${loan.id}/repayments`)).body.data).toHaveLength(0);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ outstandingKobo: loan.outstandingKobo, amountPaidKobo: 0 });
    expect(await postings()).toBe(before);
    // Nothing blocks the next try.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_000 }, key(5))).status).toBe(201);
  });

  it('two tabs paying at once never over-collect: one is charged, the other is 409 payment_in_progress', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    const both = await Promise.all([
      borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 20_000 }, key(6)),
      borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 20_000 }, key(7)),
    ]);
    const statuses = both.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    // The second either waited for the first's lock and saw its charge in flight, or came after it was applied.
    if (statuses[1] === 409) expect(both.find((r) => r.status === 409)!.body.error).toBe('payment_in_progress');
    const charged = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    const amountPaid = (await api().get(`/v1/loans/${loan.id}`)).body.data.amountPaidKobo;
    expect(amountPaid).toBe(20_000 * charged.length);
    expect(charged).toHaveLength(both.filter((r) => r.status === 201).length);
    const rail = await app.platform.db.selectFrom('sandboxRailCharges').selectAll().where('reference', 'in', charged.map((c: { reference: string }) => c.reference)).execute().catch(() => null);
    if (rail) expect(rail).toHaveLength(charged.length);
  });
});

describe('pay off early', () => {
  it('a quote is stored to the end of the Lagos day; paying it completes the loan, cancels the mandate, and keeps the ledger balanced', async () => {
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    clock.advance(10 * 86_400_000);
    // Ten days on: a fresh session (sessions last an hour).
    const borrower = borrowerClient(app, (await mintBorrowerSession(app, tenant.test, loan.id)).token);
    const quoted = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {});
    expect(quoted.status).toBe(201);
    const quote = quoted.body.data;
    expect(quote).toMatchObject({ status: 'open', principalKobo: loan.principalKobo, rule: { interest: 'to_date', feeBps: 100 } });
    expect(quote.settlementFeeKobo).toBe(Math.floor(loan.principalKobo / 100));
    expect(quote.totalKobo).toBe(quote.principalKobo + quote.interestKobo + quote.feeKobo + quote.settlementFeeKobo);
    expect(quote.totalKobo + quote.waivedKobo).toBe(loan.outstandingKobo);
    expect(quote.waivedKobo).toBeGreaterThan(0);
    expect(Date.parse(quote.validUntil)).toBeGreaterThan(clock.now().getTime());

    const paid = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(8));
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ quote: { id: quote.id, status: 'paid' }, loanStatus: 'completed', outstandingKobo: 0 });
    const after = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(after).toMatchObject({ status: 'completed', outstandingKobo: 0, principalBalanceKobo: 0, amountPaidKobo: quote.totalKobo, hasActiveMandate: false });
    const schedule = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(schedule.every((i: { status: string }) => i.status === 'paid')).toBe(true);
    const repayments = (await api().get(`/v1/loans/${loan.id}/repayments`)).body.data;
    expect(repayments).toHaveLength(1);
    expect(repayments[0]).toMatchObject({ initiatedBy: 'borrower', amountKobo: quote.totalKobo, principalPortionKobo: loan.principalKobo, unallocatedKobo: 0 });
    const mandate = await app.platform.db.selectFrom('loanMandates').select('status').where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(mandate.status).toBe('cancelled');
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['loan.settlement_quote.created', 'loan.settlement_quote.paid', 'loan.repayment.completed', 'loan.completed']));
    const receivable = await app.platform.db
      .selectFrom('ledgerAccounts as a')
      .innerJoin('ledgerPostings as p', 'p.accountId', 'a.id')
      .select((eb) => eb.fn.sum<number>('p.amountKobo').as('balance'))
      .where('a.kind', '=', 'loan_receivable')
      .where('a.code', '=', loan.id)
      .executeTakeFirstOrThrow();
    expect(Number(receivable.balance)).toBe(0);
    expect((await checkLedger(app.platform.db)).ok).toBe(true);
    await expect.poll(async () => (await inbox(phone)).some((m) => m.body.endsWith('Your loan is fully paid. Thank you.'))).toBe(true);
    // Paid: paying again is refused.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(9))).status).toBe(409);
  });

  it('when the quote\'s Lagos day is over, then 409 settlement_quote_expired and nothing is charged', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    clock.set(new Date(Date.parse(quote.validUntil) + 1));
    const tomorrow = borrowerClient(app, (await mintBorrowerSession(app, tenant.test, loan.id)).token);
    const res = await tomorrow.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(10));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('settlement_quote_expired');
    expect((await api().get(`/v1/loans/${loan.id}/repayments`)).body.data).toHaveLength(0);
  });

  it('when a payment was applied since the quote, then 409 settlement_quote_stale', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/payments`, { amountKobo: 10_000 }, key(11))).status).toBe(201);
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(12));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('settlement_quote_stale');
  });

  it('when the bank refuses the settlement, then 422 payment_refused, the quote is open again and the schedule unchanged', async () => {
    const { loan, borrower } = await signedIn(uniquePhone());
    // The rail refuses the debit when it is sent (a quote's total cannot be steered to the sandbox's magic kobo).
    const before = (await api().get(`/v1/loans/${loan.id}/schedule`)).body.data;
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    const refused = vi.spyOn(SandboxRailAdapter.prototype, 'charge').mockRejectedValueOnce(Object.assign(new Error('do_not_honour'), { code: 'do_not_honour' }));
    try {
      const res = await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(13));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'payment_refused', data: { reason: 'do_not_honour' } });
    } finally {
      refused.mockRestore();
    }
    expect((await borrower.get(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}`)).body.data.status).toBe('open');
    expect((await api().get(`/v1/loans/${loan.id}/schedule`)).body.data).toEqual(before);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'active', outstandingKobo: loan.outstandingKobo, hasActiveMandate: true });
    // The same quote can be paid the same day.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes/${quote.id}/pay`, {}, key(14))).status).toBe(201);
  });
});

describe('the product\'s early-settlement rule', () => {
  const create = (earlySettlement: unknown) =>
    createProduct(app.platform.db, { organisationId: tenant.organisationId, input: { ...productInput(), earlySettlement }, now: new Date() });

  it('defaults to interest to date and no fee, and is on the product in the API', async () => {
    const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput(), now: new Date() });
    expect(product.earlySettlement).toEqual({ interest: 'to_date', feeBps: 0 });
    expect((await api().get(`/v1/products/${product.id}`)).body.data.earlySettlement).toEqual({ interest: 'to_date', feeBps: 0 });
  });

  it.each([
    ['an unknown interest rule', { interest: 'never', feeBps: 0 }],
    ['a fee above 10,000 bps', { interest: 'to_date', feeBps: 10_001 }],
    ['a fractional fee', { interest: 'scheduled', feeBps: 1.5 }],
    ['an unknown field', { interest: 'scheduled', feeBps: 0, cap: 1 }],
  ])('refuses %s with invalid_request naming the field', async (_name, rule) => {
    await expect(create(rule)).rejects.toMatchObject({ code: 'invalid_request', data: { field: expect.stringMatching(/^earlySettlement/) } });
  });

  it('under `scheduled`, the quote asks for every scheduled interest and waives only the fees not yet due', async () => {
    const scheduledTenant = await lendingTenant(app, { product: { earlySettlement: { interest: 'scheduled', feeBps: 0 } } });
    const { loan } = await lentLoan(app, scheduledTenant, uniquePhone());
    const borrower = borrowerClient(app, (await mintBorrowerSession(app, scheduledTenant.test, loan.id)).token);
    const schedule = (await client(app, scheduledTenant.test).get(`/v1/loans/${loan.id}/schedule`)).body.data as Array<{ interestKobo: number; feeKobo: number }>;
    const quote = (await borrower.post(`/v1/borrower/loans/${loan.id}/settlement-quotes`, {})).body.data;
    expect(quote.rule).toEqual({ interest: 'scheduled', feeBps: 0 });
    expect(quote.interestKobo).toBe(schedule.reduce((sum, i) => sum + i.interestKobo, 0));
    expect(quote.waivedKobo).toBe(schedule.reduce((sum, i) => sum + i.feeKobo, 0));
  });
});
