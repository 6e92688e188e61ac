import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { readSandboxInbox } from '../../server/integrations/mailer';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { claimDueDeliveries } from '../../server/platform/domain/webhooks/claim';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../server/platform/domain/webhooks/retry-schedule';
import { verifyWebhook, WebhookSignatureError } from '../../server/platform/domain/webhooks/signature';
import { EVENT_CATALOGUE } from '../../server/platform/domain/events/catalogue';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { client, createTenant, pushBody, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { startReceiver, type Behaviour, type Receiver } from '../support/webhooks';

/**
 * Webhook delivery against a real HTTP receiver on loopback, on a fake clock: signatures checked
 * with the shipped helper as a receiver would, filters, retries, 410, auto-disable with e-mail,
 * redelivery and secret rotation. The app runs with WEBHOOK_ALLOW_LOOPBACK (the receiver is on loopback);
 * the SSRF guard's default is tested in webhook-ssrf.test.ts.
 */
let app: TestApp;
let clock: FakeClock;
let dispatcher: WebhookDispatcher;
let receiver: Receiver;
/** Per path, how the receiver answers (default 200). */
const behaviours = new Map<string, (index: number) => Behaviour>();

beforeAll(async () => {
  clock = new FakeClock('2026-03-02T08:00:00.000Z');
  app = await startTestApp({
    clock,
    env: { WEBHOOK_TIMEOUT_MS: '400', WEBHOOK_LEASE_MS: '2000', WEBHOOK_DISABLE_AFTER_FAILURES: '5', WEBHOOK_DISABLE_AFTER_HOURS: '1' },
  });
  // Jitter pinned to the middle: delays are exactly the documented schedule.
  dispatcher = new WebhookDispatcher(app.platform, { random: () => 0.5 });
  receiver = await startReceiver((req) => {
    const path = req.path;
    const count = receiver.received.filter((r) => r.path === path).length - 1;
    return behaviours.get(path)?.(count) ?? { status: 200 };
  });
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

async function endpoint(tenant: Tenant, path: string, extra: Record<string, unknown> = {}) {
  const res = await client(app, tenant.test).post('/v1/webhook-endpoints', { url: receiver.url(path), ...extra });
  expect(res.status).toBe(201);
  return res.body.data as { endpoint: { id: string }; signingSecret: string };
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);
const deliveries = async (tenant: Tenant, query = '') => (await client(app, tenant.test).get(`/v1/events${query}`)).body.data as any[];

describe('delivery', () => {
  it('signs each delivery so the shipped helper verifies it, with the documented envelope and headers', async () => {
    const tenant = await createTenant(app);
    const { endpoint: ep, signingSecret } = await endpoint(tenant, '/signed');
    const push = await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    const results = await dispatcher.runOnce();
    expect(results.filter((r) => r.claim.delivery.endpointId === ep.id)).toHaveLength(1);

    const [got] = at('/signed');
    const envelope = verifyWebhook<any>(got!.rawBody, got!.headers as Record<string, string>, signingSecret, { now: clock.now() });
    expect(envelope).toEqual({
      id: expect.any(String),
      event: 'preapproval.received',
      timestamp: clock.now().toISOString(),
      data: expect.objectContaining({ preapprovalId: push.body.data.preapprovalId }),
      mode: 'test',
      createdAt: expect.any(String),
    });
    expect(EVENT_CATALOGUE['preapproval.received'].safeParse(envelope.data).success).toBe(true);
    expect(got!.headers['x-service-event-id']).toBe(envelope.id);
    expect(got!.headers['x-service-delivery-attempt']).toBe('1');
    expect(got!.headers['x-service-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(got!.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    // A receiver with the wrong secret, a changed body or a stale timestamp refuses it.
    expect(() => verifyWebhook(got!.rawBody, got!.headers as Record<string, string>, 'whsec_wrong', { now: clock.now() })).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(got!.rawBody.replace('test', 'live'), got!.headers as Record<string, string>, signingSecret, { now: clock.now() })).toThrow(WebhookSignatureError);
    expect(() =>
      verifyWebhook(got!.rawBody, got!.headers as Record<string, string>, signingSecret, { now: new Date(clock.now().getTime() + 301_000) }),
    ).toThrow(/300 s/);

    const [logged] = await deliveries(tenant);
    expect(logged).toMatchObject({
      endpointId: ep.id,
      eventId: envelope.id,
      event: 'preapproval.received',
      mode: 'test',
      targetUrl: receiver.url('/signed'),
      payload: envelope.data,
      status: 'succeeded',
      attemptCount: 1,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      deliveredAt: clock.now().toISOString(),
      responseStatus: 200,
      lastError: null,
    });
    const one = await client(app, tenant.test).get(`/v1/events/${logged.id}`);
    expect(one.body.data).toEqual(logged);
    const endpointNow = await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`);
    expect(endpointNow.body.data).toMatchObject({ consecutiveFails: 0, lastSuccessAt: clock.now().toISOString() });
  });

  it('sends an event only to endpoints of its mode whose filter names it exactly (empty = all, no wildcards)', async () => {
    const tenant = await lendingTenant(app);
    await endpoint(tenant, '/f-approved', { events: ['loan.approved'] });
    await endpoint(tenant, '/f-wildcard', { events: ['loan.*'] });
    await endpoint(tenant, '/f-all', { events: [] });
    await endpoint(tenant, '/f-null');
    const live = await client(app, tenant.live).post('/v1/webhook-endpoints', { url: 'https://partner.example/live-only', mode: 'live' });
    expect(live.status).toBe(201);
    const other = await createTenant(app);
    await endpoint(other, '/f-other-org');

    await offeredLoan(app, tenant);
    await dispatcher.runOnce();
    expect(at('/f-approved').map((r) => r.body.event)).toEqual(['loan.approved']);
    expect(at('/f-wildcard')).toHaveLength(0);
    for (const path of ['/f-all', '/f-null']) {
      expect(at(path).map((r) => r.body.event).sort()).toEqual(['loan.approved', 'loan.kyc.attested', 'loan.offer.issued', 'preapproval.received']);
    }
    expect(at('/f-other-org')).toHaveLength(0);
    // The live endpoint got no delivery row for these test-mode events.
    expect((await client(app, tenant.live).get('/v1/events')).body.data).toEqual([]);
    expect(await deliveries(tenant, '?event=loan.approved')).toHaveLength(3);
    expect(await deliveries(tenant)).toHaveLength(9);
  });
});

describe('retries', () => {
  it('retries a 500 on the documented schedule and succeeds later; the attempt count and last error are recorded', async () => {
    const tenant = await createTenant(app);
    behaviours.set('/flaky', (n) => (n < 2 ? { status: 500 } : { status: 204 }));
    const { endpoint: ep } = await endpoint(tenant, '/flaky');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    let [d] = await deliveries(tenant);
    expect(d).toMatchObject({ status: 'failed', attemptCount: 1, responseStatus: 500, lastError: 'HTTP 500: receiver says no' });
    expect(new Date(d.nextAttemptAt).getTime() - clock.now().getTime()).toBe(RETRY_DELAYS_MS[0]);
    expect((await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`)).body.data.consecutiveFails).toBe(1);

    // Not due yet: nothing is sent.
    clock.advance(RETRY_DELAYS_MS[0]! - 1);
    await dispatcher.runOnce();
    expect(at('/flaky')).toHaveLength(1);
    clock.advance(1);
    await dispatcher.runOnce();
    [d] = await deliveries(tenant);
    expect(d).toMatchObject({ status: 'failed', attemptCount: 2 });
    expect(new Date(d.nextAttemptAt).getTime() - clock.now().getTime()).toBe(RETRY_DELAYS_MS[1]);

    clock.advance(RETRY_DELAYS_MS[1]!);
    await dispatcher.runOnce();
    [d] = await deliveries(tenant);
    expect(d).toMatchObject({ status: 'succeeded', attemptCount: 3, responseStatus: 204, lastError: null, nextAttemptAt: null });
    expect(at('/flaky').map((r) => r.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(at('/flaky').map((r) => r.body.id)).size).toBe(1);
    expect((await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`)).body.data.consecutiveFails).toBe(0);
  });

  it('treats a timeout and a reset connection as failures to retry', async () => {
    const tenant = await createTenant(app);
    behaviours.set('/slow', () => ({ delayMs: 1500 }));
    behaviours.set('/reset', () => ({ reset: true }));
    await endpoint(tenant, '/slow');
    await endpoint(tenant, '/reset');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    const list = await deliveries(tenant);
    const slow = list.find((d) => d.targetUrl.endsWith('/slow'));
    const reset = list.find((d) => d.targetUrl.endsWith('/reset'));
    expect(slow).toMatchObject({ status: 'failed', attemptCount: 1, responseStatus: null, lastError: 'timeout after 400 ms' });
    expect(reset).toMatchObject({ status: 'failed', attemptCount: 1, responseStatus: null });
    expect(reset.lastError).toMatch(/ECONNRESET|socket hang up/);

    // Both are tried again when due, and succeed once the receiver behaves.
    behaviours.set('/slow', () => ({ status: 200 }));
    behaviours.set('/reset', () => ({ status: 200 }));
    clock.advance(RETRY_DELAYS_MS[0]!);
    await dispatcher.runOnce();
    for (const d of await deliveries(tenant)) expect(d).toMatchObject({ status: 'succeeded', attemptCount: 2, lastError: null });
  });

  it('honours Retry-After on 429 and 503', async () => {
    const tenant = await createTenant(app);
    behaviours.set('/busy', (n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '120' } } : n === 1 ? { status: 503, headers: { 'Retry-After': '7' } } : { status: 200 }));
    await endpoint(tenant, '/busy');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    let [d] = await deliveries(tenant);
    expect(new Date(d.nextAttemptAt).getTime() - clock.now().getTime()).toBe(120_000);
    clock.advance(120_000);
    await dispatcher.runOnce();
    [d] = await deliveries(tenant);
    expect(new Date(d.nextAttemptAt).getTime() - clock.now().getTime()).toBe(7_000);
    clock.advance(7_000);
    await dispatcher.runOnce();
    expect((await deliveries(tenant))[0]).toMatchObject({ status: 'succeeded', attemptCount: 3 });
  });

  it('disables the endpoint at once on 410 and ends what was waiting for it', async () => {
    const tenant = await createTenant(app);
    behaviours.set('/gone', () => ({ status: 410 }));
    await configureOrganisation(app.platform.db, tenant.organisationId, { notificationEmail: 'ops-gone@partner.example' }, clock.now());
    const { endpoint: ep } = await endpoint(tenant, '/gone');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    expect((await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`)).body.data.status).toBe('disabled');
    expect((await deliveries(tenant))[0]).toMatchObject({ status: 'dead', responseStatus: 410, nextAttemptAt: null });
    // Nothing more is written or sent for a disabled endpoint.
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    clock.advance(3_600_000);
    await dispatcher.runOnce();
    expect(at('/gone')).toHaveLength(1);
    expect(await deliveries(tenant)).toHaveLength(1);
    const mail = readSandboxInbox(path.join(app.dataDir, 'mail')).filter((m) => m.to === 'ops-gone@partner.example');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('410 Gone');
  });
});

describe('auto-disable', () => {
  it('disables an endpoint after the failure threshold over the minimum span, e-mails the organisation once, and ends waiting deliveries', async () => {
    const tenant = await createTenant(app);
    await configureOrganisation(app.platform.db, tenant.organisationId, { notificationEmail: 'ops@partner.example' }, clock.now());
    behaviours.set('/down', () => ({ status: 500 }));
    const { endpoint: ep } = await endpoint(tenant, '/down');
    for (let i = 0; i < 3; i += 1) await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    // Six failures within seconds: over the count threshold (5) but not the span (1 hour).
    await dispatcher.runOnce();
    clock.advance(RETRY_DELAYS_MS[0]!);
    await dispatcher.runOnce();
    let state = (await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`)).body.data;
    expect(state).toMatchObject({ status: 'active', consecutiveFails: 6 });

    // An hour later the next failure disables it.
    clock.advance(3_600_000);
    await dispatcher.runOnce();
    state = (await client(app, tenant.test).get(`/v1/webhook-endpoints/${ep.id}`)).body.data;
    expect(state.status).toBe('disabled');
    expect(state.consecutiveFails).toBeGreaterThanOrEqual(7);
    expect((await deliveries(tenant)).every((d) => d.status === 'dead')).toBe(true);

    const mail = readSandboxInbox(path.join(app.dataDir, 'mail')).filter((m) => m.to === 'ops@partner.example');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Webhook endpoint disabled: ${receiver.url('/down')}`);
    expect(mail[0]!.text).toContain(`PATCH /v1/webhook-endpoints/${ep.id}`);

    // Re-enabled, it starts afresh and receives new events.
    behaviours.set('/down', () => ({ status: 200 }));
    const patched = await client(app, tenant.test).call('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'active' } });
    expect(patched.body.data).toMatchObject({ status: 'active', consecutiveFails: 0 });
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    expect((await deliveries(tenant))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('ends a delivery as dead when its attempts are used up', async () => {
    const patient = await startTestApp({ clock: new FakeClock('2026-04-01T00:00:00.000Z'), env: { WEBHOOK_DISABLE_AFTER_FAILURES: '1000' } });
    const patientClock = patient.platform.clock as FakeClock;
    try {
      const tenant = await createTenant(patient);
      behaviours.set('/never', () => ({ status: 500 }));
      await client(patient, tenant.test).post('/v1/webhook-endpoints', { url: receiver.url('/never') });
      await client(patient, tenant.test).post('/v1/preapprovals', pushBody());
      const worker = new WebhookDispatcher(patient.platform, { random: () => 0.5 });
      await worker.runOnce();
      for (const delay of RETRY_DELAYS_MS) {
        patientClock.advance(delay);
        await worker.runOnce();
      }
      const [d] = (await client(patient, tenant.test).get('/v1/events')).body.data;
      expect(d).toMatchObject({ status: 'dead', attemptCount: MAX_ATTEMPTS, nextAttemptAt: null, responseStatus: 500 });
      patientClock.advance(48 * 3_600_000);
      expect(await worker.runOnce()).toEqual([]);
      expect(at('/never')).toHaveLength(MAX_ATTEMPTS);
    } finally {
      await patient.stop();
    }
  });
});

describe('redelivery', () => {
  it('requeues to the endpoint as configured now, with the body and event first sent', async () => {
    const tenant = await createTenant(app);
    const { endpoint: ep, signingSecret } = await endpoint(tenant, '/first');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    const [sent] = await deliveries(tenant);
    await client(app, tenant.test).call('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { url: receiver.url('/moved') } });

    clock.advance(60_000);
    const res = await client(app, tenant.test).post(`/v1/events/${sent.id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: sent.id, status: 'pending', targetUrl: receiver.url('/moved'), attemptCount: 1, maxAttempts: 1 + MAX_ATTEMPTS });
    await dispatcher.runOnce();
    const [first] = at('/first');
    const [again] = at('/moved');
    const body = verifyWebhook<any>(again!.rawBody, again!.headers as Record<string, string>, signingSecret, { now: clock.now() });
    expect(body.id).toBe(first!.body.id);
    expect(body.event).toBe(first!.body.event);
    expect(body.data).toEqual(first!.body.data);
    expect(again!.headers['x-service-delivery-attempt']).toBe('2');
    expect((await client(app, tenant.test).get(`/v1/events/${sent.id}`)).body.data).toMatchObject({ status: 'succeeded', attemptCount: 2 });
  });

  it('refuses while an attempt is in flight, and for a disabled or deleted endpoint', async () => {
    const tenant = await createTenant(app);
    const { endpoint: ep } = await endpoint(tenant, '/refusals');
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    const [d] = await deliveries(tenant);

    await client(app, tenant.test).call('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'disabled' } });
    let res = await client(app, tenant.test).post(`/v1/events/${d.id}/redeliver`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('webhook_endpoint_unavailable');

    await client(app, tenant.test).call('PATCH', `/v1/webhook-endpoints/${ep.id}`, { body: { status: 'active' } });
    await client(app, tenant.test).post(`/v1/events/${d.id}/redeliver`);
    const claimed = await claimDueDeliveries(app.platform.db, app.platform.dialect, clock.now(), 100, 60_000);
    expect(claimed.map((c) => c.delivery.id)).toContain(d.id);
    res = await client(app, tenant.test).post(`/v1/events/${d.id}/redeliver`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('delivery_in_flight');
    expect((await client(app, tenant.test).get(`/v1/events/${d.id}`)).body.data.status).toBe('delivering');

    await client(app, tenant.test).call('DELETE', `/v1/webhook-endpoints/${ep.id}`);
    clock.advance(61_000);
    await dispatcher.runOnce(); // the lease expired: claimed again, but the endpoint is gone
    const after = (await client(app, tenant.test).get(`/v1/events/${d.id}`)).body.data;
    expect(after).toMatchObject({ endpointId: null, status: 'dead' });
    res = await client(app, tenant.test).post(`/v1/events/${d.id}/redeliver`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('webhook_endpoint_unavailable');
    expect(at('/refusals')).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours after a rotation, then only with the new one', async () => {
    const tenant = await createTenant(app);
    const { endpoint: ep, signingSecret: oldSecret } = await endpoint(tenant, '/rotating');
    const rotated = await client(app, tenant.test).post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`);
    const newSecret = rotated.body.data.signingSecret as string;
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    const [during] = at('/rotating');
    expect(String(during!.headers['x-service-signature']).split(',')).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(() => verifyWebhook(during!.rawBody, during!.headers as Record<string, string>, secret, { now: clock.now() })).not.toThrow();
    }

    clock.advance(24 * 3_600_000 + 1000);
    await client(app, tenant.test).post('/v1/preapprovals', pushBody());
    await dispatcher.runOnce();
    const after = at('/rotating')[1]!;
    expect(String(after.headers['x-service-signature']).split(',')).toHaveLength(1);
    expect(() => verifyWebhook(after.rawBody, after.headers as Record<string, string>, newSecret, { now: clock.now() })).not.toThrow();
    expect(() => verifyWebhook(after.rawBody, after.headers as Record<string, string>, oldSecret, { now: clock.now() })).toThrow(WebhookSignatureError);
  });
});
