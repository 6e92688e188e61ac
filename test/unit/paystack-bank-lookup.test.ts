import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NIGERIAN_BANKS } from '../../server/integrations/banks';
import { ProviderError } from '../../server/integrations/provider-http';
import { PaystackBankLookup } from '../../server/integrations/paystack/paystack-bank-lookup';
import { PaystackHttp, type PaystackHttpOptions } from '../../server/integrations/paystack/paystack-http';
import { startFakePaystack, type FakePaystack } from '../support/fakes/paystack-fake';

const KEY = 'sk_test_lookup_key_42';
let fake: FakePaystack;

beforeEach(async () => {
  fake = await startFakePaystack({ secretKey: KEY, accounts: { '058:0123456789': 'OKAFOR ADAEZE' } });
});
afterEach(async () => {
  await fake.close();
});

function makeLookup(http: Partial<PaystackHttpOptions> = {}, bankCodeFor?: (code: string) => string) {
  const client = new PaystackHttp({ secretKey: KEY, baseUrl: fake.url, timeoutMs: 300, maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20, breakerThreshold: 5, halfOpenAfterMs: 200, ...http });
  return { lookup: new PaystackBankLookup(client, { bankCodeFor }), client };
}

const resolves = () => fake.state.requests.filter((request) => request.path === '/bank/resolve');

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected a rejection');
}

describe('PaystackBankLookup', () => {
  it('lists the platform’s static bank list, not Paystack’s', () => {
    const { lookup } = makeLookup();
    expect(lookup.listBanks()).toBe(NIGERIAN_BANKS);
    expect(fake.state.requests).toHaveLength(0);
  });

  it('resolves an account to the name its bank holds', async () => {
    const { lookup } = makeLookup();
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' })).resolves.toEqual({ found: true, accountName: 'OKAFOR ADAEZE' });
    expect(resolves()).toHaveLength(1);
    expect(resolves()[0]?.query).toEqual({ account_number: '0123456789', bank_code: '058' });
  });

  it('answers found:false when Paystack cannot resolve the account (422), without retrying the answer', async () => {
    const { lookup } = makeLookup();
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '9999999990', mode: 'live' })).resolves.toEqual({ found: false });
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '12345', mode: 'live' })).resolves.toEqual({ found: false });
    expect(resolves()).toHaveLength(2);
  });

  it('throws (never found:false) when Paystack does not know the bank code: a mapping problem is not "no such account"', async () => {
    const { lookup } = makeLookup();
    const error = await failure(lookup.resolveAccount({ bankCode: '999', accountNumber: '0123456789', mode: 'live' }));
    expect(error.httpStatus).toBe(400);
    expect(error.retryable).toBe(false);
    expect(resolves()).toHaveLength(1);
  });

  it('sends Paystack’s bank code when a mapping is configured', async () => {
    const { lookup } = makeLookup({}, (code) => (code === '000013' ? '058' : code));
    await expect(lookup.resolveAccount({ bankCode: '000013', accountNumber: '0123456789', mode: 'live' })).resolves.toEqual({ found: true, accountName: 'OKAFOR ADAEZE' });
    expect(resolves()[0]?.query).toEqual({ account_number: '0123456789', bank_code: '058' });
  });

  it('throws (never found:false) on a wrong secret key, without the key or the full account number in the message', async () => {
    const { lookup } = makeLookup({ secretKey: 'sk_test_not_ours' });
    const error = await failure(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' }));
    expect(error.httpStatus).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain('sk_test_not_ours');
    expect(error.message).not.toContain('0123456789');
    expect(error.message).toContain('******6789');
    expect(resolves()).toHaveLength(1);
  });

  it('retries an outage and answers once Paystack recovers', async () => {
    const { lookup } = makeLookup();
    fake.failNext(2, 500);
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' })).resolves.toEqual({ found: true, accountName: 'OKAFOR ADAEZE' });
    expect(resolves()).toHaveLength(3);
  });

  it('throws a retryable ProviderError when the outage outlasts the retries', async () => {
    const { lookup } = makeLookup();
    fake.failNext(3, 502);
    const error = await failure(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' }));
    expect(error.httpStatus).toBe(502);
    expect(error.retryable).toBe(true);
    expect(resolves()).toHaveLength(3);
  });

  it('retries a timeout, and throws provider_timeout when it is not retried', async () => {
    const { lookup } = makeLookup();
    fake.delayNext(1_000);
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' })).resolves.toMatchObject({ found: true });

    const { lookup: once } = makeLookup({ maxAttempts: 1 });
    fake.delayNext(1_000);
    expect((await failure(once.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' }))).code).toBe('provider_timeout');
  });

  it('throws provider_bad_response on an unreadable answer (never found:false)', async () => {
    const { lookup } = makeLookup();
    fake.malformedNext();
    expect((await failure(lookup.resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' }))).code).toBe('provider_bad_response');
  });

  it('opens the circuit after consecutive faults and closes it again after halfOpenAfterMs', async () => {
    const { lookup, client } = makeLookup({ maxAttempts: 1, breakerThreshold: 2, halfOpenAfterMs: 200 });
    const request = { bankCode: '058', accountNumber: '0123456789', mode: 'live' as const };
    fake.failNext(2, 500);
    await failure(lookup.resolveAccount(request));
    await failure(lookup.resolveAccount(request));

    const open = await failure(lookup.resolveAccount(request));
    expect(open.code).toBe('provider_circuit_open');
    expect(resolves()).toHaveLength(2);
    expect(client.circuitState).toBe('open');

    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(lookup.resolveAccount(request)).resolves.toMatchObject({ found: true });
    expect(client.circuitState).toBe('closed');
  });
});
