import { ConfigError, loadConfig } from './config';
import { startWebServer } from './app';
import { createPlatform } from './platform/platform';
import { bootstrapSandbox } from './platform/domain/bootstrap';
import { startHousekeeping } from './workers/housekeeping';

/** `npm start`: one process serving the platform on the embedded database (or PostgreSQL). */
async function main(): Promise<void> {
  const config = loadConfig();
  const platform = await createPlatform(config);
  const log = platform.logger;
  if (config.BOOTSTRAP_SANDBOX) {
    const { created, result } = await bootstrapSandbox(platform.db, platform.secrets, platform.clock.now());
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
  const web = await startWebServer(platform, { port: config.PORT, host: config.HOST });
  const stopHousekeeping = startHousekeeping(platform);
  log.info({ url: web.url, database: platform.dialect }, `listening on ${web.url} (docs at ${web.url}/api-docs)`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    try {
      stopHousekeeping();
      await web.stop();
      await platform.close();
      log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  const message = error instanceof ConfigError ? error.message : `failed to start: ${(error as Error).stack ?? error}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
