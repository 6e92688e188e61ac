import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** The console's browser tests: their screenshots' folder and the two sizes every console screen is tried at. */
export const OPS_ARTIFACTS = path.resolve('test-artifacts/ops');
export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 640 };

/** The console's bundle is there (the e2e project's global setup builds it) and the screenshots' folder exists. */
export function ensureOpsBundle(): void {
  if (!fs.existsSync(path.resolve('dist/ops/ops.js'))) throw new Error('dist/ops/ops.js is missing: run browser tests through the e2e project (its global setup builds the bundles)');
  fs.mkdirSync(OPS_ARTIFACTS, { recursive: true });
}

/** A full-page screenshot of a console screen, `<prefix><name>.png` in test-artifacts/ops/. */
export const opsShot = (page: Page, name: string, prefix = '') => page.screenshot({ path: path.join(OPS_ARTIFACTS, `${prefix}${name}.png`), fullPage: true });
