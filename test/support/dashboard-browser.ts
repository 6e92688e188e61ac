import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { GOOD_PASSWORD, tokenFromInbox, uniqueEmail } from './dashboard';
import type { TestApp } from './harness';

/** Dashboard screenshots (look at them): test-artifacts/dashboard/. */
export const DASHBOARD_ARTIFACTS = path.resolve('test-artifacts/dashboard');
export const LAPTOP_VIEWPORT = { width: 1280, height: 800 };
export const DASHBOARD_BUNDLE = path.resolve('dist/dashboard/dashboard.js');

export function ensureDashboardBundle(): void {
  if (!fs.existsSync(DASHBOARD_BUNDLE)) throw new Error('dist/dashboard/dashboard.js is missing: run browser tests through the e2e project (its global setup builds the bundles)');
  fs.mkdirSync(DASHBOARD_ARTIFACTS, { recursive: true });
}

export async function dashboardShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(DASHBOARD_ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The signed-in page's `<main>` (pages render in shadow roots; Playwright's locators pierce them). */
export const main = (page: Page) => page.locator('dash-app main');

/**
 * In the browser: signs up a new organisation, verifies the e-mail from the sandbox inbox (the link as mailed), signs
 * in, and waits for the home page. Answers the owner's e-mail.
 */
export async function signUpInBrowser(page: Page, app: TestApp, options: { email?: string; organisationName?: string } = {}): Promise<string> {
  const email = options.email ?? uniqueEmail();
  await page.goto(`${app.url}/dashboard/sign-up`);
  await page.getByLabel('Organisation name').fill(options.organisationName ?? 'Ikeja Clinic');
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByLabel('Password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect.poll(() => page.getByText('Check your inbox').isVisible()).toBe(true);
  const token = await tokenFromInbox(app, email, 'verify-email');
  await page.goto(`${app.url}/dashboard/verify-email?token=${encodeURIComponent(token)}`);
  await expect.poll(() => page.getByText('Your e-mail is verified').isVisible()).toBe(true);
  await signInInBrowser(page, app, email);
  return email;
}

export async function signInInBrowser(page: Page, app: TestApp, email: string, password = GOOD_PASSWORD): Promise<void> {
  await page.goto(`${app.url}/dashboard/sign-in`);
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.locator('dash-app header').isVisible()).toBe(true);
}

/** A fresh browser context (own cookies) with a page. */
export async function newDashboardPage(browser: Browser, viewport = LAPTOP_VIEWPORT): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page };
}

/** Goes to a dashboard page by its path (`/keys`) and waits for its heading. */
export async function openPage(page: Page, app: TestApp, pathname: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${app.url}/dashboard${pathname}`);
  await expect.poll(() => main(page).getByRole('heading', { level: 1, name: heading }).isVisible(), { timeout: 10_000 }).toBe(true);
}
