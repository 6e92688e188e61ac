import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, processRole, securitySettings } from './config';
import { startProbeServer, startWebServer, type WebServer } from './app';
import { createPlatform, liveProviders, liveProvidersLine, type Platform } from './platform/platform';
import { bootstrapSandbox } from './platform/domain/bootstrap';
import { ensureSandboxOwner } from './platform/domain/dashboard/ensure-sandbox-owner';
import { WebhookDispatcher } from './workers/webhook-dispatcher';
import { DASHBOARD_DIST, DASHBOARD_ENTRY } from './dashboard/dashboard-pages';
import { renderStartBanner } from './start-banner';
import { demoEnabled } from '../demo/server/create-demo-router';
import { startAppointmentSweep } from './workers/appointment-sweep';
import { startArrearsSweep, startCollector, startExpirySweep, startHousekeeping, startSettlementWorker } from './workers/housekeeping';

/**
 * `npm start`: one process serving the platform on the embedded database (or PostgreSQL), in one of
 * three roles (`--role` or PROCESS_ROLE): `all` (the API and every job), `api` (the API, no job) or
 * `worker` (every job, and only /healthz and /readyz over HTTP). See docs/scale/roles.md.
 */
let platform: Platform | undefined;
let web: WebServer | undefined;
let stopWorkers: Array<() => void | Promise<void>> = [];
let stopping = false;

/** Drains whatever has started so far; safe to call at any point of start-up. */
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  platform?.logger.info({ signal }, 'draining');
  try {
    await Promise.all(stopWorkers.map((stop) => stop()));
    await web?.stop();
    await platform?.close();
    platform?.logger.info('stopped cleanly');
    process.exit(0);
  } catch (error) {
    process.stderr.write(`unclean shutdown: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  // Handlers first, so a signal during start-up also ends in an orderly exit.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const loaded = loadConfig();
  const config = { ...loaded, PROCESS_ROLE: processRole(loaded) };
  const role = config.PROCESS_ROLE;
  platform = await createPlatform(config);
  platform.logger.info({ security: securitySettings(config) }, 'security settings');
  const providers = liveProviders(platform);
  platform.logger.info({ liveProviders: providers }, liveProvidersLine(providers));
  let sandboxOrganisationId: string | undefined;
  let firstStart = false;
  if (role !== 'all' && platform.dialect === 'sqlite') {
    // Allowed: api and worker processes may share one SQLite file on one machine (one writer at a time, the others wait).
    platform.logger.info({ role }, 'split roles on SQLite: every process must run on this machine against the same DATA_DIR; use PostgreSQL to scale out');
  }
  // The sandbox bootstrap prints keys and links for the API: an API (or all-in-one) process does it.
  if (config.BOOTSTRAP_SANDBOX && role !== 'worker') {
    const { created, result } = await bootstrapSandbox(platform.db, platform.secrets, platform.clock.now());
    sandboxOrganisationId = result.organisationId;
    firstStart = created;
    const banner = [
      created ? 'Sandbox created.' : 'Sandbox ready.',
      `  organisation  ${result.organisationId} (${result.organisationName})`,
      `  public key    ${result.keys.publicKey}`,
      `  secret key    ${result.keys.secretKey}`,
      `  capital pool  ${result.pool.code}: ₦${result.pool.balanceNaira.toLocaleString('en-NG')}`,
      `  products      ${result.products.map((p) => p.code).join(', ')}`,
    ].join('\n');
    process.stdout.write(`\n${banner}\n\n`);
  }
  if (stopping) return;
  web = role === 'worker' ? await startProbeServer(platform, { port: config.PORT, host: config.HOST }) : await startWebServer(platform, { port: config.PORT, host: config.HOST });
  if (sandboxOrganisationId && role !== 'worker') {
    // After the server listens: the link needs the public origin (PUBLIC_BASE_URL or the bound port).
    const owner = await ensureSandboxOwner(platform.db, { organisationId: sandboxOrganisationId, email: config.DASHBOARD_SANDBOX_OWNER_EMAIL, now: platform.clock.now() });
    if (owner) {
      const base = platform.baseUrl.replace(/\/$/, '');
      process.stdout.write(
        `Dashboard owner of the sandbox organisation: ${owner.email}\n` +
          `  choose a password (one-time link, 7 days): ${base}/dashboard/reset-password?token=${encodeURIComponent(owner.setPasswordToken)}\n` +
          `  then sign in at ${base}/dashboard\n\n`,
      );
    }
  }
  // Every background job; an `api` process starts none (worker processes run them, each safe beside others).
  if (role !== 'api') {
    stopWorkers = [startHousekeeping(platform), startExpirySweep(platform), startArrearsSweep(platform), startSettlementWorker(platform), startCollector(platform)];
    stopWorkers.push(startAppointmentSweep(platform));
    if (config.WEBHOOK_DISPATCHER_ENABLED) {
      const dispatcher = new WebhookDispatcher(platform);
      dispatcher.start();
      stopWorkers.push(() => dispatcher.stop());
    }
  }
  const jobs = role === 'api' ? 'no background jobs' : config.WEBHOOK_DISPATCHER_ENABLED ? 'all background jobs' : 'all background jobs but the webhook dispatcher';
  const served = role === 'worker' ? '/healthz and /readyz only' : `docs at ${web.url}/api-docs`;
  platform.logger.info({ url: web.url, database: platform.dialect, role }, `role ${role}: listening on ${web.url} (${served}; ${jobs})`);
  if (demoEnabled(config) && role !== 'worker') platform.logger.info(`sales demo at ${platform.baseUrl}/demo`);
  if (firstStart && role !== 'worker') {
    const dashboard = fs.existsSync(path.join(DASHBOARD_DIST, DASHBOARD_ENTRY));
    process.stdout.write(`\n${renderStartBanner({ baseUrl: platform.baseUrl.replace(/\/$/, ''), demo: demoEnabled(config), dashboard })}`);
  }
}

main().catch((error) => {
  const message = error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).stack ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
