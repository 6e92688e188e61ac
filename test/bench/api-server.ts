/**
 * The process the `api` benchmark loads: the real platform (SQLite, fresh data dir, sandbox
 * bootstrapped) and, in the same process, a bare Express "hello" app as the baseline.
 * Prints one JSON line with both URLs and the sandbox keys, then serves until killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { startWebServer } from '../../server/app';
import { createPlatform } from '../../server/platform/platform';
import { createLogger } from '../../server/platform/log/create-logger';
import { bootstrapSandbox, SANDBOX_POOL_CODE } from '../../server/platform/domain/bootstrap';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { ringOutboxAcrossProcesses } from '../../server/workers/outbox-bell';

// BENCH_DATA_DIR lets a second process share the SQLite file (the webhooks drain phase).
const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  // The benchmark measures throughput, not the limiter's refusal: give the one key room.
  RATE_LIMIT_READS: '100000000',
  RATE_LIMIT_WRITES: '100000000',
  BOOTSTRAP_SANDBOX: 'false',
  // The webhooks benchmark's receiver listens on loopback.
  WEBHOOK_ALLOW_LOOPBACK: 'true',
});
// Request logging stays on at info, written to /dev/null, so its cost is part of the figure.
// The product's logger (masking included), so the numbers are the product's.
const logger = createLogger(config.LOG_LEVEL, pino.destination({ dest: '/dev/null', sync: false }));
const platform = await createPlatform(config, { logger });
const { result } = await bootstrapSandbox(platform.db, platform.secrets, new Date());
// The sandbox pool (₦50 million) lends 5,000 of the benches' ₦10,000 loans; a 30-minute soak makes many more.
await inUnitOfWork(platform.db, (trx) =>
  fundPool(trx, { organisationId: result.organisationId, mode: 'test', code: SANDBOX_POOL_CODE, amountKobo: 1_000_000_000_00, now: new Date() }),
);
const web = await startWebServer(platform, { port: 0, host: '127.0.0.1' });
// As `npm start` does: events committed here wake the dispatchers of other processes (the webhooks benchmark's split runs).
const stopRinging = ringOutboxAcrossProcesses(platform.roomBus, logger);
// The webhooks benchmark runs the dispatcher in the server process, as `npm start` does.
const dispatcher = process.env.BENCH_DISPATCHER === 'true' ? new WebhookDispatcher(platform) : undefined;
dispatcher?.start();

const bare = express();
bare.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((r) => bareServer.once('listening', r));
const barePort = (bareServer.address() as { port: number }).port;

process.stdout.write(
  `${JSON.stringify({ apiUrl: web.url, bareUrl: `http://127.0.0.1:${barePort}`, keys: result.keys, pid: process.pid })}\n`,
);
process.on('SIGTERM', async () => {
  bareServer.close();
  stopRinging();
  await dispatcher?.stop();
  await web.stop();
  await platform.close();
  if (!process.env.BENCH_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
