import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv, pushBody } from '../support/harness';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startReceiver, waitFor, type Receiver } from '../support/webhooks';

/**
 * A split deployment on PostgreSQL: an `api` process commits the event, the `worker` process's dispatcher hears of it
 * over LISTEN/NOTIFY (server/workers/outbox-bell.ts) and delivers it at once, not at its next poll. The worker polls
 * every 30 s here, so only the wake-up can deliver within the few seconds the test waits.
 */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
let receiver: Receiver;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  database = await freshDatabaseEnv();
  bundle = await buildServiceBundle(`wakeup-${path.basename(database.dataDir)}`);
  receiver = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  await receiver.stop();
  bundle.remove();
  await database.drop();
});

describe('a worker process beside an api process', () => {
  it('delivers an event the api process committed within seconds, although it polls only every 30 s', async () => {
    const env = { ...database.env, WEBHOOK_POLL_INTERVAL_MS: '30000' };
    const api = await startServiceProcess(bundle.file, { ...env, PROCESS_ROLE: 'api' });
    running.push(api);
    const worker = await startServiceProcess(bundle.file, { ...env, PROCESS_ROLE: 'worker' });
    running.push(worker);
    const publicKey = /public key\s+(pk_test_\w+)/.exec(api.output())![1]!;
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(api.output())![1]!;
    const headers = { 'content-type': 'application/json', Authorization: `ApiKey ${publicKey}:${secretKey}` };
    expect((await fetch(`${api.url}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url('/split'), events: ['preapproval.received'] }) })).status).toBe(201);
    // The worker's first pass (at start) found nothing; it now sleeps for up to 30 s unless woken.
    await new Promise((r) => setTimeout(r, 500));

    for (let round = 1; round <= 3; round++) {
      const pushed = Date.now();
      expect((await fetch(`${api.url}/v1/preapprovals`, { method: 'POST', headers, body: JSON.stringify(pushBody()) })).status).toBe(202);
      await waitFor(() => receiver.received.length >= round, `delivery ${round}`, 8_000);
      expect(Date.now() - pushed).toBeLessThan(8_000);
    }
    api.kill('SIGTERM');
    worker.kill('SIGTERM');
    expect(await api.exit, api.output()).toBe(0);
    expect(await worker.exit, worker.output()).toBe(0);
  }, 120_000);
});
