import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import type { FakePaystack } from '../support/fakes/paystack-fake';
import type { FakeTermii } from '../support/fakes/termii-fake';
import { liveLendingTenant, startLiveProviders, type LiveProviders } from '../support/live-providers';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import type { LendingTenant } from '../support/lifecycle';
import { mintSession, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';

/**
 * The borrower's checkout in live mode, every outside call through a real adapter against a local
 * fake: the code by Termii, the account name by Paystack's `/bank/resolve`, the direct debit on
 * Paystack's page (approved, or refused and tried again), and nothing in the sandbox inbox or rails.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let providers: LiveProviders;
let paystack: FakePaystack;
let termii: FakeTermii;
const account = { bankCode: '058', accountNumber: `200000000${nubanCheckDigit('058', '200000000')}` };

beforeAll(async () => {
  providers = await startLiveProviders({ paystack: { accounts: { [`${account.bankCode}:${account.accountNumber}`]: 'OBI ADA' } } });
  ({ paystack, termii } = providers);
  app = await startTestApp({ clock, env: providers.env });
  providers.connect(app);
  tenant = await liveLendingTenant(app, clock.now());
});
afterAll(async () => {
  await app?.stop();
  await providers?.close();
});

async function liveCheckout() {
  const phone = uniquePhone();
  const live = client(app, tenant.live);
  const pushed = await live.post('/v1/preapprovals', pushBody({ phone }));
  const issued = await live.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.body.data.status).toBe('awaiting_acceptance');
  const session = await mintSession(app, tenant.live, issued.body.data.id);
  return { phone, loan: issued.body.data, checkout: sessionClient(app, tokenOf(session.url)) };
}

const codeTextedTo = (phone: string) => {
  const message = termii.messages.filter((m) => m.to === phone.replace(/^\+/, '')).at(-1);
  return /#(\d{6})\s*$/.exec(message?.sms ?? '')?.[1];
};

async function readyForMandate() {
  const ready = await liveCheckout();
  expect((await ready.checkout.post('/v1/checkout/otp/send')).status).toBe(200);
  const code = codeTextedTo(ready.phone);
  expect(code).toMatch(/^\d{6}$/);
  expect((await ready.checkout.post('/v1/checkout/otp/verify', { code })).status).toBe(200);
  const resolved = await ready.checkout.post('/v1/checkout/bank-account/resolve', account);
  expect(resolved.status).toBe(200);
  expect(resolved.body.data.accountName).toBe('OBI ADA');
  expect((await ready.checkout.post('/v1/checkout/bank-account', account)).status).toBe(200);
  const signed = await ready.checkout.post('/v1/checkout/accept', {
    signatureFullName: 'Ada Obi',
    documentReference: ready.loan.documentReference,
    ipAddress: '102.89.34.7',
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
  });
  expect(signed.status).toBe(200);
  return ready;
}

describe('a live checkout through real provider adapters (fake Termii, Paystack, Dojah)', () => {
  it('the code arrives by Termii on the DND route from the sender id, and nothing lands in the sandbox inbox', async () => {
    const { phone, checkout } = await liveCheckout();
    expect((await checkout.post('/v1/checkout/otp/send')).status).toBe(200);
    const message = termii.messages.at(-1)!;
    expect(message).toMatchObject({ to: phone.replace(/^\+/, ''), from: 'Lending', channel: 'dnd', type: 'plain' });
    expect(message.sms).toMatch(/#\d{6}$/);
    const db = app.platform.db;
    expect(Number((await db.selectFrom('sandboxSms').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
  });

  it('when Termii refuses (no balance), then 502 sms_unavailable and the borrower can try again once it is topped up', async () => {
    const { phone, checkout } = await liveCheckout();
    termii.setBalance(0);
    const refused = await checkout.post('/v1/checkout/otp/send');
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('sms_unavailable');
    expect(JSON.stringify(refused.body)).not.toContain(phone.slice(-7));
    termii.setBalance(100);
    clock.advance(31_000);
    expect((await checkout.post('/v1/checkout/otp/send')).status).toBe(200);
  });

  it('OTP → bank account named by Paystack → signature → Paystack mandate page approved → active, and the state moves on', async () => {
    const { checkout } = await readyForMandate();
    const mandate = await checkout.post('/v1/checkout/mandate', { email: 'ada@example.com' });
    expect(mandate.status).toBe(201);
    const authorizationUrl = mandate.body.data.authorizationUrl as string;
    expect(authorizationUrl.startsWith(paystack.url)).toBe(true);
    // Called without a return address (the hosted checkout's own server sets one): Paystack's page ends on "you can close this page".
    const back = await fetch(`${authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(back.status).toBe(200);
    const activated = await checkout.post('/v1/checkout/mandate/activate');
    expect(activated.status).toBe(200);
    expect(activated.body.data.status ?? activated.body.data.mandate?.status).toBe('active');
    const state = (await checkout.get('/v1/checkout/session')).body.data;
    expect(state.mandate).toMatchObject({ status: 'active' });
    const init = paystack.state.requests.find((r) => r.path === '/customer/authorization/initialize' && (r.body as { email?: string }).email === 'ada@example.com');
    expect(init?.body).toMatchObject({ channel: 'direct_debit', account: { number: account.accountNumber, bank_code: '058' } });
  });

  it('when the borrower declines on Paystack\'s page, then activation answers mandate_declined and a new mandate can be set up and approved', async () => {
    const { checkout } = await readyForMandate();
    const first = (await checkout.post('/v1/checkout/mandate', { email: 'ada@example.com' })).body.data;
    expect((await fetch(`${first.authorizationUrl}/decline`, { method: 'POST', redirect: 'manual' })).status).toBeLessThan(400);
    const refused = await checkout.post('/v1/checkout/mandate/activate');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('mandate_declined');
    const retry = await checkout.post('/v1/checkout/mandate', { email: 'ada@example.com' });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).not.toBe(first.id);
    await fetch(`${retry.body.data.authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect((await checkout.post('/v1/checkout/mandate/activate')).status).toBe(200);
  });

  it('when Paystack cannot name the account, then 422 account_not_found and nothing is saved', async () => {
    const { phone, checkout } = await liveCheckout();
    await checkout.post('/v1/checkout/otp/send');
    await checkout.post('/v1/checkout/otp/verify', { code: codeTextedTo(phone) });
    const unknown = { bankCode: '058', accountNumber: `999999999${nubanCheckDigit('058', '999999999')}` };
    const res = await checkout.post('/v1/checkout/bank-account/resolve', unknown);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('account_not_found');
    expect((await checkout.get('/v1/checkout/session')).body.data.bankAccount ?? null).toBeNull();
  });
});
