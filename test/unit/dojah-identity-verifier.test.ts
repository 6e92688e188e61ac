import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DojahClient, type DojahClientOptions } from '../../server/integrations/dojah/dojah-http';
import { DojahIdentityVerifier } from '../../server/integrations/dojah/dojah-identity-verifier';
import { ProviderError } from '../../server/integrations/provider-http';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';
import { providerRejection } from '../support/provider-errors';

const APP_ID = 'app_fake_2';
const SECRET = 'prod_sk_fake_secret';
const BVN = '22111111111';
const NIN = '70123456789';

let fake: FakeDojah;

function verifier(options: Partial<DojahClientOptions> = {}) {
  const client = new DojahClient({ appId: APP_ID, secretKey: SECRET, mode: 'live', baseUrl: fake.url, timeoutMs: 2000, initialDelayMs: 5, maxDelayMs: 20, ...options });
  return { client, adapter: new DojahIdentityVerifier(client) };
}

const request = (overrides: Partial<{ bvn: string; nin: string; dateOfBirth: string }> = {}) => ({
  bvn: BVN,
  dateOfBirth: '1988-07-01',
  mode: 'live' as const,
  previousAttempts: 0,
  ...overrides,
});

const rejection = providerRejection;

beforeEach(async () => {
  fake = await startFakeDojah({ appId: APP_ID, secretKey: SECRET });
  fake.seedBvn(BVN, { firstName: 'TUNDE', lastName: 'BAKARE', dob: '1988-07-01' });
  fake.seedNin(NIN, { firstName: 'TUNDE', lastName: 'BAKARE', dob: '1988-07-01' });
});
afterEach(async () => {
  await fake.close();
});

describe('DojahIdentityVerifier (managed-tier KYC)', () => {
  it('when the BVN exists with this date of birth, then verified with one bvn document, the dob sent to Dojah', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request())).resolves.toEqual({ outcome: 'verified', documents: [{ type: 'bvn', status: 'verified' }] });
    expect(fake.requests[0]?.query).toEqual({ bvn: BVN, dob: '1988-07-01' });
  });

  it('when a NIN is given too and both match, then verified with both documents', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request({ nin: NIN }))).resolves.toEqual({
      outcome: 'verified',
      documents: [
        { type: 'bvn', status: 'verified' },
        { type: 'nin', status: 'verified' },
      ],
    });
    expect(fake.requests.map((r) => r.path).sort()).toEqual(['/api/v1/kyc/bvn', '/api/v1/kyc/nin']);
  });

  it('when the BVN is unknown, then failed', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request({ bvn: '22000000000' }))).resolves.toEqual({ outcome: 'failed', documents: [{ type: 'bvn', status: 'failed' }] });
  });

  it('when the date of birth differs from the BVN record, then failed', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request({ dateOfBirth: '1988-07-02' }))).resolves.toMatchObject({ outcome: 'failed' });
  });

  it('when the NIN is unknown (404 "NIN not found"), then failed even though the BVN verified', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request({ nin: '70000000000' }))).resolves.toEqual({
      outcome: 'failed',
      documents: [
        { type: 'bvn', status: 'verified' },
        { type: 'nin', status: 'failed' },
      ],
    });
  });

  it("when the NIN record's date of birth differs, then the nin document fails", async () => {
    fake.seedNin('70111111111', { firstName: 'TUNDE', lastName: 'BAKARE', dob: '1970-01-01' });
    const { adapter } = verifier();
    const result = await adapter.verify(request({ nin: '70111111111' }));
    expect(result.outcome).toBe('failed');
    expect(result.documents).toContainEqual({ type: 'nin', status: 'failed' });
  });

  it('when no date of birth is given, then an existing BVN verifies and the dob is not sent', async () => {
    const { adapter } = verifier();
    await expect(adapter.verify(request({ dateOfBirth: undefined }))).resolves.toMatchObject({ outcome: 'verified' });
    expect(fake.requests[0]?.query).toEqual({ bvn: BVN });
  });

  it("when Dojah's upstream registry fails (424) on every attempt, then pending (answered, not conclusive), not a throw", async () => {
    fake.failNext(2, 424, { error: 'NIBSS service unavailable' });
    const { adapter } = verifier({ maxAttempts: 2 });
    await expect(adapter.verify(request())).resolves.toEqual({ outcome: 'pending', documents: [{ type: 'bvn', status: 'pending' }] });
  });

  it('when the answer has no date-of-birth verdict, then undecided (a person decides; asking again would not change it)', async () => {
    fake.failNext(1, 200, { entity: { bvn: { value: BVN, status: true } } });
    const { adapter } = verifier();
    await expect(adapter.verify(request())).resolves.toMatchObject({ outcome: 'undecided', documents: [{ type: 'bvn', status: 'undecided' }] });
  });

  it('when one document failed and another is undecided, then failed wins', async () => {
    // The unknown BVN fails; the NIN record's date is in a format that cannot be compared, so the NIN is undecided.
    fake.seedNin('70222222222', { firstName: 'TUNDE', lastName: 'BAKARE', dob: '01-Jul-1988' });
    const { adapter } = verifier();
    const result = await adapter.verify(request({ bvn: '22000000000', nin: '70222222222' }));
    expect(result).toEqual({
      outcome: 'failed',
      documents: [
        { type: 'bvn', status: 'failed' },
        { type: 'nin', status: 'undecided' },
      ],
    });
  });

  it('when the keys are wrong, then dojah_unauthorized is thrown (an outage, not a KYC outcome)', async () => {
    const { adapter } = verifier({ appId: 'app_wrong' });
    const error = await rejection(adapter.verify(request()));
    expect(error.code).toBe('dojah_unauthorized');
  });

  it('when Dojah fails once then answers, then the lookup is retried and verifies', async () => {
    fake.failNext(1, 502);
    const { adapter } = verifier({ maxAttempts: 2 });
    await expect(adapter.verify(request())).resolves.toMatchObject({ outcome: 'verified' });
    expect(fake.requests).toHaveLength(2);
  });

  it('when Dojah is slower than the timeout on every attempt, then provider_timeout is thrown', async () => {
    fake.delayNext(600);
    fake.delayNext(600);
    const { adapter } = verifier({ timeoutMs: 120, maxAttempts: 2 });
    const error = await rejection(adapter.verify(request()));
    expect(error.code).toBe('provider_timeout');
    expect(fake.requests).toHaveLength(2);
  });

  it('when the circuit is open, then provider_circuit_open is thrown without calling Dojah', async () => {
    fake.failNext(1, 500);
    const { adapter } = verifier({ maxAttempts: 1, breakerThreshold: 1, halfOpenAfterMs: 200 });
    await rejection(adapter.verify(request()));
    const open = await rejection(adapter.verify(request()));
    expect(open.code).toBe('provider_circuit_open');
    expect(fake.requests).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(adapter.verify(request())).resolves.toMatchObject({ outcome: 'verified' });
  });

  it('when it verifies, then the result carries nothing of the NIN record (names, phone, photo)', async () => {
    const { adapter } = verifier();
    const text = JSON.stringify(await adapter.verify(request({ nin: NIN })));
    for (const leak of ['TUNDE', 'BAKARE', 'FAKEMIDDLE', '08031112222', 'FAKEPHOTO', NIN, BVN, '1988-07-01']) expect(text).not.toContain(leak);
  });

  it('when it fails, then no error message carries the BVN or the NIN', async () => {
    const { adapter } = verifier({ maxAttempts: 1 });
    fake.failNext(1, 400, { error: `NIN ${NIN} / BVN ${BVN} rejected` });
    const error = await rejection(adapter.verify(request({ nin: NIN })));
    expect(error.message).not.toContain(NIN);
    expect(error.message).not.toContain(BVN);
  });
});
