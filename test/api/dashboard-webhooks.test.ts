import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { startReceiver, type Receiver } from '../support/webhooks';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { verifyWebhook } from '../../server/platform/domain/webhooks/signature';
import { verifySdkWebhook } from '../../server/platform/domain/financing/sdk-webhooks';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';

/** The webhooks page's routes: endpoints of both APIs, secrets shown once, the delivery log per attempt, redeliver, test events. */
let app: TestApp;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;
/** How the receiver answers the next requests (500 then 200 for the redelivery test). */
let answers: number[] = [];
beforeAll(async () => {
  app = await startTestApp();
  receiver = await startReceiver(() => ({ status: answers.shift() ?? 200 }));
  dispatcher = new WebhookDispatcher(app.platform, { random: () => 0.5 });
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

type Owner = DashboardClient & { email: string; organisationId: string };

async function auditActions(owner: Owner): Promise<string[]> {
  const rows = await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('organisationId', '=', owner.organisationId).execute();
  return rows.map((row) => row.action);
}

async function addEndpoint(owner: Owner, body: Record<string, unknown> = {}) {
  const created = await owner.post('/webhooks/endpoints', { url: receiver.url('/hook'), events: ['loan.approved'], ...body });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.data as { endpoint: { id: string; url: string; status: string; api: string }; signingSecret: string | null };
}

describe('webhook endpoints on the dashboard', () => {
  it('adds an endpoint and shows its signing secret once: never in a list or a read afterwards', async () => {
    const owner = await signedInOwner(app);
    const empty = await owner.get('/webhooks/endpoints');
    expect(empty.status).toBe(200);
    expect(empty.json).toMatchObject({ data: [], nextCursor: null });

    const { endpoint, signingSecret } = await addEndpoint(owner, { description: 'Orders service' });
    expect(signingSecret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ url: receiver.url('/hook'), status: 'active', api: 'lending', mode: 'test', events: ['loan.approved'], description: 'Orders service' });

    const list = await owner.get('/webhooks/endpoints');
    expect(list.json.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    const one = await owner.get(`/webhooks/endpoints/${endpoint.id}`);
    expect(one.status).toBe(200);
    for (const answer of [list, one]) {
      expect(JSON.stringify(answer.json)).not.toContain('whsec_');
      expect(JSON.stringify(answer.json)).not.toContain(signingSecret);
    }
    expect(await auditActions(owner)).toContain('webhook_endpoint_created');
  });

  it('edits, disables, enables and deletes an endpoint, each audited', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const edited = await owner.send('PATCH', `/webhooks/endpoints/${endpoint.id}`, { url: receiver.url('/other'), events: ['loan.disbursed', 'loan.completed'], description: null });
    expect(edited.status).toBe(200);
    expect(edited.json.data).toMatchObject({ url: receiver.url('/other'), events: ['loan.disbursed', 'loan.completed'], description: null });

    const disabled = await owner.send('PATCH', `/webhooks/endpoints/${endpoint.id}`, { status: 'disabled' });
    expect(disabled.json.data.status).toBe('disabled');
    const refused = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('webhook_endpoint_unavailable');
    expect((await owner.send('PATCH', `/webhooks/endpoints/${endpoint.id}`, { status: 'active' })).json.data.status).toBe('active');

    const deleted = await owner.send('DELETE', `/webhooks/endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
    const actions = await auditActions(owner);
    expect(actions.filter((a) => a === 'webhook_endpoint_updated')).toHaveLength(3);
    expect(actions).toContain('webhook_endpoint_deleted');
    const targets = await app.platform.db.selectFrom('dashboardAuditLog').select('target').where('organisationId', '=', owner.organisationId).where('action', '=', 'webhook_endpoint_updated').execute();
    expect(targets.map((t) => t.target)).toContain(`webhook_endpoint:${endpoint.id} status=disabled`);
  });

  it('refuses bad input with 4xx and stores nothing: an address or an internal name the policy refuses, plain http off loopback, an unknown event, an empty edit', async () => {
    const owner = await signedInOwner(app);
    const cases: [unknown, number, string][] = [
      [{ url: 'https://0.0.0.0/hook' }, 422, 'webhook_url_not_allowed'],
      [{ url: 'https://169.254.169.254/latest' }, 422, 'webhook_url_not_allowed'],
      [{ url: 'https://metadata.google.internal/computeMetadata/v1' }, 422, 'webhook_url_not_allowed'],
      [{ url: 'https://Printer.Local./hook' }, 422, 'webhook_url_not_allowed'],
      [{ url: 'http://example.com/hook' }, 400, 'invalid_request'],
      [{ url: 'ftp://example.com/hook' }, 400, 'invalid_request'],
      [{ url: 'https://example.com/hook', events: ['loan.exploded'] }, 400, 'invalid_request'],
      [{ url: 'https://example.com/hook', events: ['webhook.test'] }, 400, 'invalid_request'],
      [{ url: 'https://example.com/hook', api: 'sdk', events: ['preapproval.received'] }, 400, 'invalid_request'],
      [{ url: 'https://example.com/hook', secret: 'mine' }, 400, 'invalid_request'],
    ];
    for (const [body, status, error] of cases) {
      const answer = await owner.post('/webhooks/endpoints', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.json.error).toBe(error);
    }
    const stored = await app.platform.db.selectFrom('webhookEndpoints').select('id').where('organisationId', '=', owner.organisationId).execute();
    expect(stored).toEqual([]);
    expect(await auditActions(owner)).not.toContain('webhook_endpoint_created');

    const { endpoint } = await addEndpoint(owner);
    for (const body of [{}, { url: 'http://example.com/x' }, { status: 'paused' }]) {
      const answer = await owner.send('PATCH', `/webhooks/endpoints/${endpoint.id}`, body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).json.data.url).toBe(receiver.url('/hook'));
    expect((await owner.get('/webhooks/endpoints?cursor=nonsense')).status).toBe(400);
  });

  it('rotates the secret: the new one is shown once, and for 24 hours deliveries carry both signatures', async () => {
    const owner = await signedInOwner(app);
    const { endpoint, signingSecret: first } = await addEndpoint(owner);
    const rotated = await owner.post(`/webhooks/endpoints/${endpoint.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const second = rotated.json.data.signingSecret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const expires = Date.parse(rotated.json.data.previousSecretExpiresAt) - app.platform.clock.now().getTime();
    expect(Math.abs(expires - 24 * 3600_000)).toBeLessThan(60_000);
    expect(JSON.stringify((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).json)).not.toContain('whsec_');
    expect(await auditActions(owner)).toContain('webhook_secret_rotated');

    const before = receiver.received.length;
    expect((await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {})).status).toBe(202);
    await dispatcher.runOnce();
    const arrived = receiver.received.slice(before).find((r) => r.body?.data?.endpointId === endpoint.id)!;
    expect(arrived.headers['x-service-signature']!.toString().split(',')).toHaveLength(2);
    for (const secret of [first!, second]) expect(verifyWebhook(arrived.rawBody, arrived.headers, secret)).toMatchObject({ event: 'webhook.test' });
  });
});

describe('the delivery log, test events and redelivery', () => {
  it('sends a signed test event through the engine; the log shows the attempt with the request as sent and the response', async () => {
    const owner = await signedInOwner(app);
    // The filter names only loan.approved: a test event goes to the endpoint whatever it subscribes to.
    const { endpoint, signingSecret } = await addEndpoint(owner);
    const other = await addEndpoint(owner, { url: receiver.url('/other-endpoint') });
    const before = receiver.received.length;
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    expect(sent.status).toBe(202);
    expect(sent.json.data).toMatchObject({ event: 'webhook.test', status: 'pending', endpointId: endpoint.id });
    await dispatcher.runOnce();

    const arrived = receiver.received.slice(before);
    expect(arrived.map((r) => r.path)).toEqual(['/hook']);
    const envelope = verifyWebhook<{ event: string; data: { endpointId: string }; mode: string }>(arrived[0]!.rawBody, arrived[0]!.headers, signingSecret!);
    expect(envelope).toMatchObject({ event: 'webhook.test', mode: 'test', data: { endpointId: endpoint.id } });

    const log = await owner.get(`/webhooks/endpoints/${endpoint.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.json.data).toHaveLength(1);
    expect(log.json.data[0]).toMatchObject({ id: sent.json.data.id, status: 'succeeded', attemptCount: 1, responseStatus: 200 });
    expect((await owner.get(`/webhooks/endpoints/${other.endpoint.id}/deliveries`)).json.data).toEqual([]);

    const attempts = await owner.get(`/webhooks/deliveries/${sent.json.data.id}/attempts`);
    expect(attempts.status).toBe(200);
    const [attempt] = attempts.json.data;
    expect(attempt).toMatchObject({ attempt: 1, event: 'webhook.test', url: receiver.url('/hook'), succeeded: true, response: { status: 200, body: 'ok', error: null } });
    expect(attempt.request.body).toBe(arrived[0]!.rawBody);
    expect(attempt.request.headers['X-Service-Signature']).toBe(arrived[0]!.headers['x-service-signature']);
    expect(attempt.request.headers['X-Service-Timestamp']).toBe(arrived[0]!.headers['x-service-timestamp']);
    expect(attempt.response.durationMs).toBeGreaterThanOrEqual(0);
    expect(await auditActions(owner)).toContain('webhook_test_sent');
  });

  it('redelivers a failed delivery as a new attempt; both attempts stay in the log, with the failing response', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    answers = [500];
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    const failed = (await owner.get(`/webhooks/endpoints/${endpoint.id}/deliveries`)).json.data[0];
    expect(failed).toMatchObject({ status: 'failed', responseStatus: 500 });

    const again = await owner.post(`/webhooks/deliveries/${sent.json.data.id}/redeliver`, {});
    expect(again.status).toBe(202);
    expect(again.json.data.status).toBe('pending');
    await dispatcher.runOnce();
    const attempts = (await owner.get(`/webhooks/deliveries/${sent.json.data.id}/attempts`)).json.data;
    expect(attempts.map((a: { attempt: number; succeeded: boolean; response: { status: number } }) => [a.attempt, a.succeeded, a.response.status])).toEqual([
      [2, true, 200],
      [1, false, 500],
    ]);
    expect(attempts[1].response).toMatchObject({ body: 'receiver says no', error: 'HTTP 500: receiver says no' });
    expect(await auditActions(owner)).toContain('webhook_redelivered');
  });

  it('pages the delivery log with a keyset cursor', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {})).json.data.id);
    const first = await owner.get(`/webhooks/endpoints/${endpoint.id}/deliveries?limit=2`);
    expect(first.json.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await owner.get(`/webhooks/endpoints/${endpoint.id}/deliveries?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json).toMatchObject({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    await dispatcher.runOnce();
  });
});

describe('patient-financing endpoints', () => {
  it('have no secret of their own (the API secret key signs, as the spec says); a test event arrives in the spec envelope', async () => {
    const owner = await signedInOwner(app);
    const { endpoint, signingSecret } = await addEndpoint(owner, { api: 'sdk', events: ['loan.disbursed'], url: receiver.url('/financing') });
    expect(signingSecret).toBeNull();
    expect(endpoint.api).toBe('sdk');
    expect((await owner.get('/webhooks/endpoints?api=sdk')).json.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    expect((await owner.get('/webhooks/endpoints')).json.data).toEqual([]);

    const rotate = await owner.post(`/webhooks/endpoints/${endpoint.id}/rotate-secret`, {});
    expect(rotate.status).toBe(409);
    expect(rotate.json.error).toBe('webhook_secret_not_applicable');

    // Without an API key pair nothing can sign: the attempt is logged as not sent.
    const unsigned = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    const notSent = (await owner.get(`/webhooks/deliveries/${unsigned.json.data.id}/attempts`)).json.data[0];
    expect(notSent).toMatchObject({ succeeded: false, request: null });
    expect(notSent.response.error).toMatch(/no API key pair/);

    const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'test', now: app.platform.clock.now() });
    const before = receiver.received.length;
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    const arrived = receiver.received.slice(before).find((r) => r.path === '/financing')!;
    expect(arrived.headers['x-service-event']).toBe('webhook.test');
    expect(verifySdkWebhook(arrived.rawBody, arrived.headers, key.secretKey)).toMatchObject({ event: 'webhook.test', data: { endpointId: endpoint.id } });
    const attempt = (await owner.get(`/webhooks/deliveries/${sent.json.data.id}/attempts`)).json.data[0];
    expect(attempt).toMatchObject({ succeeded: true, request: { body: arrived.rawBody } });
    expect(attempt.request.headers['X-Service-Event']).toBe('webhook.test');
  });
});

describe('permissions, CSRF and isolation', () => {
  it('an analyst reads endpoints and the log but changes nothing (403 dashboard_permission_denied); a developer manages them', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    const setRole = (role: 'analyst' | 'developer') => app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', owner.organisationId).execute();

    await setRole('analyst');
    for (const path of ['/webhooks/endpoints', `/webhooks/endpoints/${endpoint.id}`, `/webhooks/endpoints/${endpoint.id}/deliveries`, `/webhooks/deliveries/${sent.json.data.id}/attempts`, '/webhooks/event-types']) {
      expect((await owner.get(path)).status, path).toBe(200);
    }
    const changes: [string, string, unknown][] = [
      ['POST', '/webhooks/endpoints', { url: receiver.url() }],
      ['PATCH', `/webhooks/endpoints/${endpoint.id}`, { status: 'disabled' }],
      ['DELETE', `/webhooks/endpoints/${endpoint.id}`, {}],
      ['POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, {}],
      ['POST', `/webhooks/endpoints/${endpoint.id}/test`, {}],
      ['POST', `/webhooks/deliveries/${sent.json.data.id}/redeliver`, {}],
    ];
    for (const [method, path, body] of changes) {
      const answer = await owner.send(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'webhooks.manage', role: 'analyst' } });
    }
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).json.data.status).toBe('active');

    await setRole('developer');
    expect((await owner.send('PATCH', `/webhooks/endpoints/${endpoint.id}`, { status: 'disabled' })).status).toBe(200);
    expect((await owner.post('/webhooks/endpoints', { url: receiver.url('/dev') })).status).toBe(201);
  });

  it('refuses a change without the CSRF token (403 csrf_token_invalid) and without a session (401)', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const noCsrf = await owner.post('/webhooks/endpoints', { url: receiver.url('/csrf') }, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_token_invalid');
    const rotate = await owner.send('POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`, {}, { 'x-csrf-token': 'wrong' });
    expect(rotate.json.error).toBe('csrf_token_invalid');
    expect((await owner.get('/webhooks/endpoints')).json.data).toHaveLength(1);
    const anonymous = await fetch(`${app.url}/dashboard/api/webhooks/endpoints`);
    expect(anonymous.status).toBe(401);
  });

  it('another organisation\'s endpoint and delivery answer 404 on every route; nothing of theirs changes', async () => {
    const owner = await signedInOwner(app);
    const stranger = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    const tries: [string, string][] = [
      ['GET', `/webhooks/endpoints/${endpoint.id}`],
      ['PATCH', `/webhooks/endpoints/${endpoint.id}`],
      ['DELETE', `/webhooks/endpoints/${endpoint.id}`],
      ['POST', `/webhooks/endpoints/${endpoint.id}/rotate-secret`],
      ['POST', `/webhooks/endpoints/${endpoint.id}/test`],
      ['GET', `/webhooks/endpoints/${endpoint.id}/deliveries`],
      ['GET', `/webhooks/deliveries/${sent.json.data.id}/attempts`],
      ['POST', `/webhooks/deliveries/${sent.json.data.id}/redeliver`],
    ];
    for (const [method, path] of tries) {
      const answer = await stranger.send(method, path, method === 'PATCH' ? { status: 'disabled' } : {});
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json.error).toBe('NOT_FOUND');
    }
    expect((await stranger.get('/webhooks/endpoints')).json.data).toEqual([]);
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).json.data.status).toBe('active');
  });

  it('test and live endpoints never meet: a test endpoint is 404 in live mode, and live lists only live ones', async () => {
    const owner = await signedInOwner(app);
    const { endpoint } = await addEndpoint(owner);
    const sent = await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {});
    await dispatcher.runOnce();
    owner.mode = 'live';
    const notYet = await owner.get('/webhooks/endpoints');
    expect(notYet.status).toBe(403);
    expect(notYet.json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', owner.organisationId).execute();

    expect((await owner.get('/webhooks/endpoints')).json.data).toEqual([]);
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await owner.post(`/webhooks/endpoints/${endpoint.id}/test`, {})).status).toBe(404);
    expect((await owner.get(`/webhooks/endpoints/${endpoint.id}/deliveries`)).status).toBe(404);
    expect((await owner.get(`/webhooks/deliveries/${sent.json.data.id}/attempts`)).status).toBe(404);
    expect((await owner.post(`/webhooks/deliveries/${sent.json.data.id}/redeliver`, {})).status).toBe(404);
    // Live endpoints must be https (plain http to loopback is a test-mode convenience).
    const plain = await owner.post('/webhooks/endpoints', { url: receiver.url('/live') });
    expect(plain.status).toBe(400);
    const live = await owner.post('/webhooks/endpoints', { url: 'https://hooks.example.com/live' });
    expect(live.status).toBe(201);
    expect(live.json.data.endpoint.mode).toBe('live');
    owner.mode = 'test';
    expect((await owner.get('/webhooks/endpoints')).json.data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
  });
});
