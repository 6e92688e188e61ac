import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DojahAmlScreen } from '../../server/integrations/dojah/dojah-aml-screen';
import { DojahClient, type DojahClientOptions } from '../../server/integrations/dojah/dojah-http';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';

const APP_ID = 'app_fake_3';
const SECRET = 'prod_sk_fake_aml';

let fake: FakeDojah;

function screen(options: Partial<DojahClientOptions> = {}) {
  const client = new DojahClient({ appId: APP_ID, secretKey: SECRET, mode: 'live', baseUrl: fake.url, timeoutMs: 2000, initialDelayMs: 5, maxDelayMs: 20, ...options });
  return { client, adapter: new DojahAmlScreen(client) };
}

const person = (firstName: string, lastName: string) => ({ firstName, lastName, mode: 'live' as const });

beforeEach(async () => {
  fake = await startFakeDojah({ appId: APP_ID, secretKey: SECRET });
  fake.seedSanction('Bashir Garba Lawal', 'SANCTION');
  fake.seedSanction('Bashir Garba Lawal', 'PEP');
  fake.seedSanction('Ngozi Eze', 'PEP');
});
afterEach(async () => {
  await fake.close();
});

describe('DojahAmlScreen (AML screening v2)', () => {
  it('when nobody on the lists resembles the person, then clear, with the documented request body', async () => {
    const { adapter } = screen();
    await expect(adapter.screen(person('Amaka', 'Nwosu'))).resolves.toEqual({ status: 'clear', detail: 'dojah: no match' });
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/aml/v2/screening',
      body: {
        schema: 'individual',
        properties: { names: 'Amaka Nwosu' },
        screening_options: { pep_check: true, sanction: true, adverse_media_check: false, watchlists: [], match_threshold: 0.85 },
      },
    });
  });

  it('when the person is on a list, then hit, naming the lists and the count but not the person', async () => {
    fake.seedSanction('Bashir Lawal', 'SANCTION');
    const { adapter } = screen();
    const result = await adapter.screen(person('Bashir', 'Lawal'));
    expect(result).toEqual({ status: 'hit', detail: 'dojah: 1 potential match on SANCTION list' });
  });

  it('when the person matches several entries, then one hit listing each list kind once', async () => {
    const { adapter } = screen();
    const result = await adapter.screen({ firstName: 'Bashir Garba', lastName: 'Lawal', mode: 'live' });
    expect(result.status).toBe('hit');
    expect(result.detail).toBe('dojah: 2 potential matches on PEP, SANCTION lists');
    expect(result.detail).not.toMatch(/bashir|lawal|garba/i);
  });

  it('when a name is only vaguely similar, then the 0.85 threshold keeps it clear', async () => {
    const { adapter } = screen();
    await expect(adapter.screen(person('Ngozi', 'Ezeh'))).resolves.toMatchObject({ status: 'hit' }); // one extra letter in 10: 90%
    await expect(adapter.screen(person('Ngozika', 'Ezenwa'))).resolves.toMatchObject({ status: 'clear' });
  });

  it('when Dojah fails once then answers, then the screen is retried and answers', async () => {
    fake.failNext(1, 503);
    const { adapter } = screen({ maxAttempts: 2 });
    await expect(adapter.screen(person('Ngozi', 'Eze'))).resolves.toMatchObject({ status: 'hit' });
    expect(fake.requests).toHaveLength(2);
  });

  it.each([
    ['a 500 on every attempt', () => fake.failNext(2, 500), 'dojah_server_error'],
    ['a 424 (upstream failed) on every attempt', () => fake.failNext(2, 424, { error: 'Third party service failure' }), 'dojah_upstream_failed'],
    ['a 402 (no balance)', () => fake.failNext(1, 402, { error: 'Insufficient balance' }), 'dojah_payment_required'],
    ['a 400', () => fake.failNext(1, 400, { error: 'schema is required' }), 'dojah_bad_request'],
    ['an answer that is not JSON', () => fake.malformedNext(), 'provider_bad_response'],
    ['an answer without results', () => fake.failNext(1, 200, { entity: { entity_type: 'individual' } }), null],
    ['a timeout on every attempt', () => (fake.delayNext(1200), fake.delayNext(1200)), 'provider_timeout'],
  ] as const)('when Dojah gives %s, then pending (never clear) and the detail names the code', async (_, arrange, code) => {
    arrange();
    const { adapter } = screen({ maxAttempts: 2, timeoutMs: 400 });
    const result = await adapter.screen(person('Bashir', 'Lawal'));
    expect(result.status).toBe('pending');
    if (code) expect(result.detail).toContain(code);
    expect(result.detail).not.toMatch(/bashir|lawal/i);
  });

  it('when the keys are wrong, then pending with dojah_unauthorized (a misconfigured screen lets nobody through)', async () => {
    const { adapter } = screen({ secretKey: 'prod_sk_wrong' });
    const result = await adapter.screen(person('Amaka', 'Nwosu'));
    expect(result).toEqual({ status: 'pending', detail: expect.stringContaining('dojah_unauthorized') });
  });

  it('when the circuit is open, then pending without calling Dojah, and clear again once it closes', async () => {
    fake.failNext(2, 500);
    const { adapter, client } = screen({ maxAttempts: 1, breakerThreshold: 2, halfOpenAfterMs: 200 });
    await adapter.screen(person('Amaka', 'Nwosu'));
    await adapter.screen(person('Amaka', 'Nwosu'));
    expect(client.circuitState).toBe('open');

    await expect(adapter.screen(person('Amaka', 'Nwosu'))).resolves.toEqual({ status: 'pending', detail: expect.stringContaining('provider_circuit_open') });
    expect(fake.requests).toHaveLength(2);

    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(adapter.screen(person('Amaka', 'Nwosu'))).resolves.toMatchObject({ status: 'clear' });
  });

  it('when a list kind carries free text, then the detail keeps only the list kind', async () => {
    fake.seedSanction('Amaka Nwosu', 'sanction: see <a href="x">John Doe</a>');
    const { adapter } = screen();
    const result = await adapter.screen(person('Amaka', 'Nwosu'));
    expect(result).toEqual({ status: 'hit', detail: 'dojah: 1 potential match on SANCTION list' });
  });
});
