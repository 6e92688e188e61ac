import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DojahBvnIdentity } from '../../server/integrations/dojah/dojah-bvn-identity';
import { DojahClient, type DojahClientOptions } from '../../server/integrations/dojah/dojah-http';
import { ProviderError } from '../../server/integrations/provider-http';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';
import { providerRejection } from '../support/provider-errors';

const APP_ID = 'app_fake_1';
const SECRET = 'test_sk_fake_secret';
const BVN = '22123456789';
const UNKNOWN_BVN = '22999999999';

let fake: FakeDojah;

function identity(options: Partial<DojahClientOptions> = {}) {
  const client = new DojahClient({ appId: APP_ID, secretKey: SECRET, mode: 'live', baseUrl: fake.url, timeoutMs: 2000, initialDelayMs: 5, maxDelayMs: 20, ...options });
  return { client, adapter: new DojahBvnIdentity(client) };
}

const request = (overrides: Partial<{ bvn: string; firstName: string; lastName: string; dateOfBirth: string }> = {}) => ({
  bvn: BVN,
  firstName: 'Adaeze',
  lastName: 'Okonkwo',
  dateOfBirth: '1990-04-12',
  mode: 'live' as const,
  ...overrides,
});

const rejection = providerRejection;

beforeEach(async () => {
  fake = await startFakeDojah({ appId: APP_ID, secretKey: SECRET });
  fake.seedBvn(BVN, { firstName: 'ADAEZE', lastName: 'OKONKWO', dob: '1990-04-12' });
});
afterEach(async () => {
  await fake.close();
});

describe('DojahBvnIdentity (Validate BVN)', () => {
  it('when the name and date of birth match the registry, then match, sending both headers and every field', async () => {
    const { adapter } = identity();

    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'match' });

    const [sent] = fake.requests;
    expect(sent?.path).toBe('/api/v1/kyc/bvn');
    expect(sent?.query).toEqual({ bvn: BVN, first_name: 'Adaeze', last_name: 'Okonkwo', dob: '1990-04-12' });
    expect(sent?.headers.appid).toBe(APP_ID);
    expect(sent?.headers.authorization).toBe(SECRET);
  });

  it('when the date of birth differs, then mismatch on date_of_birth only', async () => {
    const { adapter } = identity();
    await expect(adapter.match(request({ dateOfBirth: '1991-04-12' }))).resolves.toEqual({ outcome: 'mismatch', fields: ['date_of_birth'] });
  });

  it('when the last name is another one, then mismatch on name', async () => {
    const { adapter } = identity();
    await expect(adapter.match(request({ lastName: 'Bello' }))).resolves.toEqual({ outcome: 'mismatch', fields: ['name'] });
  });

  it('when both differ, then mismatch on both fields', async () => {
    const { adapter } = identity();
    await expect(adapter.match(request({ firstName: 'Chidi', dateOfBirth: '1980-01-01' }))).resolves.toEqual({
      outcome: 'mismatch',
      fields: ['name', 'date_of_birth'],
    });
  });

  it('when Dojah says status true but the confidence is under 90, then the adapter still answers mismatch', async () => {
    // "OKONKWOO" vs "OKONKWO": similarity 88 — the fake's own verdict (>= 80) is true, the adapter's threshold is not met.
    const { adapter } = identity();
    await expect(adapter.match(request({ lastName: 'Okonkwoo' }))).resolves.toEqual({ outcome: 'mismatch', fields: ['name'] });
  });

  it('when a one-letter typo keeps the confidence at or above 90, then match', async () => {
    // One letter missing from a 14-letter name: similarity 93.
    fake.seedBvn('22100000001', { firstName: 'OLUWASEUNFUNMI', lastName: 'ADEBAYO', dob: '1985-02-02' });
    const { adapter } = identity();
    await expect(adapter.match(request({ bvn: '22100000001', firstName: 'Oluwaseunfumi', lastName: 'Adebayo', dateOfBirth: '1985-02-02' }))).resolves.toEqual({
      outcome: 'match',
    });
  });

  it('when the BVN is unknown (400 "BVN not found"), then not_found', async () => {
    const { adapter } = identity();
    await expect(adapter.match(request({ bvn: UNKNOWN_BVN }))).resolves.toEqual({ outcome: 'not_found' });
  });

  it('when Dojah answers 200 with bvn.status false, then not_found', async () => {
    fake.failNext(1, 200, { entity: { bvn: { value: BVN, status: false } } });
    const { adapter } = identity();
    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'not_found' });
  });

  it('when the answer has no verdict for a field that was sent, then it throws instead of matching', async () => {
    fake.failNext(1, 200, { entity: { bvn: { value: BVN, status: true }, first_name: { confidence_value: 100, status: true }, date_of_birth: { status: true } } });
    const { adapter } = identity();
    const error = await rejection(adapter.match(request()));
    expect(error.code).toBe('dojah_incomplete_answer');
  });

  it('when the BVN is malformed (400 "Invalid BVN"), then a non-retryable dojah_bad_request, sent once', async () => {
    const { adapter } = identity();
    const error = await rejection(adapter.match(request({ bvn: '123' })));
    expect(error).toMatchObject({ code: 'dojah_bad_request', httpStatus: 400, retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it('when the date of birth is not YYYY-MM-DD, then it throws before calling Dojah', async () => {
    const { adapter } = identity();
    await rejection(adapter.match(request({ dateOfBirth: '12/04/1990' })));
    expect(fake.requests).toHaveLength(0);
  });

  it('when the secret key is wrong, then 401 becomes dojah_unauthorized, not retried and not counted against the circuit', async () => {
    const { adapter, client } = identity({ secretKey: 'test_sk_wrong', breakerThreshold: 1 });
    const error = await rejection(adapter.match(request()));
    expect(error).toMatchObject({ code: 'dojah_unauthorized', httpStatus: 401, retryable: false });
    expect(fake.requests).toHaveLength(1);
    expect(client.circuitState).toBe('closed');
  });

  it('when the wallet is empty (402), then dojah_payment_required', async () => {
    fake.failNext(1, 402, { error: 'Insufficient balance' });
    const { adapter } = identity();
    expect((await rejection(adapter.match(request()))).code).toBe('dojah_payment_required');
  });

  it("when Dojah's upstream fails (424) on every attempt, then dojah_upstream_failed is thrown (the registry could not be asked)", async () => {
    fake.failNext(2, 424, { error: 'Third party service failure' });
    const { adapter } = identity({ maxAttempts: 2 });
    expect((await rejection(adapter.match(request()))).code).toBe('dojah_upstream_failed');
    expect(fake.requests).toHaveLength(2);
  });

  it("when Dojah's upstream fails once (424, an outage, not an answer), then the lookup is retried and matches", async () => {
    fake.failNext(1, 424, { error: 'Third party service failure' });
    const { adapter } = identity({ maxAttempts: 2 });
    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'match' });
    expect(fake.requests).toHaveLength(2);
  });

  it('when the base URL is wrong (bare 404), then it throws rather than answering not_found', async () => {
    const { adapter } = identity({ baseUrl: `${fake.url}/wrong-prefix` });
    const error = await rejection(adapter.match(request()));
    expect(error.code).toBe('dojah_http_404');
  });

  it('when Dojah fails twice then answers, then the lookup is retried and matches', async () => {
    fake.failNext(2, 503);
    const { adapter } = identity({ maxAttempts: 3 });
    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'match' });
    expect(fake.requests).toHaveLength(3);
  });

  it('when every attempt fails, then a retryable dojah_server_error after maxAttempts requests', async () => {
    fake.failNext(3, 500);
    const { adapter } = identity({ maxAttempts: 3 });
    const error = await rejection(adapter.match(request()));
    expect(error).toMatchObject({ code: 'dojah_server_error', retryable: true });
    expect(fake.requests).toHaveLength(3);
  });

  it('when Dojah answers later than the timeout, then provider_timeout after one attempt (maxAttempts 1)', async () => {
    fake.delayNext(800);
    const { adapter } = identity({ timeoutMs: 150, maxAttempts: 1 });
    const error = await rejection(adapter.match(request()));
    expect(error).toMatchObject({ code: 'provider_timeout', retryable: true });
  });

  it('when the first attempt times out, then the retry answers (a lookup is safe to repeat)', async () => {
    fake.delayNext(1500);
    const { adapter } = identity({ timeoutMs: 400, maxAttempts: 2 });
    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'match' });
    expect(fake.requests).toHaveLength(2);
  });

  it('when the answer is not JSON, then provider_bad_response', async () => {
    fake.malformedNext();
    const { adapter } = identity({ maxAttempts: 1 });
    expect((await rejection(adapter.match(request()))).code).toBe('provider_bad_response');
  });

  it('when Dojah keeps failing, then the circuit opens (nothing sent) and closes again after halfOpenAfterMs', async () => {
    fake.failNext(2, 500);
    const { adapter, client } = identity({ maxAttempts: 1, breakerThreshold: 2, halfOpenAfterMs: 200 });
    await rejection(adapter.match(request()));
    await rejection(adapter.match(request()));
    expect(client.circuitState).toBe('open');

    const open = await rejection(adapter.match(request()));
    expect(open.code).toBe('provider_circuit_open');
    expect(fake.requests).toHaveLength(2);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(adapter.match(request())).resolves.toEqual({ outcome: 'match' });
    expect(client.circuitState).toBe('closed');
  });

  it('when any call fails, then no error message carries the BVN, the names or the secret key', async () => {
    const { adapter } = identity({ maxAttempts: 1, timeoutMs: 100 });
    const failures: ProviderError[] = [];
    fake.failNext(1, 400, { error: `BVN ${BVN} is invalid for ADAEZE OKONKWO` });
    failures.push(await rejection(adapter.match(request())));
    fake.failNext(1, 500, { error: `upstream failed for ${BVN}` });
    failures.push(await rejection(adapter.match(request())));
    fake.delayNext(400);
    failures.push(await rejection(adapter.match(request())));
    fake.malformedNext();
    failures.push(await rejection(adapter.match(request())));
    failures.push(await rejection(identity({ secretKey: 'wrong_key', maxAttempts: 1 }).adapter.match(request())));

    for (const error of failures) {
      for (const secret of [BVN, 'ADAEZE', 'Adaeze', 'OKONKWO', 'Okonkwo', SECRET, 'wrong_key']) expect(error.message).not.toContain(secret);
    }
  });

  it('when a test-mode request reaches the live client, then it refuses without calling Dojah', async () => {
    const { adapter } = identity();
    await expect(adapter.match({ ...request(), mode: 'test' })).rejects.toThrow(/live-mode Dojah client was given a test-mode request/);
    expect(fake.requests).toHaveLength(0);
  });
});
