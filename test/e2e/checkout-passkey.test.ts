import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialFingerprint } from '../../server/platform/domain/passkeys/passkey';
import { offerSigningChallenge } from '../../server/shared/offer-signing-challenge';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { en } from '../../widget/i18n/en';
import { pcm } from '../../widget/i18n/pcm';
import { deepText } from '../support/browser';

/**
 * Passkeys in the hosted checkout with Chromium's virtual authenticator (CDP WebAuthn domain): after
 * the OTP the borrower creates a passkey, signs the offer with it, and the platform's stored
 * evidence and the signed offer letter show it. The page is opened on `localhost` (WebAuthn needs a
 * host name, not an IP address), the relying party `npm start` configures from PUBLIC_BASE_URL.
 */
const ARTIFACTS = path.resolve('test-artifacts/checkout');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let app: TestApp;
let tenant: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  app = await startTestApp();
  tenant = await lendingTenant(app);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A phone-sized context with a platform authenticator that verifies the user (fingerprint, face…). */
async function withVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** The borrower fails (or cancels) the fingerprint / screen-lock check from now on. */
    failUserVerification: () => cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false }),
  };
}

/** The hosted link on the relying party's host name (the app's public base URL is http://localhost:<port>). */
const onLocalhost = (applicationUrl: string) => new URL(new URL(applicationUrl).pathname, app.platform.baseUrl).href;

async function verifyPhone(page: Page, phone: string): Promise<void> {
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
}

const axe = async (page: Page) => (await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id);

describe('passkeys in the hosted checkout', () => {
  it('registers a passkey after the OTP, signs the offer with it, and the stored evidence and the signed offer letter show it', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E Passkey' });
    const page = await context.newPage();
    try {
      const authenticator = await withVirtualAuthenticator(context, page);
      await page.goto(onLocalhost(loan.applicationUrl));
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await verifyPhone(page, phone);

      // The optional offer, skippable, with focus on its heading.
      await page.getByRole('heading', { name: 'Use a passkey to sign faster' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
      expect(await page.getByRole('button', { name: 'Not now' }).count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, '12-passkey-offer.png') });
      expect(await axe(page)).toEqual([]);
      await page.getByRole('button', { name: 'Create a passkey' }).click();
      await page.getByText('Passkey saved on this device').waitFor();
      expect(await axe(page)).toEqual([]);
      const [credential] = await authenticator.credentials();
      expect(credential).toBeDefined();
      const credentialId = Buffer.from(credential!.credentialId, 'base64').toString('base64url');
      const stored = await app.platform.db.selectFrom('userPasskeys').selectAll().where('credentialId', '=', credentialId).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ rpId: 'localhost', origin: app.platform.baseUrl });
      await page.getByRole('button', { name: 'Continue' }).click();

      // The offer: both signing paths need the typed name and the agreement.
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      const withPasskey = page.getByRole('button', { name: 'Sign with passkey' });
      await withPasskey.waitFor();
      await withPasskey.click();
      expect(await page.getByLabel('Your full name (your signature)').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.screenshot({ path: path.join(ARTIFACTS, '13-offer-passkey.png'), fullPage: true });
      expect(await axe(page)).toEqual([]);
      await withPasskey.click();
      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();

      const db = app.platform.db;
      const consent = await db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(consent).toMatchObject({ kind: 'accept', signatureFullName: 'Ada Obi', userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E Passkey', documentReference: loan.documentReference });
      const evidence = await db.selectFrom('loanConsentPasskeys').selectAll().where('consentId', '=', consent.id).executeTakeFirstOrThrow();
      expect(evidence).toMatchObject({ credentialId, passkeyId: stored.id, rpId: 'localhost', origin: app.platform.baseUrl, documentReference: loan.documentReference, loanId: loan.id });
      expect(Boolean(evidence.verified)).toBe(true);
      expect(Boolean(evidence.userVerified)).toBe(true);
      expect(evidence.challenge).toBe(offerSigningChallenge({ loanId: loan.id, documentReference: loan.documentReference, nonce: evidence.nonce }));
      const clientData = JSON.parse(Buffer.from(evidence.clientDataJson, 'base64url').toString('utf8'));
      expect(clientData).toMatchObject({ type: 'webauthn.get', challenge: evidence.challenge, origin: app.platform.baseUrl });
      expect((await db.selectFrom('passkeyChallenges').select('consumedAt').where('nonce', '=', evidence.nonce).executeTakeFirstOrThrow()).consumedAt).not.toBeNull();

      // The signed offer letter prints it.
      const link = await fetch(`${app.url}/v1/loans/${loan.id}/offer-letter`, { headers: { 'X-API-Public-Key': tenant.test.publicKey, 'X-API-Secret-Key': tenant.test.secretKey } });
      const url = ((await link.json()) as { data: { url: string } }).data.url;
      const pdf = await fetch(new URL(new URL(url).pathname + new URL(url).search, app.url));
      expect(pdf.status).toBe(200);
      const { text } = await extractText(new Uint8Array(await pdf.arrayBuffer()), { mergePages: true });
      expect(text).toContain('Accepted electronically by Ada Obi');
      expect(text).toContain('Verified: confirmed with the borrower\'s passkey');
      expect(text).toContain(`Fingerprint ${credentialFingerprint(credentialId)} (site localhost)`);
      expect(text).toContain(`(${evidence.verifiedAt})`);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('skips the passkey offer with "Not now" and signs with the typed name; without WebAuthn (a webview) there is no offer and no passkey button', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await withVirtualAuthenticator(context, page);
      await page.goto(onLocalhost(loan.applicationUrl));
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Use a passkey to sign faster' }).waitFor();
      await page.getByRole('button', { name: 'Not now' }).click();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      expect(await page.getByText('Step 2 of 4').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Sign with passkey' }).count()).toBe(0);
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
      expect(await app.platform.db.selectFrom('loanConsentPasskeys').select('id').where('loanId', '=', loan.id).execute()).toEqual([]);
    } finally {
      await context.close();
    }

    // A webview without WebAuthn: PublicKeyCredential is absent, so nothing about passkeys shows.
    const second = uniquePhone();
    const { loan: other } = await offeredLoan(app, tenant, { phone: second });
    const webview = await browser.newContext({ viewport: { width: 360, height: 640 } });
    await webview.addInitScript(() => {
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    });
    const view = await webview.newPage();
    try {
      await view.goto(onLocalhost(other.applicationUrl));
      await verifyPhone(view, second);
      await view.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      expect(await view.getByRole('heading', { name: 'Use a passkey to sign faster' }).count()).toBe(0);
      expect(await view.getByRole('button', { name: 'Sign with passkey' }).count()).toBe(0);
    } finally {
      await webview.close();
    }
  }, 90_000);

  it('speaks Pidgin too: the passkey offer, its result and the passkey button, with no English left and axe clean', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await withVirtualAuthenticator(context, page);
      await page.goto(onLocalhost(loan.applicationUrl));
      await page.getByLabel(en['checkout.language']).selectOption('pcm');
      await page.getByRole('button', { name: pcm['otp.send']! }).click();
      const code = page.getByLabel(/Code wey we send to/);
      await code.waitFor();
      await code.fill(await latestOtp(app, phone));
      await page.getByRole('heading', { name: pcm['passkey.offer.title']! }).waitFor();
      const passkeyKeys = (Object.keys(en) as Array<keyof typeof en>).filter((k) => k.startsWith('passkey.') && en[k] !== pcm[k]);
      const englishLeft = async () => {
        const text = await deepText(page, 'lc-checkout');
        return passkeyKeys.filter((k) => text.includes(en[k]));
      };
      expect(await englishLeft()).toEqual([]);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'pcm-passkey-offer.png') });
      await page.getByRole('button', { name: pcm['passkey.create']! }).click();
      await page.getByText(pcm['passkey.saved']!).waitFor();
      expect(await englishLeft()).toEqual([]);
      await page.getByRole('button', { name: pcm['passkey.continue']! }).click();
      await page.getByRole('heading', { name: pcm['step.offer']! }).waitFor();
      await page.getByRole('button', { name: pcm['passkey.sign']! }).waitFor();
      expect(await axe(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('when the device check fails or is cancelled, then it says so and the borrower moves on without a passkey (no dead end)', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      const authenticator = await withVirtualAuthenticator(context, page);
      await authenticator.failUserVerification();
      await page.goto(onLocalhost(loan.applicationUrl));
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Use a passkey to sign faster' }).waitFor();
      await page.getByRole('button', { name: 'Create a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: 'You can try again, or continue without a passkey.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, '14-passkey-failed.png') });
      await page.getByRole('button', { name: 'Not now' }).click();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      expect(await authenticator.credentials()).toEqual([]);
      const borrower = await app.platform.db.selectFrom('borrowers').select('userId').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
      expect(await app.platform.db.selectFrom('userPasskeys').select('id').where('userId', '=', borrower.userId!).execute()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
