import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv, pushBody } from '../support/harness';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startReceiver, waitFor, type Receiver } from '../support/webhooks';

/** Two service processes, each with its dispatcher, on one PostgreSQL database: no attempt goes out twice. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
let receiver: Receiver;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  database = await freshDatabaseEnv();
  bundle = await buildServiceBundle(`dispatchers-${path.basename(database.dataDir)}`);
  receiver = await startReceiver(() => ({ status: 200, delayMs: 20 }));
});
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  await receiver.stop();
  bundle.remove();
  await database.drop();
});

describe('two dispatcher processes', () => {
  it('share the deliveries without sending any attempt twice', async () => {
    const env = { ...database.env, WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_CONCURRENCY: '16', LOG_LEVEL: 'info' };
    const a = await startServiceProcess(bundle.file, env);
    running.push(a);
    const b = await startServiceProcess(bundle.file, env);
    running.push(b);
    const publicKey = /public key\s+(pk_test_\w+)/.exec(a.output())![1]!;
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(a.output())![1]!;
    const headers = { 'content-type': 'application/json', Authorization: `ApiKey ${publicKey}:${secretKey}` };
    expect((await fetch(`${a.url}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url('/pair') }) })).status).toBe(201);
    expect((await fetch(`${b.url}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url('/pair') }) })).status).toBe(201);

    // 150 pushes through both processes: 150 events, two endpoints each → 300 deliveries.
    const pushes = Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b));
    for (let i = 0; i < pushes.length; i += 10) {
      const statuses = await Promise.all(
        pushes.slice(i, i + 10).map(async (p) => (await fetch(`${p.url}/v1/preapprovals`, { method: 'POST', headers, body: JSON.stringify(pushBody()) })).status),
      );
      expect(statuses.every((s) => s === 202)).toBe(true);
    }
    await waitFor(() => receiver.received.length >= 300, '300 deliveries', 60_000);
    await new Promise((r) => setTimeout(r, 500));

    const attempts = receiver.received.map((r) => `${r.headers['x-service-delivery-id']}#${r.headers['x-service-delivery-attempt']}`);
    expect(attempts).toHaveLength(300);
    expect(new Set(attempts).size).toBe(300);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery-id'])).size).toBe(300);
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(150);
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
  }, 120_000);
});
