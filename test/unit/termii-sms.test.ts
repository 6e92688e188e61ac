import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../server/integrations/provider-http';
import { TermiiSms, termiiErrorOf, type TermiiSmsOptions } from '../../server/integrations/termii/termii-sms';
import { startFakeTermii, type FakeTermii } from '../support/fakes/termii-fake';
import { providerRejection } from '../support/provider-errors';

const API_KEY = 'TLfakeTermiiKey123';
const PHONE = '+2348031234567';
const CODE_TEXT = 'Your Clinic code is 482913. It expires in 10 minutes.';

let fake: FakeTermii;

function sms(options: Partial<TermiiSmsOptions> = {}) {
  return new TermiiSms({ apiKey: API_KEY, senderId: 'Clinic', baseUrl: fake.url, timeoutMs: 2000, ...options });
}

const message = (overrides: Partial<{ to: string; body: string; mode: 'test' | 'live' }> = {}) => ({ to: PHONE, body: CODE_TEXT, mode: 'live' as const, ...overrides });

const rejection = providerRejection;

beforeEach(async () => {
  fake = await startFakeTermii({ apiKey: API_KEY, senderIds: ['Clinic'], balance: 10 });
});
afterEach(async () => {
  await fake.close();
});

describe('TermiiSms', () => {
  it('when Termii accepts, then one plain text on the dnd route to the number without "+"', async () => {
    await sms().send(message());
    expect(fake.messages).toEqual([{ to: '2348031234567', from: 'Clinic', sms: CODE_TEXT, type: 'plain', channel: 'dnd' }]);
  });

  it('when configured for the generic route, then the text goes on it', async () => {
    await sms({ channel: 'generic' }).send(message());
    expect(fake.messages[0]?.channel).toBe('generic');
  });

  it('when the API key is wrong, then termii_unauthorized (401), sent once', async () => {
    const error = await rejection(sms({ apiKey: 'TLwrong' }).send(message()));
    expect(error).toMatchObject({ code: 'termii_unauthorized', httpStatus: 401, retryable: false, outcomeUnknown: false });
    expect(fake.requestCount).toBe(1);
    expect(fake.messages).toHaveLength(0);
  });

  it('when the sender ID is not registered, then termii_invalid_sender', async () => {
    const error = await rejection(sms({ senderId: 'Unknown' }).send(message()));
    expect(error).toMatchObject({ code: 'termii_invalid_sender', httpStatus: 404, retryable: false });
  });

  it('when the balance is used up, then termii_insufficient_balance', async () => {
    fake.setBalance(0);
    const error = await rejection(sms().send(message()));
    expect(error).toMatchObject({ code: 'termii_insufficient_balance', httpStatus: 400 });
  });

  it('when the account has no DND route, then termii_route_not_set_up', async () => {
    await fake.close();
    fake = await startFakeTermii({ apiKey: API_KEY, dndRoute: false });
    const error = await rejection(sms().send(message()));
    expect(error.code).toBe('termii_route_not_set_up');
  });

  it.each([
    [400, { message: 'Your account is not active' }, 'termii_account_inactive'],
    [400, { message: 'Your device has reached the daily limit' }, 'termii_daily_limit'],
    [403, { message: 'Forbidden' }, 'termii_forbidden'],
    [422, { message: 'Something else' }, 'termii_rejected'],
    [429, { message: 'Too Many Requests' }, 'termii_rate_limited'],
    [503, { message: 'Service Unavailable' }, 'termii_server_error'],
  ] as const)('when Termii answers %i %o, then %s', async (status, body, code) => {
    fake.failNext(1, status, body);
    const error = await rejection(sms().send(message()));
    expect(error).toMatchObject({ code, httpStatus: status });
    expect(fake.requestCount).toBe(1);
  });

  it('when Termii answers 200 with a code other than "ok", then termii_rejected', async () => {
    fake.failNext(1, 200, { code: 'failed', message: 'Not sent' });
    expect((await rejection(sms().send(message()))).code).toBe('termii_rejected');
  });

  it('when the answer is not JSON, then provider_bad_response', async () => {
    fake.malformedNext();
    expect((await rejection(sms().send(message()))).code).toBe('provider_bad_response');
  });

  it('when Termii fails with a 500, then it is not retried: exactly one request', async () => {
    fake.failNext(1, 500);
    const error = await rejection(sms().send(message()));
    expect(error).toMatchObject({ code: 'termii_server_error', retryable: true, outcomeUnknown: true });
    expect(fake.requestCount).toBe(1);
  });

  it('when Termii does not answer in time, then provider_timeout (outcome unknown) and the fake saw exactly one request', async () => {
    fake.delayNext(500);
    const error = await rejection(sms({ timeoutMs: 100 }).send(message()));
    expect(error).toMatchObject({ code: 'provider_timeout', outcomeUnknown: true });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fake.requestCount).toBe(1);
  });

  it('when sends keep failing, then the circuit opens (nothing sent) and closes again after halfOpenAfterMs', async () => {
    fake.failNext(2, 502);
    const sender = sms({ breakerThreshold: 2, halfOpenAfterMs: 200 });
    await rejection(sender.send(message()));
    await rejection(sender.send(message()));
    expect(sender.circuitState).toBe('open');

    expect((await rejection(sender.send(message()))).code).toBe('provider_circuit_open');
    expect(fake.requestCount).toBe(2);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await sender.send(message());
    expect(fake.messages).toHaveLength(1);
    expect(sender.circuitState).toBe('closed');
  });

  it('when refusals (4xx) repeat, then the circuit stays closed: a refusal is an answer, not an outage', async () => {
    const sender = sms({ apiKey: 'TLwrong', breakerThreshold: 2 });
    for (let i = 0; i < 3; i++) await rejection(sender.send(message()));
    expect(sender.circuitState).toBe('closed');
    expect(fake.requestCount).toBe(3);
  });

  it('when the number is not international, then termii_invalid_number before anything is sent', async () => {
    const error = await rejection(sms().send(message({ to: '0803' })));
    expect(error.code).toBe('termii_invalid_number');
    expect(fake.requestCount).toBe(0);
  });

  it('when a test-mode message reaches the live sender, then it is refused and nothing is sent', async () => {
    await expect(sms().send(message({ mode: 'test' }))).rejects.toThrow(/does not send test-mode messages/);
    expect(fake.requestCount).toBe(0);
  });

  it('when any send fails, then no error message carries the phone number, the text or the API key', async () => {
    const failures: ProviderError[] = [];
    fake.failNext(1, 400, { message: `Invalid number 2348031234567 for message "${CODE_TEXT}"` });
    failures.push(await rejection(sms().send(message())));
    failures.push(await rejection(sms({ apiKey: 'TLwrong' }).send(message())));
    fake.delayNext(300);
    failures.push(await rejection(sms({ timeoutMs: 80 }).send(message())));
    fake.failNext(1, 500, { message: `upstream failed for +2348031234567` });
    failures.push(await rejection(sms().send(message())));
    failures.push(await rejection(sms().send(message({ to: '+234 803 12' }))));

    for (const error of failures) {
      for (const secret of ['2348031234567', '8031234567', '482913', CODE_TEXT, API_KEY, 'TLwrong']) expect(error.message).not.toContain(secret);
    }
  });
});

describe('termiiErrorOf', () => {
  it('when the body names the cause, then the code follows it and the message is ours', () => {
    expect(termiiErrorOf(404, { code: 404, message: 'Invalid Sender Id' })).toEqual({
      code: 'termii_invalid_sender',
      message: expect.stringContaining('TERMII_SENDER_ID'),
    });
    expect(termiiErrorOf(400, { message: 'Insufficient balance' }).code).toBe('termii_insufficient_balance');
    expect(termiiErrorOf(400, { message: 'You are not set up on this route' }).code).toBe('termii_route_not_set_up');
    expect(termiiErrorOf(400, 'not an object').code).toBe('termii_rejected');
  });
});
