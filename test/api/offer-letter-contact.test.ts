import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { uniquePhone } from '../support/checkout';

/** The offer letter names whom to complain to and quotes the rate as the checkout does. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

async function letterText(tenant: Awaited<ReturnType<typeof lendingTenant>>, loanId: string): Promise<string> {
  const link = await client(app, tenant.test).get(`/v1/loans/${loanId}/offer-letter`);
  expect(link.status).toBe(200);
  const pdf = await fetch(link.body.data.url);
  expect(pdf.status).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer())), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('offer letter: the lender\'s complaints contact and the rate as quoted', () => {
  it('when the lender set a support e-mail and phone in its checkout settings, then complaints go to them, not to the platform', async () => {
    const tenant = await lendingTenant(app);
    const settings = { supportEmail: 'complaints@acme-credit.example', supportPhone: '+2347001234567' };
    expect((await client(app, tenant.test).call('PATCH', '/v1/checkout-settings', { body: settings })).status).toBe(200);
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });

    const text = await letterText(tenant, loan.id);

    expect(text).toContain('e-mail complaints@acme-credit.example or call +234 700 123 4567');
    expect(text).not.toContain(app.platform.config.COMPLAINTS_EMAIL);
  });

  it('when only the live mode has a support contact, then a test-mode letter falls back to the platform\'s complaints address', async () => {
    const tenant = await lendingTenant(app);
    expect((await client(app, tenant.live).call('PATCH', '/v1/checkout-settings', { body: { supportEmail: 'live-only@acme-credit.example' } })).status).toBe(200);
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });

    const text = await letterText(tenant, loan.id);

    expect(text).toContain(`e-mail ${app.platform.config.COMPLAINTS_EMAIL}.`);
    expect(text).not.toContain('live-only@acme-credit.example');
  });

  it('when the product quotes the rate a month, then the letter says it a month, as the checkout shows it', async () => {
    const tenant = await lendingTenant(app, { product: { rateDisplay: 'monthly' } });
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const { interestRateBps } = await app.platform.db.selectFrom('loans').select('interestRateBps').where('id', '=', loan.id).executeTakeFirstOrThrow();
    const monthly = Math.round(interestRateBps / 12);

    const text = await letterText(tenant, loan.id);

    expect(text).toContain(`Interest rate ${Math.floor(monthly / 100)}.${String(monthly % 100).padStart(2, '0')}% a month`);
    expect(text).not.toMatch(/Interest rate \d+\.\d\d% per year/);
  });
});
