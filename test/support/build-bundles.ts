import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The browser tests' bundles, built once before any browser test file runs (and not by each file:
 * two builds emptying the same output folder would pull the bundle from under a running test).
 * They are `npm start`'s own bundles, built the way it builds them (`scripts/build-changed.mjs`, which
 * stamps each one): a test that starts the platform as a person does (`npm start`, `npm run rehearse`,
 * `npm run admin`) then finds every bundle fresh and rebuilds none under the other tests' feet.
 */
export async function setup(): Promise<void> {
  execFileSync(process.execPath, [path.resolve('scripts/build-changed.mjs')], { stdio: 'pipe' });
  // The client package, built and packed (npm run build:sdk): the example app and the README's quick start use it.
  execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'sdk/scripts/build.ts'], { stdio: 'pipe' });
}
