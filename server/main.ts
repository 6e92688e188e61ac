import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, processRole, securitySettings } from './config';
import { startProbeServer, startWebServer, type WebServer } from './app';
import { createPlatform, liveProviders, liveProvidersLine, type Platform } from './platform/platform';
import { bootstrapSandbox } from './platform/domain/bootstrap';
import { ensureSandboxOwner } from './platform/domain/dashboard/ensure-sandbox-owner';
import { WebhookDispatcher } from './workers/webhook-dispatcher';
import { ringOutboxAcrossProcesses } from './workers/outbox-bell';
import { DASHBOARD_DIST, DASHBOARD_ENTRY } from './dashboard/dashboard-pages';
import { renderStartBanner } from './start-banner';
import { removeRehearsalMarker, writeRehearsalMarker } from './rehearsal-marker';
import { demoEnabled } from '../demo/server/create-demo-router';
import { startAppointmentSweep } from './workers/appointment-sweep';
import { startMandateSweep } from './workers/mandate-sweep';
import { startBorrowerReminders } from './workers/borrower-reminders';
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
/** What start-up printed for people (the sandbox keys, the owner's one-time link, where everything is), to print again on demand. */
let startText = '';
const printForPeople = (text: string) => {
  startText += text;
  process.stdout.write(text);
};

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
  // A second guard for DATA_DIR (database, mail, recordings, keys): whatever this process creates
  // is owner-only even where a writer forgot; every writer still sets its modes itself.
  process.umask(0o077);

  const loaded = loadConfig();
  const config = { ...loaded, PROCESS_ROLE: processRole(loaded) };
  const role = config.PROCESS_ROLE;
  platform = await createPlatform(config);
  platform.logger.info({ security: securitySettings(config) }, 'security settings');
  // Events committed here wake the webhook dispatchers of other processes too (PostgreSQL or Redis; nothing to do on SQLite).
  stopWorkers.push(ringOutboxAcrossProcesses(platform.roomBus, platform.logger));
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
    printForPeople(`\n${banner}\n\n`);
  }
  if (stopping) return;
  // A rehearsal's marker left by one that crashed must not outlive it on a database that is not a rehearsal's.
  if (!config.REHEARSAL && !config.DATABASE_URL) removeRehearsalMarker(config.DATA_DIR);
  web = role === 'worker' ? await startProbeServer(platform, { port: config.PORT, host: config.HOST }) : await startWebServer(platform, { port: config.PORT, host: config.HOST });
  if (sandboxOrganisationId && role !== 'worker') {
    // After the server listens: the link needs the public origin (PUBLIC_BASE_URL or the bound port).
    const owner = await ensureSandboxOwner(platform.db, { organisationId: sandboxOrganisationId, email: config.DASHBOARD_SANDBOX_OWNER_EMAIL, now: platform.clock.now() });
    if (owner) {
      const base = platform.baseUrl.replace(/\/$/, '');
      printForPeople(
        `Dashboard owner of the sandbox organisation: ${owner.email}\n` +
          `  choose a password (one-time link, 7 days): ${base}/dashboard/reset-password?token=${encodeURIComponent(owner.setPasswordToken)}\n` +
          `  then sign in at ${base}/dashboard\n\n`,
      );
    }
  }
  // Every background job; an `api` process starts none (worker processes run them, each safe beside others).
  if (role !== 'api') {
    stopWorkers.push(startHousekeeping(platform), startExpirySweep(platform), startArrearsSweep(platform), startSettlementWorker(platform), startCollector(platform));
    stopWorkers.push(startAppointmentSweep(platform), startMandateSweep(platform), startBorrowerReminders(platform));
    if (config.WEBHOOK_DISPATCHER_ENABLED) {
      const dispatcher = new WebhookDispatcher(platform);
      dispatcher.start();
      stopWorkers.push(() => dispatcher.stop());
    }
  }
  if (config.REHEARSAL) {
    // The operator CLI's `loan make-due` moves live loans only while this file says a rehearsal runs here (docs/rehearsal.md).
    const dataDir = config.DATA_DIR;
    writeRehearsalMarker(dataDir, { pid: process.pid, baseUrl: platform.baseUrl, startedAt: platform.clock.now().toISOString() });
    stopWorkers.push(() => removeRehearsalMarker(dataDir));
    process.on('exit', () => removeRehearsalMarker(dataDir));
  }
  const jobs = role === 'api' ? 'no background jobs' : config.WEBHOOK_DISPATCHER_ENABLED ? 'all background jobs' : 'all background jobs but the webhook dispatcher';
  const served = role === 'worker' ? '/healthz and /readyz only' : `docs at ${web.url}/api-docs`;
  platform.logger.info({ url: web.url, database: platform.dialect, role }, `role ${role}: listening on ${web.url} (${served}; ${jobs})`);
  if (demoEnabled(config) && role !== 'worker') platform.logger.info(`sales demo at ${platform.baseUrl}/demo`);
  if (role !== 'worker') {
    const dashboard = fs.existsSync(path.join(DASHBOARD_DIST, DASHBOARD_ENTRY));
    const rehearsal = config.REHEARSAL ? { liveProviders: providers, keys: 'the live key pair `npm run rehearse` printed (docs/rehearsal.md)' } : {};
    const banner = `\n${renderStartBanner({ baseUrl: platform.baseUrl.replace(/\/$/, ''), demo: demoEnabled(config), dashboard, inbox: config.SANDBOX_ROUTES_ENABLED, ...rehearsal })}`;
    // The first start shows the block, and every rehearsal (about live mode, its providers named); later starts keep it for the reprint only.
    if (firstStart || config.REHEARSAL) printForPeople(banner);
    else startText += banner;
  }
  reprintOnDemand();
}

/**
 * Prints the start-up text again (keys, the owner's link, the links block) when asked: Enter in the terminal that runs
 * the server, or `kill -USR2 <pid>` from another. Logs scroll; the one-time link should not be lost with them.
 */
function reprintOnDemand(): void {
  if (!startText) return;
  const hint = `${process.stdin.isTTY ? 'Press Enter or send' : 'Send'} SIGUSR2 (kill -USR2 ${process.pid}) to print these links again.\n\n`;
  process.stdout.write(hint);
  const reprint = () => process.stdout.write(`${startText}${hint}`);
  process.on('SIGUSR2', reprint);
  if (process.stdin.isTTY) {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', reprint);
    // The terminal's input must not keep the process alive once it drains.
    process.stdin.unref?.();
  }
}

main().catch((error) => {
  const message = error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).stack ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
