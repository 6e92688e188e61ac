import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { createEndpoint } from '../../server/platform/domain/webhooks/endpoint';
import { client, createTenant, pushBody, startTestApp, type TestApp } from '../support/harness';
import { startReceiver, type Receiver } from '../support/webhooks';

/**
 * The SSRF guard with the default configuration (WEBHOOK_ALLOW_LOOPBACK unset): in every mode, an
 * IP-literal URL that is not a public address is refused at registration, and a host name that
 * resolves to one is refused at delivery without connecting, so `GET /v1/events` cannot be used to
 * probe internal addresses. Only loopback traffic: the receiver listens on 127.0.0.1, the other
 * addresses are refused before any connection is attempted.
 */
let app: TestApp;
let dispatcher: WebhookDispatcher;
let receiver: Receiver;

beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_LOOPBACK: 'false', WEBHOOK_TIMEOUT_MS: '400', WEBHOOK_LEASE_MS: '2000' } });
  dispatcher = new WebhookDispatcher(app.platform, { random: () => 0.5 });
  // A receiver that would hand an internal reply back through lastError if it were ever reached.
  receiver = await startReceiver(() => ({ status: 500 }));
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

const refusedHosts = (port: number) => [
  `127.0.0.1:${port}`,
  '127.8.8.8',
  '[::1]',
  '10.0.0.1',
  '172.16.5.4',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '[fe80::1]',
  '[fd12:3456::1]',
  '[ff02::1]',
  '[::]',
  '[::7f00:1]',
  '[::a00:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:10.0.0.1]',
  '2130706433', // 127.0.0.1 written as one number: the URL parser normalises it first
];

describe('SSRF guard by default', () => {
  it('the loopback flag is off unless configured', () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
  });

  it('refuses non-public IP literals at registration in test and live mode, on both registration routes, storing nothing', async () => {
    const tenant = await createTenant(app);
    for (const key of [tenant.test, tenant.live]) {
      for (const host of refusedHosts(receiver.port)) {
        for (const scheme of ['https', 'http']) {
          const res = await client(app, key).post('/v1/webhook-endpoints', { url: `${scheme}://${host}/hook` });
          expect(res.status, `${scheme}://${host}`).toBe(422);
          expect(res.body.error).toBe('webhook_url_not_allowed');
          expect(res.body.message).toMatch(/^url: /);
        }
        const sdk = await client(app, key).post('/api/v1/sdk/webhook-endpoints', { url: `https://${host}/hook` });
        expect(sdk.status, `sdk https://${host}`).toBe(422);
        expect(sdk.body.error).toBe('webhook_url_not_allowed');
      }
      expect((await client(app, key).get('/v1/webhook-endpoints')).body.data).toEqual([]);
    }
    const stored = await app.platform.db.selectFrom('webhookEndpoints').select('id').where('organisationId', '=', tenant.organisationId).execute();
    expect(stored).toEqual([]);
  });

  it('refuses a non-public IP literal when an endpoint URL is changed, leaving the URL as it was', async () => {
    const tenant = await createTenant(app);
    const created = await client(app, tenant.test).post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/in' });
    expect(created.status).toBe(201);
    const id = created.body.data.endpoint.id;
    const res = await client(app, tenant.test).call('PATCH', `/v1/webhook-endpoints/${id}`, { body: { url: 'https://169.254.169.254/latest/meta-data' } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('webhook_url_not_allowed');
    expect((await client(app, tenant.test).get(`/v1/webhook-endpoints/${id}`)).body.data.url).toBe('https://hooks.example.com/in');
  });

  it('refuses special-use and internal host names at registration, in any case and with a trailing dot, in test and live mode, on both registration routes, storing nothing', async () => {
    const tenant = await createTenant(app);
    const names = [
      'localhost',
      'localhost.',
      'LOCALHOST',
      'LocalHost..',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
      'Metadata.Google.Internal.',
      'router.home.arpa',
      'ipv4only.arpa',
      'hooks.invalid',
      'hooks.test',
      'shop.onion',
      'metadata',
    ];
    for (const key of [tenant.test, tenant.live]) {
      for (const name of names) {
        const res = await client(app, key).post('/v1/webhook-endpoints', { url: `https://${name}/x` });
        expect(res.status, name).toBe(422);
        expect(res.body.error).toBe('webhook_url_not_allowed');
        expect(res.body.message).toMatch(/^url: .+ is (a loopback name|a special-use name \(\.[a-z]+\)|not a fully qualified domain name)/);
        const sdk = await client(app, key).post('/api/v1/sdk/webhook-endpoints', { url: `https://${name}/x` });
        expect(sdk.status, `sdk ${name}`).toBe(422);
        expect(sdk.body.error).toBe('webhook_url_not_allowed');
      }
    }
    const stored = await app.platform.db.selectFrom('webhookEndpoints').select('id').where('organisationId', '=', tenant.organisationId).execute();
    expect(stored).toEqual([]);
    // A changed URL is held to the same rule.
    const created = await client(app, tenant.live).post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/in' });
    expect(created.status).toBe(201);
    const id = created.body.data.endpoint.id;
    const changed = await client(app, tenant.live).call('PATCH', `/v1/webhook-endpoints/${id}`, { body: { url: 'https://localhost./x' } });
    expect(changed.status).toBe(422);
    expect(changed.body.error).toBe('webhook_url_not_allowed');
  });

  it('refuses at delivery a host name that resolves to loopback, without connecting, so the event log reveals nothing of the target', async () => {
    const tenant = await createTenant(app);
    const before = receiver.connections();
    // Registered as a development server would have let them (or before names were checked at
    // registration): the delivery guard judges the address the name resolves to, whatever is stored.
    const stored = (mode: 'test' | 'live', url: string, api: 'lending' | 'sdk' = 'lending') =>
      createEndpoint(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode }, { url, api }, new Date(), { allowLoopback: true });
    await stored('test', `http://localhost:${receiver.port}/probe`);
    await stored('test', `http://localhost:${receiver.port}/sdk-probe`, 'sdk');
    await stored('live', `https://localhost:${receiver.port}/probe`);
    expect((await client(app, tenant.test).post('/v1/preapprovals', pushBody())).status).toBe(202);
    expect((await client(app, tenant.live).post('/v1/preapprovals', pushBody())).status).toBe(202);
    await dispatcher.runOnce();

    for (const key of [tenant.test, tenant.live]) {
      const events = (await client(app, key).get('/v1/events')).body.data as any[];
      expect(events.length).toBeGreaterThan(0);
      for (const delivery of events) {
        expect(delivery.status).toBe('failed');
        expect(delivery.lastError).toMatch(/^refused: localhost resolves to a non-public address/);
        expect(delivery.lastError).not.toMatch(/receiver says no|HTTP/);
      }
    }
    expect(receiver.received).toHaveLength(0);
    expect(receiver.connections()).toBe(before);
  });
});
