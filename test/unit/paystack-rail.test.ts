import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentRailOutcomeUnknown } from '../../server/integrations/paystack/payment-rail-outcome-unknown';
import { PaystackHttp, type PaystackHttpOptions } from '../../server/integrations/paystack/paystack-http';
import { authorisationStatusOf, chargeStatusOf, PaystackRail, type PaystackRailOptions } from '../../server/integrations/paystack/paystack-rail';
import { PaymentRailError } from '../../server/integrations/rails/payment-rail-error';
import { startFakePaystack, type FakePaystack, type FakePaystackOptions } from '../support/fakes/paystack-fake';

const KEY = 'sk_test_0123456789abcdef';
const EMAIL = 'ada@example.com';
const CALLBACK = 'http://127.0.0.1:9/checkout/mandate/return';

let fake: FakePaystack;

async function startFake(options: Partial<FakePaystackOptions> = {}) {
  await fake?.close();
  fake = await startFakePaystack({ secretKey: KEY, ...options });
}

beforeEach(async () => {
  fake = await startFakePaystack({ secretKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

function makeRail(http: Partial<PaystackHttpOptions> = {}, options: PaystackRailOptions = {}) {
  const client = new PaystackHttp({ secretKey: KEY, baseUrl: fake.url, timeoutMs: 300, maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20, breakerThreshold: 5, halfOpenAfterMs: 200, ...http });
  return { rail: new PaystackRail('rail_a', client, { chargeEmail: () => EMAIL, ...options }), client };
}

const requestsTo = (path: string) => fake.state.requests.filter((request) => request.path.startsWith(path));

async function rejection(promise: Promise<unknown>): Promise<PaymentRailError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentRailError);
    return error as PaymentRailError;
  }
  throw new Error('expected a rejection');
}

/** A mandate the borrower approved on the fake's page: active, with an authorisation code. */
async function activeMandate(rail: PaystackRail) {
  const { providerReference } = await rail.initialiseAuthorisation({ reference: 'mandate-1', email: EMAIL, accountNumber: '0123456789', bankCode: '058', amountKobo: 5_000_000, callbackUrl: CALLBACK });
  await fake.approveAuthorisation(providerReference);
  const read = await rail.readAuthorisation(providerReference);
  return { providerReference, authorizationCode: read.authorizationCode! };
}

describe('PaystackRail: authorisation', () => {
  it('initialises a direct-debit authorisation with the account and callback, and answers the hosted page and Paystack reference', async () => {
    const { rail } = makeRail();
    const result = await rail.initialiseAuthorisation({ reference: 'mandate-1', email: EMAIL, accountNumber: '0123456789', bankCode: '058', amountKobo: 5_000_000, callbackUrl: CALLBACK });

    const [sent] = requestsTo('/customer/authorization/initialize');
    expect(sent?.body).toEqual({ email: EMAIL, channel: 'direct_debit', callback_url: CALLBACK, account: { number: '0123456789', bank_code: '058' } });
    expect(result.authorizationUrl).toBe(fake.authorisationUrl(result.providerReference));
    expect(fake.state.authorisations.get(result.providerReference)?.status).toBe('pending');
    await expect(rail.readAuthorisation(result.providerReference)).resolves.toEqual({ status: 'pending', authorizationCode: null });
  });

  it('leaves the account out when the platform does not know it yet, and maps bank codes through bankCodeFor', async () => {
    const { rail } = makeRail({}, { bankCodeFor: (code) => (code === '090267' ? '50211' : code) });
    await rail.initialiseAuthorisation({ reference: 'r1', email: EMAIL, amountKobo: 100_00 });
    await rail.initialiseAuthorisation({ reference: 'r2', email: EMAIL, accountNumber: '0123456789', bankCode: '090267', amountKobo: 100_00 });
    const [first, second] = requestsTo('/customer/authorization/initialize');
    expect(first?.body).toEqual({ email: EMAIL, channel: 'direct_debit' });
    expect((second?.body as { account: unknown }).account).toEqual({ number: '0123456789', bank_code: '50211' });
  });

  it('walks the hosted page: Approve redirects (303) to the callback with the reference, and the mandate reads active with a code', async () => {
    const { rail } = makeRail();
    const { authorizationUrl, providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: EMAIL, accountNumber: '0123456789', bankCode: '058', amountKobo: 100_00, callbackUrl: CALLBACK });

    const page = await fetch(authorizationUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    const approveAction = html.match(/action="([^"]+\/approve)"/)?.[1];
    expect(approveAction).toBeDefined();
    expect(html).toContain('••••6789');
    expect(html).not.toContain('0123456789');

    const answer = await fetch(new URL(approveAction!, fake.url), { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('reference')).toBe(providerReference);

    const read = await rail.readAuthorisation(providerReference);
    expect(read.status).toBe('active');
    expect(read.authorizationCode).toMatch(/^AUTH_/);
  });

  it('walks the hosted page: Decline redirects to the callback and the authorisation reads refused, without a code', async () => {
    const { rail } = makeRail();
    const { authorizationUrl, providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: EMAIL, amountKobo: 100_00, callbackUrl: CALLBACK });
    const html = await (await fetch(authorizationUrl)).text();
    const declineAction = html.match(/action="([^"]+\/decline)"/)![1]!;

    const answer = await fetch(new URL(declineAction, fake.url), { method: 'POST', redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!).searchParams.get('reference')).toBe(providerReference);
    await expect(rail.readAuthorisation(providerReference)).resolves.toEqual({ status: 'refused', authorizationCode: null });
  });

  it('reads a mandate Paystack created but the bank has not confirmed as approved (not chargeable), then active once confirmed', async () => {
    await startFake({ activateOnApprove: false });
    const { rail } = makeRail();
    const { providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: EMAIL, amountKobo: 100_00 });
    await fake.approveAuthorisation(providerReference);
    await expect(rail.readAuthorisation(providerReference)).resolves.toEqual({ status: 'approved', authorizationCode: null });

    await fake.activateAuthorisation(providerReference);
    const read = await rail.readAuthorisation(providerReference);
    expect(read.status).toBe('active');
    expect(read.authorizationCode).toBe(fake.state.authorisations.get(providerReference)!.authorizationCode);
  });

  it('maps Paystack authorisation answers: only active with a code is active', () => {
    expect(authorisationStatusOf({ active: true, authorization_code: 'AUTH_x' })).toBe('active');
    expect(authorisationStatusOf({ active: true, authorization_code: null })).toBe('pending');
    expect(authorisationStatusOf({ active: false, authorization_code: 'AUTH_x' })).toBe('approved');
    expect(authorisationStatusOf({ active: false, authorization_code: 'AUTH_x', status: 'revoked' })).toBe('cancelled');
    expect(authorisationStatusOf({ active: true, authorization_code: 'AUTH_x', status: 'revoked' })).toBe('cancelled');
    expect(authorisationStatusOf({ active: false, authorization_code: null, status: 'declined' })).toBe('refused');
  });

  it('answers authorisation_not_found (not retryable) for a reference Paystack does not know', async () => {
    const { rail } = makeRail();
    const error = await rejection(rail.readAuthorisation('no-such-reference'));
    expect(error.code).toBe('authorisation_not_found');
    expect(error.retryable).toBe(false);
    expect(requestsTo('/customer/authorization/verify')).toHaveLength(1);
  });

  it('refuses on a wrong secret key (401, not retried), without putting the key in the message', async () => {
    const { rail } = makeRail({ secretKey: 'sk_test_wrong_key' });
    const error = await rejection(rail.initialiseAuthorisation({ reference: 'm', email: EMAIL, amountKobo: 100_00 }));
    expect(error.httpStatus).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Invalid key');
    expect(error.message).not.toContain('sk_test_wrong_key');
    expect(fake.state.requests).toHaveLength(1);
  });

  it('refuses a missing e-mail with Paystack validation error code', async () => {
    const { rail } = makeRail();
    const error = await rejection(rail.initialiseAuthorisation({ reference: 'm', email: '', amountKobo: 100_00 }));
    expect(error.code).toBe('missing_params');
    expect(error.httpStatus).toBe(400);
  });

  it('cancels an active mandate by reading its code back and deactivating it; a later charge is refused', async () => {
    const { rail } = makeRail();
    const { providerReference, authorizationCode } = await activeMandate(rail);

    await rail.cancel(providerReference);

    expect(requestsTo('/customer/authorization/deactivate').map((request) => request.body)).toEqual([{ authorization_code: authorizationCode }]);
    await expect(rail.readAuthorisation(providerReference)).resolves.toEqual({ status: 'cancelled', authorizationCode: null });
    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'after-cancel' }));
    expect(error.httpStatus).toBe(400);
    expect(error).not.toBeInstanceOf(PaymentRailOutcomeUnknown);
  });

  it('cancels a never-approved authorisation without calling deactivate (there is no code to deactivate)', async () => {
    const { rail } = makeRail();
    const { providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: EMAIL, amountKobo: 100_00 });
    await rail.cancel(providerReference);
    expect(requestsTo('/customer/authorization/deactivate')).toHaveLength(0);
  });
});

describe('PaystackRail: charges', () => {
  it('starts a charge with our reference, amount in kobo and the e-mail, answers processing, then reads the settlement back', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);

    await expect(rail.charge({ authorizationCode, amountKobo: 1_234_500, reference: 'loan-7.instalment-1' })).resolves.toEqual({ status: 'processing', chargeReference: 'loan-7.instalment-1' });
    expect(requestsTo('/transaction/charge_authorization')[0]?.body).toEqual({ email: EMAIL, amount: '1234500', authorization_code: authorizationCode, reference: 'loan-7.instalment-1', currency: 'NGN' });
    await expect(rail.readCharge('loan-7.instalment-1')).resolves.toEqual({ status: 'processing', failureReason: null });

    await fake.settleCharge('loan-7.instalment-1', 'success');
    await expect(rail.readCharge('loan-7.instalment-1')).resolves.toEqual({ status: 'succeeded', failureReason: null });
  });

  it('reads a failed debit with Paystack gateway response as the reason', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' });
    await fake.settleCharge('c1', 'failed');
    await expect(rail.readCharge('c1')).resolves.toEqual({ status: 'failed', failureReason: 'Insufficient Funds' });
  });

  it.each([
    ['abandoned', { status: 'failed', failureReason: 'abandoned' }],
    ['reversed', { status: 'failed', failureReason: 'reversed' }],
    ['ongoing', { status: 'processing', failureReason: null }],
    ['queued', { status: 'processing', failureReason: null }],
    ['pending', { status: 'processing', failureReason: null }],
  ] as const)('maps a %s transaction', async (paystackStatus, expected) => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' });
    fake.state.transactions.get('c1')!.status = paystackStatus;
    await expect(rail.readCharge('c1')).resolves.toEqual(expected);
  });

  it('reads a transaction status it does not know as processing, never as settled', () => {
    expect(chargeStatusOf('send_birthday')).toEqual({ status: 'processing', known: false });
    expect(chargeStatusOf('SUCCESS')).toEqual({ status: 'succeeded', known: true });
  });

  it('takes the e-mail from the request before the lookup, and refuses to send a charge without one', async () => {
    const { rail } = makeRail({}, { chargeEmail: () => null });
    const { authorizationCode } = await activeMandate(rail);

    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'no-email' }));
    expect(error.code).toBe('paystack_email_required');
    expect(requestsTo('/transaction/charge_authorization')).toHaveLength(0);

    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'with-email', email: EMAIL });
    expect((requestsTo('/transaction/charge_authorization')[0]?.body as { email: string }).email).toBe(EMAIL);
  });

  it('refuses an e-mail that does not match the authorisation as a plain refusal (the debit certainly did not happen)', async () => {
    const { rail } = makeRail({}, { chargeEmail: () => 'someone-else@example.com' });
    const { authorizationCode } = await activeMandate(rail);
    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' }));
    expect(error).not.toBeInstanceOf(PaymentRailOutcomeUnknown);
    expect(error.httpStatus).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Email does not match Authorization code');
    expect(fake.state.transactions.size).toBe(0);
  });

  it('checks the amount and the reference before sending anything', async () => {
    const { rail } = makeRail();
    expect((await rejection(rail.charge({ authorizationCode: 'AUTH_x', amountKobo: 10.5, reference: 'c1' }))).code).toBe('invalid_amount');
    expect((await rejection(rail.charge({ authorizationCode: 'AUTH_x', amountKobo: 0, reference: 'c1' }))).code).toBe('invalid_amount');
    expect((await rejection(rail.charge({ authorizationCode: 'AUTH_x', amountKobo: 100, reference: 'has space' }))).code).toBe('invalid_reference');
    expect(fake.state.requests).toHaveLength(0);
  });

  it('treats the same reference sent twice as the same charge: Paystack refuses the duplicate and the adapter answers processing', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' });
    await expect(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' })).resolves.toEqual({ status: 'processing', chargeReference: 'c1' });
    expect(requestsTo('/transaction/charge_authorization')).toHaveLength(2);
    expect(fake.state.transactions.size).toBe(1);
  });

  it('does not retry a charge that timed out: the outcome is unknown, and reading it back by reference finds the debit', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    fake.delayNext(1_000);

    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c-timeout' }));

    expect(error).toBeInstanceOf(PaymentRailOutcomeUnknown);
    expect(error.code).toBe('rail_timeout');
    expect((error as PaymentRailOutcomeUnknown).reference).toBe('c-timeout');
    expect((error as PaymentRailOutcomeUnknown).outcomeUnknown).toBe(true);
    expect(error.retryable).toBe(false);
    expect(requestsTo('/transaction/charge_authorization')).toHaveLength(1);
    await expect(rail.readCharge('c-timeout')).resolves.toEqual({ status: 'processing', failureReason: null });
  });

  it('does not retry a charge answered 500: the outcome is unknown, and reading back says Paystack has no such transaction', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    fake.failNext(1, 500);

    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c-500' }));
    expect(error).toBeInstanceOf(PaymentRailOutcomeUnknown);
    expect(error.httpStatus).toBe(500);
    expect(requestsTo('/transaction/charge_authorization')).toHaveLength(1);

    const readBack = await rejection(rail.readCharge('c-500'));
    expect(readBack.code).toBe('charge_not_found_at_provider');
    expect(readBack.retryable).toBe(false);
    expect(readBack).not.toBeInstanceOf(PaymentRailOutcomeUnknown);
  });

  it('treats an unreadable 200 answer to a charge as an unknown outcome', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    fake.malformedNext();
    const error = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' }));
    expect(error).toBeInstanceOf(PaymentRailOutcomeUnknown);
    expect(error.code).toBe('rail_bad_response');
  });

  it('retries a read that failed (500, 502) and answers once Paystack recovers', async () => {
    const { rail } = makeRail();
    const { authorizationCode } = await activeMandate(rail);
    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' });
    fake.failNext(1, 500);
    fake.failNext(1, 502);
    const before = requestsTo('/transaction/verify').length;

    await expect(rail.readCharge('c1')).resolves.toEqual({ status: 'processing', failureReason: null });
    expect(requestsTo('/transaction/verify').length - before).toBe(3);
  });

  it('retries a read that timed out, and reports rail_timeout (retryable) when it is not retried', async () => {
    const { rail } = makeRail();
    const { providerReference } = await activeMandate(rail);
    fake.delayNext(1_000);
    await expect(rail.readAuthorisation(providerReference)).resolves.toMatchObject({ status: 'active' });

    const { rail: once } = makeRail({ maxAttempts: 1 });
    fake.delayNext(1_000);
    const error = await rejection(once.readAuthorisation(providerReference));
    expect(error.code).toBe('rail_timeout');
    expect(error.retryable).toBe(true);
    expect(error).not.toBeInstanceOf(PaymentRailOutcomeUnknown);
  });

  it('opens the circuit after consecutive faults (nothing sent while open) and closes it after halfOpenAfterMs', async () => {
    const { rail, client } = makeRail({ maxAttempts: 1, breakerThreshold: 2, halfOpenAfterMs: 200 });
    const { authorizationCode } = await activeMandate(rail);
    await rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c1' });
    fake.failNext(2, 503);

    expect((await rejection(rail.readCharge('c1'))).httpStatus).toBe(503);
    expect((await rejection(rail.readCharge('c1'))).httpStatus).toBe(503);
    const sent = fake.state.requests.length;
    const open = await rejection(rail.readCharge('c1'));
    expect(open.code).toBe('rail_circuit_open');
    expect(open.retryable).toBe(true);
    expect(client.circuitState).toBe('open');
    // A charge behind an open circuit was certainly not sent: a plain error, not an unknown outcome.
    const charge = await rejection(rail.charge({ authorizationCode, amountKobo: 100_00, reference: 'c2' }));
    expect(charge.code).toBe('rail_circuit_open');
    expect(charge).not.toBeInstanceOf(PaymentRailOutcomeUnknown);
    expect(fake.state.requests.length).toBe(sent);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(rail.readCharge('c1')).resolves.toEqual({ status: 'processing', failureReason: null });
    expect(client.circuitState).toBe('closed');
  });

  it('does not count refusals against the circuit', async () => {
    const { rail, client } = makeRail({ maxAttempts: 1, breakerThreshold: 2 });
    for (const reference of ['x1', 'x2', 'x3']) expect((await rejection(rail.readCharge(reference))).code).toBe('charge_not_found_at_provider');
    expect(client.circuitState).toBe('closed');
  });
});
