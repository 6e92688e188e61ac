import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';

/** Ownership checks: the bank account and the signature must be the borrower's own. */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const signature = (documentReference: string, signatureFullName: string) => ({
  signatureFullName,
  documentReference,
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
});

/** A verified session for a borrower named Amaka Okafor. */
async function amaka() {
  const phone = uniquePhone();
  const pushed = await offeredLoan(app, tenant, { phone, lastName: 'Okafor' });
  // pushBody names the borrower Ada; rename on record to Amaka Okafor, so the sandbox bank's
  // fixed names (OKAFOR A., ADEYEMI NGOZI) are a partial match and a stranger.
  await app.platform.db.updateTable('borrowers').set({ firstName: 'Amaka' }).where('id', '=', pushed.loan.borrowerId).execute();
  const session = sessionClient(app, tokenOf(pushed.loan.applicationUrl));
  await session.post('/v1/checkout/otp/send');
  const verified = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
  if (verified.status !== 200) throw new Error(JSON.stringify(verified.body));
  return { loan: pushed.loan, session };
}

const sessionRow = (loanId: string) => app.platform.db.selectFrom('checkoutSessions').selectAll().where('loanId', '=', loanId).executeTakeFirstOrThrow();
const consentRow = (loanId: string) => app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loanId).executeTakeFirst();

describe('bank account ownership', () => {
  it('when the sandbox looks up an ordinary number, then it answers with the borrower\'s own name (bank style) and a match', async () => {
    const { session } = await amaka();
    const res = await session.post('/v1/checkout/bank-account/resolve', { bankCode: '044', accountNumber: nuban('044', '123123123') });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accountName: 'OKAFOR AMAKA', nameMatch: { status: 'match', score: 1, nameOnRecord: 'Amaka Okafor' } });
  });

  it('when the account is someone else\'s (magic 777777777), then resolve says mismatch, capture answers 409 account_name_mismatch and keeps nothing', async () => {
    const { loan, session } = await amaka();
    const account = { bankCode: '058', accountNumber: nuban('058', '777777777') };
    const resolved = await session.post('/v1/checkout/bank-account/resolve', account);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ accountName: 'ADEYEMI NGOZI', nameMatch: { status: 'mismatch', score: 0, nameOnRecord: 'Amaka Okafor' } });

    const refused = await session.post('/v1/checkout/bank-account', account);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('account_name_mismatch');
    expect(refused.body.message).toContain('This account is in the name ADEYEMI NGOZI, not Amaka Okafor');
    expect(refused.body.data).toMatchObject({ accountName: 'ADEYEMI NGOZI', nameMatch: { status: 'mismatch' } });
    expect((await session.get('/v1/checkout/session')).body.data.bank).toBeNull();
    expect((await sessionRow(loan.id)).bankCapturedAt).toBeNull();

    expect((await session.post('/v1/checkout/bank-account', { ...account, confirmNameMismatch: false })).body.error).toBe('account_name_mismatch');
  });

  it('when the borrower confirms the mismatching account is theirs, then it is kept with the outcome and the time of the confirmation', async () => {
    const { loan, session } = await amaka();
    const account = { bankCode: '058', accountNumber: nuban('058', '777777777') };
    const saved = await session.post('/v1/checkout/bank-account', { ...account, confirmNameMismatch: true });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ accountName: 'ADEYEMI NGOZI', nameConfirmed: true, nameMatch: { status: 'mismatch' } });
    expect((await session.get('/v1/checkout/session')).body.data.bank).toMatchObject({ accountName: 'ADEYEMI NGOZI' });
    expect(await sessionRow(loan.id)).toMatchObject({
      accountName: 'ADEYEMI NGOZI',
      accountNameMatch: 'mismatch',
      accountNameMatchScore: 0,
      accountNameOnRecord: 'Amaka Okafor',
      accountNameConfirmedAt: clock.now().toISOString(),
    });
  });

  it('when the bank holds only an initial (magic 666666666), then it is a partial match, kept without confirmation', async () => {
    const { loan, session } = await amaka();
    const saved = await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '666666666') });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ accountName: 'OKAFOR A.', nameConfirmed: false, nameMatch: { status: 'partial' } });
    expect(await sessionRow(loan.id)).toMatchObject({ accountNameMatch: 'partial', accountNameConfirmedAt: null });
  });

  it('takes a microfinance bank account with its NUBAN (Moniepoint: 9 + 50515) and a wallet numbered by phone (OPay)', async () => {
    const { session } = await amaka();
    const moniepoint = await session.post('/v1/checkout/bank-account/resolve', { bankCode: '090405', accountNumber: '4000675874' });
    expect(moniepoint.status).toBe(200);
    expect(moniepoint.body.data).toMatchObject({ bankName: 'Moniepoint Microfinance Bank', nameMatch: { status: 'match' } });
    expect((await session.post('/v1/checkout/bank-account/resolve', { bankCode: '090405', accountNumber: '4000675875' })).body.error).toBe('account_number_invalid');
    const opay = await session.post('/v1/checkout/bank-account', { bankCode: '100004', accountNumber: '8031234567' });
    expect(opay.status).toBe(200);
    expect(opay.body.data).toMatchObject({ bankCode: '100004', bankName: 'OPay', accountName: 'OKAFOR AMAKA' });
    expect((await session.post('/v1/checkout/bank-account/resolve', { bankCode: '030', accountNumber: nuban('030', '123123123') })).body.error).toBe('bank_not_found');
  });
});

describe('signature ownership', () => {
  it('when the borrower signs as someone else, then 422 signature_name_mismatch and the offer stays unsigned', async () => {
    const { loan, session } = await amaka();
    const res = await session.post('/v1/checkout/accept', signature(loan.documentReference, 'Mickey Mouse'));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('signature_name_mismatch');
    expect(res.body.data).toMatchObject({ nameMatch: { status: 'mismatch', nameOnRecord: 'Amaka Okafor' } });
    expect((await client(app, tenant.test).get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
    expect(await consentRow(loan.id)).toBeUndefined();
    // Even with the confirmation flag: a mismatch never signs.
    expect((await session.post('/v1/checkout/accept', { ...signature(loan.documentReference, 'Mickey Mouse'), confirmSignatureName: true })).body.error).toBe('signature_name_mismatch');
  });

  it('when the borrower signs with look-alike letters of another script (Cyrillic а and о in "Amаka Okafоr"), then 422 signature_name_mismatch, confirmed or not, and the offer stays unsigned', async () => {
    const { loan, session } = await amaka();
    for (const confirmSignatureName of [false, true]) {
      const res = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference, 'Am\u0430ka Okaf\u043er'), confirmSignatureName });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('signature_name_mismatch');
      expect(res.body.data).toMatchObject({ nameMatch: { status: 'mismatch', score: 0, nameOnRecord: 'Amaka Okafor' } });
    }
    expect((await client(app, tenant.test).get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
    expect(await consentRow(loan.id)).toBeUndefined();
    // The same name in Latin letters, with Yorùbá-style diacritics, still signs.
    const signed = await session.post('/v1/checkout/accept', signature(loan.documentReference, 'Ámákà Ọkàfọ̀r'));
    expect(signed.status).toBe(200);
    expect(await consentRow(loan.id)).toMatchObject({ signatureNameMatch: 'match', signatureNameMatchScore: 100 });
  });

  it('when the borrower signs with a partial name, then 422 signature_name_unconfirmed; confirmed, it signs and the evidence says so', async () => {
    const { loan, session } = await amaka();
    const partial = await session.post('/v1/checkout/accept', signature(loan.documentReference, 'A. Okafor'));
    expect(partial.status).toBe(422);
    expect(partial.body.error).toBe('signature_name_unconfirmed');
    const signed = await session.post('/v1/checkout/accept', { ...signature(loan.documentReference, 'A. Okafor'), confirmSignatureName: true });
    expect(signed.status).toBe(200);
    expect(await consentRow(loan.id)).toMatchObject({ signatureFullName: 'A. Okafor', signatureNameMatch: 'partial', signatureNameOnRecord: 'Amaka Okafor' });
    expect(Boolean((await consentRow(loan.id))!.signatureNameConfirmed)).toBe(true);
    // The signed offer letter carries the comparison with the rest of the evidence.
    const link = await client(app, tenant.test).get(`/v1/loans/${loan.id}/offer-letter`);
    const { text } = await extractText(new Uint8Array(await (await fetch(link.body.data.url)).arrayBuffer()), { mergePages: true });
    expect(text.replace(/\s+/g, ' ')).toContain("matches the borrower's name on record (Amaka Okafor) in part; the borrower confirmed it as their name");
  });

  it('when the borrower signs with their name in another order, with a title and in capitals, then it signs and the consent records the match', async () => {
    const { loan, session } = await amaka();
    const res = await session.post('/v1/checkout/accept', signature(loan.documentReference, 'MRS OKAFOR AMAKA CHIOMA'));
    expect(res.status).toBe(200);
    const consent = await consentRow(loan.id);
    expect(consent).toMatchObject({ signatureNameMatch: 'match', signatureNameMatchScore: 100, signatureNameOnRecord: 'Amaka Okafor' });
    expect(Boolean(consent!.signatureNameConfirmed)).toBe(false);
  });

  it('through the checkout server (the hosted page\'s JSON endpoints), the confirmation flags reach the platform', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone, lastName: 'Okafor' });
    await app.platform.db.updateTable('borrowers').set({ firstName: 'Amaka' }).where('id', '=', loan.borrowerId).execute();
    const landing = await fetch(loan.applicationUrl.replace(/^https?:\/\/[^/]+/, app.url), { redirect: 'manual' });
    const cookie = landing.headers.get('set-cookie')!.split(';')[0]!;
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${app.url}/checkout/api${route}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { error?: string; data?: Record<string, unknown> } };
    };
    await post('/otp/send', {});
    expect((await post('/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    const offer = { signatureFullName: 'Amaka', documentReference: loan.documentReference, agreed: true };
    expect((await post('/offer/accept', offer)).body.error).toBe('signature_name_unconfirmed');
    expect((await post('/offer/accept', { ...offer, confirmSignatureName: true })).status).toBe(200);
    const account = { bankCode: '058', accountNumber: nuban('058', '777777777') };
    expect((await post('/bank-account', account)).body.error).toBe('account_name_mismatch');
    const kept = await post('/bank-account', { ...account, confirmNameMismatch: true });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ nameConfirmed: true });
  });
});
