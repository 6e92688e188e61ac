import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'vite';

/**
 * The browser tests' bundles, built once before any browser test file runs (and not by each file:
 * two builds emptying the same output folder would pull the bundle from under a running test).
 */
export async function setup(): Promise<void> {
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn' });
  // The sales demo page (npm run build:demo).
  await build({ configFile: path.resolve('demo/vite.config.ts'), logLevel: 'warn' });
  // The telemedicine meeting page (npm run build:meeting).
  await build({ configFile: path.resolve('widget/meeting/vite.config.ts'), logLevel: 'warn' });
  // The organisation dashboard (npm run build:dashboard).
  await build({ configFile: path.resolve('dashboard/vite.config.ts'), logLevel: 'warn' });
  // The client package, built and packed (npm run build:sdk): the example app and the README's quick start use it.
  execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'sdk/scripts/build.ts'], { stdio: 'pipe' });
}
