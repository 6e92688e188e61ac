import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { nubanCheckDigit, verifiedSession } from '../support/checkout';

/**
 * The mandate step's ways forward: after the borrower refuses at the rail (or the bank fails it),
 * activation answers a code the widget words, "Try again" gets a fresh mandate, "Use another bank
 * account" replaces the account until a mandate is active, and the e-mail typed once is kept.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const CALLBACK = 'https://shop.example/checkout/?return=mandate';

/** A verified session whose offer is signed and whose bank account is captured. */
async function readyForMandate(options: { email?: null } = {}) {
  const ready = await verifiedSession(app, tenant);
  if (options.email === null) await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', ready.loan.borrowerId).execute();
  const signed = await ready.session.post('/v1/checkout/accept', {
    signatureFullName: 'Ada Obi',
    documentReference: ready.loan.documentReference,
    ipAddress: '102.89.34.7',
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
  });
  expect(signed.status).toBe(200);
  expect((await ready.session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000000') })).status).toBe(200);
  return ready;
}

const decide = (authorizationUrl: string, decision: 'approve' | 'refuse') =>
  fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision }), redirect: 'manual' });

const mandatesOf = (loanId: string) =>
  app.platform.db.selectFrom('loanMandates').select(['id', 'status', 'accountNumber', 'email']).where('loanId', '=', loanId).orderBy('createdAt').orderBy('id').execute();

describe('after the borrower refuses the direct debit', () => {
  it('when activation reads the refusal, then 409 mandate_declined with the reason, the state says declined, and a new POST creates a fresh mandate that can go active', async () => {
    const { session, loan } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    expect((await decide(first.authorizationUrl, 'refuse')).headers.get('location')).toMatch(/status=refused/);

    const refused = await session.post('/v1/checkout/mandate/activate');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('mandate_declined');
    expect(refused.body.data).toMatchObject({ mandateId: first.id, status: 'failed', reason: 'declined' });
    // Asked again: the same code, not a generic state error.
    expect((await session.post('/v1/checkout/mandate/activate')).body.error).toBe('mandate_declined');
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ nextStep: 'mandate', mandate: { id: first.id, status: 'failed', failure: 'declined' } });

    const retry = await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).not.toBe(first.id);
    expect(retry.body.data.status).toBe('initiated');
    expect((await session.get('/v1/checkout/session')).body.data.mandate).toMatchObject({ id: retry.body.data.id, status: 'initiated', failure: null });

    await decide(retry.body.data.authorizationUrl, 'approve');
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('active');
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'complete' });
    expect((await mandatesOf(loan.id)).map((m) => m.status)).toEqual(['failed', 'active']);
  });

  it('when the borrower refused but the page never read it back, then "Try again" still gets a fresh mandate (the old one is read from the rail first)', async () => {
    const { session, loan } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    await decide(first.authorizationUrl, 'refuse');
    const retry = await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK });
    expect(retry.status).toBe(201);
    expect((await mandatesOf(loan.id)).map((m) => m.status)).toEqual(['failed', 'initiated']);
  });

  it('when the borrower gives another account after a refusal, then the state no longer reports the refusal (it was about the old account)', async () => {
    const { session } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    await decide(first.authorizationUrl, 'refuse');
    expect((await session.post('/v1/checkout/mandate/activate')).body.error).toBe('mandate_declined');
    expect((await session.get('/v1/checkout/session')).body.data.mandate.failure).toBe('declined');
    expect((await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber: nuban('058', '200001234') })).status).toBe(200);
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state).toMatchObject({ nextStep: 'mandate', mandate: { id: first.id, status: 'failed', failure: null } });
  });

  it('when the rail cancels the authorisation, then 409 mandate_failed (the bank could not set it up), and a fresh one follows', async () => {
    const { session } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    const providerReference = decodeURIComponent(first.authorizationUrl.split('/').pop());
    expect((await fetch(`${app.url}/sandbox/rails/rail_a/authorisations/${encodeURIComponent(providerReference)}/cancel`, { method: 'POST' })).status).toBe(200);
    const failed = await session.post('/v1/checkout/mandate/activate');
    expect(failed.status).toBe(409);
    expect(failed.body.error).toBe('mandate_failed');
    expect(failed.body.data.reason).toBe('failed');
    expect((await session.post('/v1/checkout/mandate', {})).status).toBe(201);
  });

  it('the rail\'s page of a decided authorisation links back to the checkout (no dead end when it is reopened)', async () => {
    const { session } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    const pending = await (await fetch(first.authorizationUrl)).text();
    expect(pending).not.toContain('Back to the checkout');
    await decide(first.authorizationUrl, 'refuse');
    const reopened = await (await fetch(first.authorizationUrl)).text();
    expect(reopened).toContain('Direct debit refused');
    const href = reopened.match(/<a class="back" href="([^"]+)">Back to the checkout<\/a>/)?.[1]?.replaceAll('&amp;', '&');
    expect(href).toBeDefined();
    const back = new URL(href!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example/checkout/');
    expect(Object.fromEntries(back.searchParams)).toEqual({ return: 'mandate', loan: expect.any(String), reference: expect.any(String), status: 'refused' });
  });
});

describe('another bank account after a mandate was started', () => {
  it('when the borrower captures another account, then the next mandate debits it and the one in play on the old account is withdrawn; once active, the account is locked', async () => {
    const { session, loan } = await readyForMandate();
    const first = (await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data;
    const other = { bankCode: '058', accountNumber: nuban('058', '200000000') };
    expect((await session.post('/v1/checkout/bank-account', other)).status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data.bank).toMatchObject({ bankCode: '058', accountNumberLast4: other.accountNumber.slice(-4) });

    const second = await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject(other);
    const rows = await mandatesOf(loan.id);
    expect(rows.map((m) => [m.id, m.status])).toEqual([
      [first.id, 'cancelled'],
      [second.body.data.id, 'initiated'],
    ]);
    // The withdrawn authorisation cannot be approved any more at the rail.
    expect((await decide(first.authorizationUrl, 'approve')).status).toBe(409);

    await decide(second.body.data.authorizationUrl, 'approve');
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('active');
    const locked = await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000000') });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toBe('bank_account_locked');
    expect((await session.get('/v1/checkout/session')).body.data.bank.bankCode).toBe('058');
  });
});

describe('the e-mail for the direct debit', () => {
  it('when the borrower has none on record, then the state says so; the e-mail typed once is kept on the borrower and used by the next attempt without sending it again', async () => {
    const { session, loan } = await readyForMandate({ email: null });
    expect((await session.get('/v1/checkout/session')).body.data.borrower).toMatchObject({ email: null, emailHint: null });
    const first = await session.post('/v1/checkout/mandate', { email: 'tunde.bello@example.com', callbackUrl: CALLBACK });
    expect(first.status).toBe(201);
    const borrower = await app.platform.db.selectFrom('borrowers').select('email').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(borrower.email).toBe('tunde.bello@example.com');
    expect((await session.get('/v1/checkout/session')).body.data.borrower.emailHint).toBe('t•••@example.com');

    await decide(first.body.data.authorizationUrl, 'refuse');
    expect((await session.post('/v1/checkout/mandate/activate')).body.error).toBe('mandate_declined');
    const retry = await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK });
    expect(retry.status).toBe(201);
    expect(retry.body.data.email).toBe('tunde.bello@example.com');
  });

  it('when the partner gave an e-mail, then one typed in the checkout is used for that mandate but never overwrites the record', async () => {
    const { session, loan } = await readyForMandate();
    const before = await app.platform.db.selectFrom('borrowers').select('email').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(before.email).toBeTruthy();
    const created = await session.post('/v1/checkout/mandate', { email: 'other@example.com' });
    expect(created.body.data.email).toBe('other@example.com');
    const after = await app.platform.db.selectFrom('borrowers').select('email').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(after.email).toBe(before.email);
  });
});
