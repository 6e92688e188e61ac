import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { startTestApp, type TestApp } from '../support/harness';

/**
 * The checkout server's own refusals link to the platform's error reference like the platform's answers do: the
 * platform's hosted mount and a checkout server a partner mounts in its own app.
 */
let app: TestApp;
const servers: http.Server[] = [];

async function mounted(apiBaseUrl: string): Promise<string> {
  const host = express();
  host.use('/checkout', createCheckoutRouter({ apiBaseUrl }));
  const server = http.createServer(host);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/checkout`;
}

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  await app?.stop();
});

describe("the checkout server's error answers", () => {
  it('on the hosted mount: no session answers 401 checkout_session_missing with a docUrl whose entry exists', async () => {
    const res = await fetch(`${app.url}/checkout/api/state`);
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: 'checkout_session_missing', docUrl: `${app.url}/docs/errors#checkout_session_missing` });
    const page = await (await fetch(body.docUrl.split('#')[0])).text();
    expect(page).toContain('id="checkout_session_missing"');
  });

  it('mounted by a partner: its refusals link to the platform it talks to, and an unreachable platform is platform_unavailable with a link', async () => {
    const own = await mounted(app.url);
    const missing = await (await fetch(`${own}/api/state`)).json();
    expect(missing).toMatchObject({ error: 'checkout_session_missing', docUrl: `${app.url}/docs/errors#checkout_session_missing` });

    // A platform nobody listens on (a loopback port just closed).
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const orphan = await mounted(`http://127.0.0.1:${port}`);
    const res = await fetch(`${orphan}/api/state`, { headers: { Authorization: 'CheckoutSession cs_test_abcdefghijklmnopqrstuvwxyz0123456789ABCD' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ error: 'platform_unavailable', docUrl: `http://127.0.0.1:${port}/docs/errors#platform_unavailable` });
  });
});
