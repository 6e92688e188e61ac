import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, sessionClient, tokenOf, uniquePhone } from '../support/checkout';

/** The borrower's language carried server side: the code texted in the language the checkout is read in. */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const inbox = async (phone: string) => {
  const res = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return res.body.data.messages as Array<{ body: string }>;
};

async function borrower() {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  return { phone, loan, session: sessionClient(app, tokenOf(loan.applicationUrl)) };
}

describe('the borrower\'s language, server side', () => {
  it('when the borrower picks Yorùbá, then the code arrives in Yorùbá with its tone marks and under-dots, and it verifies', async () => {
    const { phone, loan, session } = await borrower();

    const chosen = await session.post('/v1/checkout/language', { locale: 'yo' });
    const sent = await session.post('/v1/checkout/otp/send');

    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toEqual({ locale: 'yo', source: 'session' });
    expect(sent.status).toBe(200);
    const [text] = await inbox(phone);
    expect(text!.body).toMatch(/^\d{6} ni kóòdù awin .+ rẹ\. Ó dópin ní ìṣẹ́jú 5\. Má fi han ẹnikẹ́ni\.\n\n@\S+ #\d{6}$/u);
    expect(text!.body).toBe(text!.body.normalize('NFC'));
    const verified = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    expect(verified.status).toBe(200);
    const stored = await app.platform.db.selectFrom('borrowers').select('preferredLocale').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(stored.preferredLocale).toBe('yo');
  });

  it('when the partner minted the session with a locale, then the code is in that language', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const minted = await client(app, tenant.test).post(`/v1/loans/${loan.id}/checkout-sessions`, { locale: 'ha' });
    expect(minted.status).toBe(201);

    await sessionClient(app, minted.body.data.token).post('/v1/checkout/otp/send');

    const [text] = await inbox(phone);
    expect(text!.body).toMatch(/^\d{6} ce lambar lamunin .+\. Za ta ƙare cikin minti 5\. Kada ku ba kowa\./u);
  });

  it('when the borrower picks a language, then it wins over the partner\'s locale', async () => {
    const { phone, session } = await borrower();
    await session.post('/v1/checkout/language', { locale: 'ha', chosenBy: 'partner' });
    const chosen = await session.post('/v1/checkout/language', { locale: 'ig' });

    await session.post('/v1/checkout/otp/send');

    expect(chosen.body.data).toEqual({ locale: 'ig', source: 'session' });
    expect((await inbox(phone))[0]!.body).toMatch(/^\d{6} bụ koodu mbinye ego .+ gị\. Ọ ga-agwụ na nkeji 5\./u);
  });

  it('when nothing else names a language, then the browser\'s Accept-Language decides, else English', async () => {
    const igbo = await borrower();
    const english = await borrower();

    await igbo.session.post('/v1/checkout/otp/send', {}, { 'accept-language': 'fr-FR, ig-NG;q=0.9, en;q=0.5' });
    await english.session.post('/v1/checkout/otp/send', {}, { 'accept-language': 'fr-FR' });

    expect((await inbox(igbo.phone))[0]!.body).toMatch(/^\d{6} bụ koodu mbinye ego/u);
    expect((await inbox(english.phone))[0]!.body).toMatch(/^\d{6} is your .+ loan code\. It expires in 5 minutes\. Never share it\./);
  });

  it('when a later session of the same borrower has no pick, then the saved choice is used', async () => {
    const { phone, loan, session } = await borrower();
    await session.post('/v1/checkout/language', { locale: 'pcm' });
    const minted = await client(app, tenant.test).post(`/v1/loans/${loan.id}/checkout-sessions`);
    const later = sessionClient(app, minted.body.data.token);

    await later.post('/v1/checkout/otp/send');

    expect((await inbox(phone))[0]!.body).toMatch(/^\d{6} na your .+ loan code\. E go expire for 5 minutes\./);
  });

  it('when the borrower reads in Yorùbá, then the offer letter opens with the key facts in Yorùbá, characters intact, then the English binding text', async () => {
    const { phone, session } = await borrower();
    await session.post('/v1/checkout/language', { locale: 'yo' });
    await session.post('/v1/checkout/otp/send');
    await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });

    const state = await session.get('/v1/checkout/session');
    const pdf = await fetch(state.body.data.offer.offerLetter.url);
    const { text } = await extractText(new Uint8Array(await pdf.arrayBuffer()), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ').normalize('NFC');

    expect(pdf.status).toBe(200);
    expect(flat).toContain('Ìfilọ̀ awin: àwọn òkodoro pàtàkì'.normalize('NFC'));
    expect(flat).toContain('Ọ̀rọ̀ Gẹ̀ẹ́sì tó tẹ̀lé e ni ẹ̀dà tí òfin dè.'.normalize('NFC'));
    expect(flat).toContain('Owó tí o yá (olú-owó)'.normalize('NFC'));
    expect(flat).toContain('English text: the binding version of this offer.');
    expect(flat.indexOf('English text: the binding version')).toBeGreaterThan(flat.indexOf('Ìfilọ̀ awin'.normalize('NFC')));
    expect(flat).toContain('Loan offer and key facts statement');
  });

  it.each([
    [{ locale: 'fr' }],
    [{ locale: 'yo', chosenBy: 'lender' }],
    [{ locale: 'yo', extra: true }],
    [{}],
  ])('when the language is not one shipped (%j), then 400 invalid_request and nothing is recorded', async (body) => {
    const { loan, session } = await borrower();

    const res = await session.post('/v1/checkout/language', body);

    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    const row = await app.platform.db.selectFrom('checkoutSessions').select(['locale', 'partnerLocale']).where('loanId', '=', loan.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ locale: null, partnerLocale: null });
  });

  it('when the partner mints a session with a language not shipped, then 400 and no session', async () => {
    const { loan } = await borrower();

    const res = await client(app, tenant.test).post(`/v1/loans/${loan.id}/checkout-sessions`, { locale: 'fr' });

    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    const sessions = await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loan.id).execute();
    expect(sessions).toHaveLength(1);
  });
});
