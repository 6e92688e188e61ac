import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../server/platform/db/database';
import { fanOutEvents } from '../../server/platform/domain/webhooks/fan-out';
import { client, pushBody, type Tenant, type TestApp } from './harness';
import { fromJson } from '../../server/platform/db/database';
import { EVENT_CATALOGUE } from '../../server/platform/domain/events/catalogue';
import { SDK_EVENT_CATALOGUE } from '../../server/platform/domain/financing/sdk-catalogue';

export interface Received {
  path: string;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
  body: { id: string; event: string; timestamp: string; data: Record<string, unknown>; mode: string; createdAt: string };
  receivedAt: number;
}

/** How the receiver answers one request: a status (and headers), a delay, or a reset connection. */
export type Behaviour = { status?: number; headers?: Record<string, string>; delayMs?: number; reset?: boolean };

/**
 * A real HTTP receiver on loopback. Every request is recorded; the answer comes from `behave`
 * (default 200). `connections` counts TCP connections, to show when nothing even connected.
 */
export async function startReceiver(behave: (req: Received, index: number) => Behaviour = () => ({ status: 200 })) {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Received['body'];
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined as never;
      }
      const entry: Received = { path: req.url ?? '/', rawBody, headers: req.headers, body, receivedAt: Date.now() };
      received.push(entry);
      const behaviour = behave(entry, received.length - 1);
      const answer = () => {
        if (behaviour.reset) return req.socket.destroy();
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'text/plain', ...behaviour.headers });
        res.end(behaviour.status && behaviour.status >= 300 ? 'receiver says no' : 'ok');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  server.on('connection', () => (connections += 1));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Every event in the outbox has a name from the catalogue and a payload its (strict) schema
 * accepts: what is delivered is what the API document says. Run on every test app's database.
 */
export async function assertEventsDocumented(db: Db): Promise<void> {
  const events = await db.selectFrom('events').select(['id', 'name', 'payload', 'api']).execute();
  for (const event of events) {
    if (event.api === 'sdk') {
      const sdkSchema = SDK_EVENT_CATALOGUE[event.name as keyof typeof SDK_EVENT_CATALOGUE];
      if (!sdkSchema) throw new Error(`sdk event ${event.name} is not in the documented catalogue (server/platform/domain/events/sdk-catalogue.ts)`);
      // The stored loan.initiated keeps its URL sealed; the published payload has it open (publicSdkData).
      const { applicationUrlSealed, ...rest } = fromJson<Record<string, unknown>>(event.payload)!;
      const published = applicationUrlSealed === undefined ? rest : { ...rest, applicationUrl: 'https://sealed.example/' };
      const parsed = sdkSchema.safeParse(published);
      if (!parsed.success) throw new Error(`sdk event ${event.name} payload does not match its documented schema: ${parsed.error.message}`);
      continue;
    }
    const schema = EVENT_CATALOGUE[event.name as keyof typeof EVENT_CATALOGUE];
    if (!schema) throw new Error(`event ${event.name} is not in the documented catalogue (server/platform/domain/events/catalogue.ts)`);
    const parsed = schema.safeParse(fromJson(event.payload));
    if (!parsed.success) throw new Error(`event ${event.name} payload does not match its documented schema: ${parsed.error.message}`);
  }
}

/**
 * A test-mode delivery row of `tenant` (an endpoint on a closed loopback port, one pushed
 * pre-approval, fanned out without sending). Returns the delivery id.
 */
export async function makeDelivery(app: TestApp, tenant: Tenant): Promise<string> {
  await client(app, tenant.test).post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/closed', events: ['preapproval.received'] });
  await client(app, tenant.test).post('/v1/preapprovals', pushBody());
  await fanOutEvents(app.platform.db, app.platform.dialect, app.platform.clock.now());
  const list = await client(app, tenant.test).get('/v1/events?limit=1');
  return list.body.data[0].id;
}
