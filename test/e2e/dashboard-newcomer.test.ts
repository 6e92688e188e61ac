import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freshDatabaseEnv } from '../support/harness';
import { buildServiceBundle, startServiceProcess } from '../support/service-process';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, newDashboardPage } from '../support/dashboard-browser';
import { GOOD_PASSWORD } from '../support/dashboard';

/**
 * A newcomer reaches the dashboard from `npm start` alone: the sandbox's first start prints the owner's
 * e-mail and a one-time link; the link opens the page that sets the password; the owner signs in.
 */
describe('a newcomer from npm start to the dashboard', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let bundle: { file: string; remove(): void };
  let browser: Browser;
  beforeAll(async () => {
    ensureDashboardBundle();
    database = await freshDatabaseEnv();
    bundle = await buildServiceBundle(`newcomer-${path.basename(database.dataDir)}`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    bundle?.remove();
    await database?.drop();
  });

  it('follows the printed link, chooses a password, signs in and sees the sandbox organisation', async () => {
    const service = await startServiceProcess(bundle.file, database.env);
    try {
      await expect.poll(() => /choose a password \(one-time link, 7 days\): (\S+)/.exec(service.output())?.[1], { timeout: 10_000 }).toBeTruthy();
      const link = /choose a password \(one-time link, 7 days\): (\S+)/.exec(service.output())![1]!;
      const email = /Dashboard owner of the sandbox organisation: (\S+)/.exec(service.output())![1]!;
      expect(new URL(link).pathname).toBe('/dashboard/reset-password');

      const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
      await page.goto(link);
      await page.getByLabel('Password').fill(GOOD_PASSWORD);
      await page.getByRole('button', { name: 'Save the new password' }).click();
      // Its first password: set, not "changed" (no other session ever existed).
      await expect.poll(() => page.getByText('Your password is set. Sign in with it.').isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Work e-mail').fill(email);
      await page.getByLabel('Password').fill(GOOD_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.locator('dash-app header').textContent()).toContain('owner');
      expect(await page.locator('dash-app header').textContent()).toMatch(/Sandbox|sandbox/);
      await dashboardShot(page, 'newcomer-home-phone');
      await context.close();

      // The link is single-use: the next start prints none (the owner has a password now).
      service.kill('SIGTERM');
      expect(await service.exit).toBe(0);
      const again = await startServiceProcess(bundle.file, database.env);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(again.output()).not.toContain('choose a password');
      again.kill('SIGTERM');
      await again.exit;
    } finally {
      service.kill('SIGTERM');
    }
  }, 90_000);
});
