import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createProduct } from '../../server/platform/domain/products/product';
import { client, createTenant, startTestApp, type KeyPair, type TestApp } from '../support/harness';
import { productInput } from '../support/factories';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { nubanCheckDigit, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';
import { loanReference } from '../../server/shared/loan-reference';

/**
 * The lender's public face in the checkout, a page the borrower can trust: branding in the
 * checkout settings, the checkout state's `mode` and `branding` (readable before the OTP), a
 * product's `rateDisplay` carried into the offer facts, and the receipt text sent once when the
 * checkout completes.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app, { product: { rateDisplay: 'monthly' } });
});
afterAll(() => app.stop());

const patch = (key: KeyPair, body: unknown) => client(app, key).call('PATCH', '/v1/checkout-settings', { body });
const settings = async (key: KeyPair) => (await client(app, key).get('/v1/checkout-settings')).body.data;

const BRANDING = {
  displayName: 'Kudi Loans',
  logoUrl: 'https://cdn.kudi.example/logo.svg',
  brandColor: '#0B6E4F',
  supportEmail: 'help@kudi.example',
  supportPhone: '0700 123 4567',
  supportUrl: 'https://kudi.example/help',
  privacyUrl: 'https://kudi.example/privacy',
  termsUrl: 'https://kudi.example/terms',
};
const NO_BRANDING = { displayName: null, logoUrl: null, brandColor: null, supportEmail: null, supportPhone: null, supportUrl: null, privacyUrl: null, termsUrl: null };

describe('checkout branding (PATCH /v1/checkout-settings)', () => {
  it('when nothing was set, then every branding field is null', async () => {
    const fresh = await createTenant(app);
    expect(await settings(fresh.test)).toEqual({ allowedOrigins: [], returnUrl: null, ...NO_BRANDING, updatedAt: null });
  });

  it('when the branding is set, then it is kept normalised (colour in lower case, phone in international format) per mode, and a later change touches only what it names', async () => {
    const lender = await createTenant(app);
    const set = await patch(lender.test, { allowedOrigins: ['https://shop.example'], ...BRANDING });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      allowedOrigins: ['https://shop.example'],
      returnUrl: null,
      ...BRANDING,
      brandColor: '#0b6e4f',
      supportPhone: '+234 700 123 4567',
      updatedAt: clock.now().toISOString(),
    });

    const renamed = await patch(lender.test, { displayName: 'Kudi', termsUrl: null });
    expect(renamed.body.data).toMatchObject({ ...BRANDING, displayName: 'Kudi', termsUrl: null, brandColor: '#0b6e4f', supportPhone: '+234 700 123 4567', allowedOrigins: ['https://shop.example'] });
    // Live mode has its own settings.
    expect(await settings(lender.live)).toMatchObject(NO_BRANDING);
  });

  it('when the logo is plain http on loopback, then test mode takes it and live mode refuses it', async () => {
    const lender = await createTenant(app);
    expect((await patch(lender.test, { logoUrl: 'http://127.0.0.1:4000/logo.png' })).body.data.logoUrl).toBe('http://127.0.0.1:4000/logo.png');
    const live = await patch(lender.live, { logoUrl: 'http://127.0.0.1:4000/logo.png' });
    expect(live.status).toBe(400);
    expect(live.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('logoUrl') });
  });

  it.each([
    [{ logoUrl: 'http://cdn.kudi.example/logo.png' }, 'logoUrl: must be an https URL'],
    [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
    [{ logoUrl: 'data:image/svg+xml,<svg/>' }, 'logoUrl'],
    [{ logoUrl: 'https://user:pw@cdn.kudi.example/logo.png' }, 'logoUrl: must not carry credentials'],
    [{ logoUrl: '/logo.png' }, 'logoUrl: not an absolute URL'],
    [{ privacyUrl: 'ftp://kudi.example/privacy' }, 'privacyUrl'],
    [{ termsUrl: 'http://kudi.example/terms' }, 'termsUrl'],
    [{ supportUrl: 'https://*.kudi.example/help' }, 'supportUrl'],
    [{ brandColor: 'green' }, 'brandColor'],
    [{ brandColor: '#0b6' }, 'brandColor'],
    [{ brandColor: 'rgb(0, 0, 0)' }, 'brandColor'],
    [{ supportEmail: 'help at kudi' }, 'supportEmail'],
    [{ supportPhone: 'call us' }, 'supportPhone'],
    [{ supportPhone: '12' }, 'supportPhone'],
    [{ displayName: '' }, 'displayName'],
    [{ displayName: '<b>Kudi</b>' }, 'displayName'],
    [{ displayName: 'K'.repeat(81) }, 'displayName'],
    [{ displayName: 42 }, 'displayName'],
    [{ brandColour: '#000000' }, 'body'],
    // One bad field in an otherwise good body: nothing of the body is applied.
    [{ displayName: 'Another name', supportEmail: 'nope' }, 'supportEmail'],
  ])('when the body is %j, then 400 invalid_request naming the field, and nothing changes', async (body, message) => {
    const lender = await createTenant(app);
    await patch(lender.test, BRANDING);
    const before = await settings(lender.test);
    const res = await patch(lender.test, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(res.body.message).toContain(message);
    expect(await settings(lender.test)).toEqual(before);
  });
});

describe('the checkout state\'s mode and branding', () => {
  it('when the lender has branding, then a session reads it before the OTP, with the mode and the platform\'s name; nothing personal comes with it', async () => {
    const lender = await lendingTenant(app);
    await patch(lender.test, BRANDING);
    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const state = await sessionClient(app, tokenOf(loan.applicationUrl)).get('/v1/checkout/session');
    expect(state.status).toBe(200);
    expect(state.body.data).toMatchObject({
      mode: 'test',
      branding: { ...BRANDING, brandColor: '#0b6e4f', supportPhone: '+234 700 123 4567', securedBy: app.platform.config.CHECKOUT_PLATFORM_NAME },
      session: { otpVerified: false },
      borrower: null,
      offer: null,
    });
  });

  it('when the lender has set nothing, then the branding is all null and the header falls back to the organisation\'s name', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const state = (await sessionClient(app, tokenOf(loan.applicationUrl)).get('/v1/checkout/session')).body.data;
    expect(state.branding).toEqual({ ...NO_BRANDING, securedBy: 'LoanCheckout' });
    expect(state.organisationName).toEqual(expect.any(String));
  });
});

describe('the hosted page\'s CSP for the logo', () => {
  const imgSrc = async (cookie?: string) => {
    const res = await fetch(`${app.url}/checkout/`, { headers: cookie ? { cookie } : {} });
    return /img-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  };

  it('allows https images always, and plain http on loopback only for a test-mode session', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const test = await imgSrc(`lc_checkout=${tokenOf(loan.applicationUrl)}`);
    expect(test).toContain('https:');
    expect(test).toContain('http://127.0.0.1:*');
    const live = await imgSrc(`lc_checkout=cs_live_${'a'.repeat(40)}`);
    expect(live).toContain('https:');
    expect(live).not.toContain('http:');
    expect(await imgSrc()).not.toContain('http:');
  });
});

describe('a product\'s rate display', () => {
  it('defaults to annual, takes monthly, and refuses anything else', async () => {
    const plain = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput(), now: clock.now() });
    expect(plain.rateDisplay).toBe('annual');
    const monthly = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ rateDisplay: 'monthly' }), now: clock.now() });
    clock.advance(app.platform.config.PRODUCT_CACHE_TTL_MS + 1);
    expect((await client(app, tenant.test).get(`/v1/products/${monthly.id}`)).body.data.rateDisplay).toBe('monthly');
    await expect(
      createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ rateDisplay: 'weekly' as never }), now: clock.now() }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('rateDisplay') });
  });

  it('is carried into the offer facts the checkout shows, beside the annual rate and the APR', async () => {
    const { session } = await verifiedSession(app, tenant);
    const { offer } = (await session.get('/v1/checkout/session')).body.data;
    expect(offer).toMatchObject({ rateDisplay: 'monthly', interestRateBps: expect.any(Number), aprBps: expect.any(Number) });
    const other = await lendingTenant(app);
    const annual = (await (await verifiedSession(app, other)).session.get('/v1/checkout/session')).body.data.offer;
    expect(annual.rateDisplay).toBe('annual');
  });
});

describe('the receipt text', () => {
  it('when the mandate turns active, then the borrower is texted the receipt once (amount, first debit, masked account, reference), however often the checkout confirms', async () => {
    const lender = await lendingTenant(app);
    await patch(lender.test, { displayName: 'Kudi Loans' });
    const { session, loan, phone } = await verifiedSession(app, lender);
    await session.post('/v1/checkout/accept', {
      signatureFullName: 'Ada Obi',
      documentReference: loan.documentReference,
      ipAddress: '102.89.34.7',
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
    });
    const accountNumber = `100000000${nubanCheckDigit('058', '100000000')}`;
    expect((await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber })).status).toBe(200);
    const created = await session.post('/v1/checkout/mandate', { email: 'ada@example.com' });
    await fetch(created.body.data.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    const inbox = async () => (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;
    const receipts = async () => (await inbox()).filter((m) => m.body.startsWith('Kudi Loans: your loan'));

    // Not active yet: no receipt.
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('pending');
    expect(await receipts()).toHaveLength(0);

    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    const [first, second] = await Promise.all([session.post('/v1/checkout/mandate/activate'), session.post('/v1/checkout/mandate/activate')]);
    expect([first.body.data.status, second.body.data.status]).toEqual(['active', 'active']);
    await session.post('/v1/checkout/mandate/activate');

    const sent = await receipts();
    expect(sent).toHaveLength(1);
    const state = (await session.get('/v1/checkout/session')).body.data;
    const due = state.offer.schedule[0];
    const naira = (kobo: number) => `NGN ${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`;
    expect(sent[0]!.body).toContain(`your loan of ${naira(loan.principalKobo)} is confirmed`);
    expect(sent[0]!.body).toContain(`First repayment ${naira(due.totalKobo)}`);
    expect(sent[0]!.body).toContain(`from your Guaranty Trust Bank account ending ${accountNumber.slice(-4)}.`);
    // GSM 7-bit only (no ₦ or •), so the text is not sent as UCS-2 at 70 characters a part.
    expect(sent[0]!.body).toMatch(/^[A-Za-z0-9 @£$¥!"#%&'()*+,\-./:;<=>?\n]*$/);
    // The short reference the done screen shows (`loanReference`), not the id's 36 characters.
    expect(sent[0]!.body).toContain(`Ref ${loanReference(loan.id)}.`);
    // The borrower's own loan page, where they sign in with their phone (a test-mode loan's link asks for test mode).
    expect(sent[0]!.body).toMatch(/ See your loan or pay early: http:\/\/[^ ]+\/checkout\/my-loan\?mode=test$/);
    expect(sent[0]!.body).not.toContain(loan.id);
    expect(sent[0]!.body).not.toContain(accountNumber);
    const row = await app.platform.db.selectFrom('loans').select('checkoutReceiptSentAt').where('id', '=', loan.id).executeTakeFirstOrThrow();
    expect(row.checkoutReceiptSentAt).not.toBeNull();
  });
});
