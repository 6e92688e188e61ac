import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

/** Browser tests: the machine's Chromium (never a Playwright download), screenshots at 360×640 under test-artifacts/checkout/. */
export const ARTIFACTS = path.resolve('test-artifacts/checkout');
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const PHONE_VIEWPORT = { width: 360, height: 640 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** The bundle the checkout server serves at /checkout/widget.js. */
export const WIDGET_BUNDLE = path.resolve('dist/widget/checkout.js');

/**
 * Builds the widget into a private folder and moves the bundle into place with one rename, so
 * browser test files running side by side never serve a half-written or emptied bundle.
 */
export async function buildWidget(): Promise<void> {
  const outDir = path.resolve(`dist/widget-build-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    fs.mkdirSync(path.dirname(WIDGET_BUNDLE), { recursive: true });
    fs.renameSync(path.join(outDir, 'checkout.js'), WIDGET_BUNDLE);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}

/** axe-core's violations on the page as it is now, as `rule: target…` lines (empty when none). */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The viewport as the borrower sees it (360×640 in these tests). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}
