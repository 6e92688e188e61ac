import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoRouter } from '../../demo/server/create-demo-router';
import { signPaystackPayload } from '../../server/integrations/paystack/paystack-webhook';
import { ERROR_STATUS } from '../../server/platform/domain/errors';
import { docsBaseMiddleware } from '../../server/platform/http/envelope';
import { client, startTestApp, type TestApp } from '../support/harness';
import { startDemoApp } from '../support/demo';

/**
 * The sales demo's JSON routes and the Paystack webhook answer their refusals like the API does: a code of the error
 * table and a `docUrl` to that code's entry in `docs/errors.md` (served at `/docs/errors`), on the origin the caller reached.
 */
const PAYSTACK_KEY = 'sk_test_errordocs';
const ERRORS_MD = fs.readFileSync(path.resolve('docs/errors.md'), 'utf8');

let app: TestApp;
const servers: http.Server[] = [];
let servedDocs: string;

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The answer is an error envelope whose docUrl is `<base>/docs/errors#<code>` and whose entry exists, in the file and on the page. */
function expectDocumented(body: { success?: unknown; error?: unknown; docUrl?: unknown }, base: string, code: string): void {
  expect(body, code).toMatchObject({ success: false, error: code, docUrl: `${base}/docs/errors#${code}` });
  expect(ERRORS_MD, code).toContain(`<a id="${code}"></a>`);
  expect(servedDocs, code).toContain(`<tr id="${code}">`);
}

beforeAll(async () => {
  // The webhook's provider API is never called for a refused notification; a closed loopback port keeps it local anyway.
  app = await startDemoApp({ PAYSTACK_SECRET_KEY: PAYSTACK_KEY, PAYSTACK_BASE_URL: 'http://127.0.0.1:9' });
  const page = await fetch(`${app.url}/docs/errors`);
  expect(page.status).toBe(200);
  servedDocs = await page.text();
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await app?.stop();
});

describe("the sales demo's error answers", () => {
  it('every refusal of the demo itself carries a docUrl to its entry', async () => {
    const call = (method: 'GET' | 'POST', route: string, options: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) =>
      client(app).call(method, `/demo/api${route}`, { body: options.body ?? (method === 'POST' && options.raw === undefined ? {} : undefined), ...options });
    const run = (await call('POST', '/runs', { body: { scenario: 'delegated' } })).body.data.id as string;
    const answers: Array<[string, number, Promise<{ status: number; body: any }>]> = [
      ['invalid_scenario', 400, call('POST', '/runs', { body: { scenario: 'platinum' } })],
      ['invalid_run_id', 400, call('GET', '/runs/not-a-run')],
      ['run_not_found', 404, call('GET', '/runs/demo-delegated-000000000000')],
      ['invalid_action', 400, call('POST', `/runs/${run}/actions/launch`)],
      ['action_not_available', 409, call('POST', `/runs/${run}/actions/disburse`)],
      ['invalid_request', 400, call('GET', `/runs/${run}/events?after=1`)],
      ['NOT_FOUND', 404, call('GET', '/nowhere')],
      ['UNSUPPORTED_MEDIA_TYPE', 415, call('POST', '/runs', { raw: 'scenario=delegated', headers: { 'content-type': 'application/x-www-form-urlencoded' } })],
      ['INVALID_JSON', 400, call('POST', '/runs', { raw: '{"scenario":', headers: { 'content-type': 'application/json' } })],
      ['PAYLOAD_TOO_LARGE', 413, call('POST', '/runs', { raw: JSON.stringify({ scenario: 'x'.repeat(5_000) }), headers: { 'content-type': 'application/json' } })],
    ];
    for (const [code, status, answer] of answers) {
      const res = await answer;
      expect(res.status, code).toBe(status);
      expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], code).toBe(status);
      expectDocumented(res.body, app.url, code);
    }
  });

  it("a platform refusal keeps the platform's code and entry; an uncoded refusal, a platform failure and an unreachable platform get the demo's", async () => {
    // The demo's partner backend talking to a stand-in platform that answers what each case needs.
    let answer: { status: number; body: unknown } = { status: 409, body: {} };
    const platformUrl = await listen((_req, res) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
    const host = express();
    host.use(docsBaseMiddleware(undefined, () => 'http://127.0.0.1:9'));
    host.use('/demo', createDemoRouter({ platform: app.platform, apiBaseUrl: platformUrl }));
    const demoUrl = await listen(host);
    const start = () => client({ url: demoUrl } as TestApp).post('/demo/api/runs', { scenario: 'delegated' });

    answer = { status: 409, body: { status: 409, success: false, message: 'Wrong state.', error: 'invalid_loan_state', docUrl: `${platformUrl}/docs/errors#invalid_loan_state` } };
    const refused = await start();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Wrong state.');
    // Linked on the origin the browser reached (the demo's), not the platform's internal address.
    expectDocumented(refused.body, demoUrl, 'invalid_loan_state');

    for (const [status, body] of [
      [422, { status: 422, success: false, message: 'No.' }],
      [400, { status: 400, success: false, message: 'Not ours.', error: 'some_code_of_a_newer_platform' }],
    ] as const) {
      answer = { status, body };
      const uncoded = await start();
      expect(uncoded.status).toBe(ERROR_STATUS.platform_refused);
      expectDocumented(uncoded.body, demoUrl, 'platform_refused');
    }

    answer = { status: 500, body: { status: 500, success: false, message: 'Boom.', error: 'INTERNAL_ERROR' } };
    const failed = await start();
    expect(failed.status).toBe(502);
    expectDocumented(failed.body, demoUrl, 'platform_error');

    answer = { status: 502, body: '<html>Bad gateway</html>' };
    const garbled = await start();
    expect(garbled.status).toBe(502);
    expectDocumented(garbled.body, demoUrl, 'platform_unavailable');
  });

  it('without the sandbox organisation, the demo answers 503 demo_unavailable with a docUrl', async () => {
    const plain = await startTestApp();
    try {
      const host = express();
      host.use(docsBaseMiddleware(undefined, () => 'http://127.0.0.1:9'));
      host.use('/demo', createDemoRouter({ platform: plain.platform, apiBaseUrl: plain.url }));
      const demoUrl = await listen(host);
      const res = await client({ url: demoUrl } as TestApp).post('/demo/api/runs', { scenario: 'delegated' });
      expect(res.status).toBe(503);
      expectDocumented(res.body, demoUrl, 'demo_unavailable');
    } finally {
      await plain.stop();
    }
  });
});

describe("the Paystack webhook's error answers", () => {
  const post = (body: string, signature?: string) =>
    fetch(`${app.url}/webhooks/paystack`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-paystack-signature': signature } : {}) }, body });

  it('an unsigned, a wrongly signed and a signed non-event body each carry a docUrl to their entry', async () => {
    const event = JSON.stringify({ event: 'charge.success', data: { reference: 'RPY-x', status: 'success', amount: 100 } });
    const cases: Array<[string, number, Response]> = [
      ['paystack_signature_missing', 401, await post(event)],
      ['paystack_signature_invalid', 401, await post(event, signPaystackPayload(event, 'sk_test_someoneelse'))],
      ['invalid_notification', 400, await post('[1,2]', signPaystackPayload('[1,2]', PAYSTACK_KEY))],
      ['invalid_notification', 400, await post('not json', signPaystackPayload('not json', PAYSTACK_KEY))],
    ];
    for (const [code, status, res] of cases) {
      expect(res.status, code).toBe(status);
      expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], code).toBe(status);
      expectDocumented(await res.json(), app.url, code);
    }
  });
});
