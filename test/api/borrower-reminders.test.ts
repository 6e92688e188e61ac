import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { myLoanUrl, sendBorrowerReminders } from '../../server/platform/domain/borrower-loans/reminders';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { uniquePhone } from '../support/checkout';
import { lentLoan } from '../support/borrower-loans';

/**
 * Borrower reminders by text on the test clock. Lagos is UTC+1 all year: the default quiet hours, 21:00–08:00 Lagos,
 * are 20:00–07:00 UTC. Each test lends at a time of its own, later than the one before, so what the worker sends for
 * another test's loans never lands in its window (texts are read per phone, events per loan).
 */
const clock = new FakeClock('2026-03-02T12:00:00.000Z');
const SENDS_PER_HOUR = 3;
const VERIFIES_PER_HOUR = 4;
let app: TestApp;
let tenant: LendingTenant;
let quiet: LendingTenant;
let off: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: {
      BORROWER_SIGN_IN_SENDS_PER_IP_PER_HOUR: String(SENDS_PER_HOUR),
      BORROWER_SIGN_IN_VERIFIES_PER_IP_PER_HOUR: String(VERIFIES_PER_HOUR),
      // The hosted checkout behind a proxy on this machine: it reads the browser's address from X-Forwarded-For.
      CHECKOUT_TRUST_PROXY: 'loopback',
    },
  });
  tenant = await lendingTenant(app, { product: { reminders: { enabled: true, leadDays: 5 } } });
  quiet = await lendingTenant(app);
  off = await lendingTenant(app, { product: { reminders: { enabled: false, leadDays: 3 } } });
});
afterAll(() => app.stop());

const DAY = 86_400_000;
const remind = () => sendBorrowerReminders(app.platform, clock.now());

/** Every text the sandbox SMS sender took for the phone, oldest first (its inbox page shows the last 24 hours only). */
async function inbox(phone: string): Promise<string[]> {
  const rows = await app.platform.db.selectFrom('sandboxSms').select(['body', 'createdAt', 'id']).where('phone', '=', phone).orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => r.body);
}

const reminderEvents = async (organisationId: string, loanId: string) =>
  (await eventsOf(app, organisationId)).filter((e) => e.name === 'loan.reminder.sent' && e.data.loanId === loanId);

/** A lent loan with an active direct debit, at `at` (12:00 UTC = 13:00 Lagos), and its first instalment. */
async function lendAt(at: string, lender: LendingTenant, locale?: string) {
  clock.set(at);
  const phone = uniquePhone();
  const { loan } = await lentLoan(app, lender, phone);
  if (locale) {
    const { borrowerId } = await app.platform.db.selectFrom('loans').select('borrowerId').where('id', '=', loan.id).executeTakeFirstOrThrow();
    await app.platform.db.updateTable('borrowers').set({ preferredLocale: locale }).where('id', '=', borrowerId).execute();
  }
  const schedule = (await client(app, lender.test).get(`/v1/loans/${loan.id}/schedule`)).body.data as Array<{ dueDate: string; totalKobo: number }>;
  return { loan, phone, first: schedule[0]!, due: new Date(schedule[0]!.dueDate) };
}

/** Midnight Lagos (23:00 UTC the day before) of the Lagos day `days` before `due`'s. */
const lagosMidnightBefore = (due: Date, days: number) => {
  const lagos = new Date(due.getTime() + 3_600_000);
  return new Date(Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth(), lagos.getUTCDate() - days) - 3_600_000);
};

describe('a reminder before each direct debit', () => {
  it('goes on the product\'s lead day, not before; due inside quiet hours it waits until they end, then goes once, in English, with the amount and date', async () => {
    const { loan, phone, due } = await lendAt('2026-03-02T12:00:00.000Z', tenant);
    expect(due.toISOString().slice(11)).toBe('12:00:00.000Z');
    const leadDay = lagosMidnightBefore(due, 5);

    // The day before the lead day, in the afternoon: not yet.
    clock.set(new Date(leadDay.getTime() - DAY + 15 * 3_600_000));
    await remind();
    expect(await inbox(phone)).toEqual([]);

    // The lead day has begun (00:30 Lagos), inside the quiet hours: it waits.
    clock.set(new Date(leadDay.getTime() + 30 * 60_000));
    expect((await remind()).waiting).toBeGreaterThanOrEqual(1);
    clock.set(new Date(leadDay.getTime() + 7 * 3_600_000 + 59 * 60_000)); // 07:59 Lagos
    await remind();
    expect(await inbox(phone)).toEqual([]);

    // 08:00 Lagos: the quiet hours end and it goes.
    clock.set(new Date(leadDay.getTime() + 8 * 3_600_000));
    await remind();
    const texts = await inbox(phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/will be taken by direct debit on \d{1,2} [A-Z][a-z]{2} 2026\./);
    expect(texts[0]).toMatch(/^[^:]+: reminder, NGN [\d,]+\.\d\d for your loan/);

    // Not twice: later runs, the same day and the next.
    await remind();
    clock.advance(DAY);
    await remind();
    expect(await inbox(phone)).toHaveLength(1);
    const events = await reminderEvents(tenant.organisationId, loan.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ kind: 'debit_upcoming', installmentNumber: 1, dueDate: due.toISOString(), locale: 'en' });
    const rows = await app.platform.db.selectFrom('borrowerReminders').selectAll().where('loanId', '=', loan.id).execute();
    expect(rows).toEqual([expect.objectContaining({ kind: 'debit_upcoming', status: 'sent', locale: 'en' })]);
  });

  it('with the default lead of 3 days, in the borrower\'s language (Hausa); two workers at once send it once', async () => {
    const { loan, phone, due } = await lendAt('2026-06-01T12:00:00.000Z', quiet, 'ha');
    const leadDay = lagosMidnightBefore(due, 3);
    clock.set(new Date(leadDay.getTime() - 60_000));
    await remind();
    expect(await inbox(phone)).toEqual([]);
    clock.set(new Date(leadDay.getTime() + 9 * 3_600_000)); // 09:00 Lagos on the lead day
    await Promise.all([remind(), remind(), remind()]);
    const texts = await inbox(phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/za a cire NGN [\d,]+\.\d\d na lamuninku ta cirewa kai tsaye ranar/);
    expect(await reminderEvents(quiet.organisationId, loan.id)).toHaveLength(1);
  });

  it('an organisation\'s own quiet hours hold: with 06:00–22:00 quiet, a reminder due at 09:00 Lagos waits until 22:00', async () => {
    const { configureOrganisation } = await import('../../server/platform/domain/organisations/organisation');
    const own = await lendingTenant(app);
    await configureOrganisation(app.platform.db, own.organisationId, { quietHoursStart: '06:00', quietHoursEnd: '22:00', quietHoursTimeZone: 'Africa/Lagos' }, clock.now());
    const { phone, due } = await lendAt('2026-09-01T12:00:00.000Z', own);
    const leadDay = lagosMidnightBefore(due, 3);
    clock.set(new Date(leadDay.getTime() + 9 * 3_600_000));
    await remind();
    expect(await inbox(phone)).toEqual([]);
    clock.set(new Date(leadDay.getTime() + 22 * 3_600_000));
    await remind();
    expect(await inbox(phone)).toHaveLength(1);
  });

  it('an instalment due sooner whose (shorter) lead day has not come never holds up one behind it whose day has', async () => {
    // Lead 3 (quiet) due on 1 Nov at 13:00 Lagos; lead 5 (tenant) due a day later: on 28 Oct only the second is due.
    const soon = await lendAt('2026-10-02T12:00:00.000Z', quiet);
    const later = await lendAt('2026-10-03T12:00:00.000Z', tenant);
    expect(later.due.getTime()).toBeGreaterThan(soon.due.getTime());
    clock.set(new Date(lagosMidnightBefore(later.due, 5).getTime() + 10 * 3_600_000));
    expect(clock.now().getTime()).toBeLessThan(lagosMidnightBefore(soon.due, 3).getTime());
    await sendBorrowerReminders(app.platform, clock.now(), { pageSize: 1 });
    expect(await inbox(later.phone)).toHaveLength(1);
    expect(await inbox(soon.phone)).toEqual([]);
  });

  it('no reminder when the product turns them off', async () => {
    const { loan, phone, due } = await lendAt('2026-12-01T12:00:00.000Z', off);
    const product = (await client(app, off.test).get(`/v1/products/${off.pushedProductId}`)).body.data;
    expect(product.reminders).toEqual({ enabled: false, leadDays: 3 });
    for (const days of [3, 2, 1]) {
      clock.set(new Date(lagosMidnightBefore(due, days).getTime() + 10 * 3_600_000));
      await remind();
    }
    expect(await inbox(phone)).toEqual([]);
    expect(await reminderEvents(off.organisationId, loan.id)).toHaveLength(0);
  });
});

describe('a text after a failed direct debit', () => {
  it('carries the link to the borrower\'s loan page, in their language (Yorùbá), once per instalment, outside quiet hours', async () => {
    const { loan, phone, due } = await lendAt('2027-03-01T12:00:00.000Z', quiet, 'yo');
    // After the due date, at 22:00 Lagos (quiet): a direct debit the bank refuses (an amount ending in 51 kobo).
    clock.set(new Date(due.getTime() + 9 * 3_600_000));
    const before = (await inbox(phone)).length;
    const charge = await client(app, quiet.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 1_051 });
    expect(charge.status).toBe(201);
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ failed: 1 });

    await remind();
    expect(await inbox(phone)).toHaveLength(before);
    // 08:00 Lagos the next morning.
    clock.set(new Date(lagosMidnightBefore(due, -1).getTime() + 8 * 3_600_000));
    await remind();
    const texts = (await inbox(phone)).slice(before);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('a kò rí NGN 10.51 gbà nípasẹ̀ ìyọkúrò tààrà');
    expect(texts[0]).toContain(myLoanUrl(app.platform.baseUrl));
    // A sandbox loan's link opens the page signing in to sandbox loans (without it the page would ask for live ones).
    expect(texts[0]!.endsWith(`${app.platform.baseUrl}/checkout/my-loan?mode=test`)).toBe(true);

    // The retry failing again sends nothing more for this instalment.
    clock.advance(app.platform.config.COLLECTION_RETRY_HOURS * 3_600_000 + 60_000);
    await client(app, quiet.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 2_051 });
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await runCollections(app.platform, clock.now());
    await remind();
    expect((await inbox(phone)).slice(before)).toHaveLength(1);
    const failed = (await reminderEvents(quiet.organisationId, loan.id)).filter((e) => e.data.kind === 'debit_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ installmentNumber: 1, amountKobo: 1_051, locale: 'yo' });
  });

  it('none when the product turns reminders off', async () => {
    const { loan, phone, due } = await lendAt('2027-06-01T12:00:00.000Z', off);
    clock.set(new Date(due.getTime() + 3_600_000));
    await client(app, off.test).post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: 1_051 });
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ failed: 1 });
    await remind();
    expect(await inbox(phone)).toEqual([]);
  });
});

describe('a text the provider did not take', () => {
  it('releases the claim: nothing is recorded as sent, and the next run sends it once', async () => {
    const { loan, phone, due } = await lendAt('2027-09-01T12:00:00.000Z', quiet);
    clock.set(new Date(lagosMidnightBefore(due, 3).getTime() + 9 * 3_600_000));
    const sms = app.platform.sms.for('test');
    const refused = vi.spyOn(sms, 'send').mockImplementation(async (message) => {
      if (message.to === phone) throw new Error('provider unavailable');
    });
    try {
      await remind();
    } finally {
      refused.mockRestore();
    }
    expect(await inbox(phone)).toEqual([]);
    expect(await app.platform.db.selectFrom('borrowerReminders').select('id').where('loanId', '=', loan.id).execute()).toEqual([]);
    expect(await reminderEvents(quiet.organisationId, loan.id)).toHaveLength(0);
    clock.advance(5 * 60_000);
    await remind();
    await remind();
    expect(await inbox(phone)).toHaveLength(1);
    expect(await reminderEvents(quiet.organisationId, loan.id)).toHaveLength(1);
  });
});

describe('per-address limit on the borrower sign-in', () => {
  const send = (phone: string) => client(app).post('/v1/borrower/sign-in/send', { phone, mode: 'test' });
  const verify = (phone: string) => client(app).post('/v1/borrower/sign-in/verify', { phone, mode: 'test', code: '000000' });

  it('answers 429 borrower_sign_in_rate_limited with Retry-After once the hour\'s sends are used, and sends again the next hour', async () => {
    clock.set('2028-01-10T10:15:00.000Z');
    for (let i = 0; i < SENDS_PER_HOUR; i++) expect((await send(uniquePhone())).status).toBe(200);
    const refused = await send(uniquePhone());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('borrower_sign_in_rate_limited');
    expect(refused.headers.get('retry-after')).toBe(String(45 * 60));
    // A refused request wrote no code.
    const codes = await app.platform.db.selectFrom('borrowerSignInCodes').select('id').where('createdAt', '>=', '2028-01-10T10:00:00.000Z').execute();
    expect(codes).toHaveLength(SENDS_PER_HOUR);
    clock.set('2028-01-10T11:00:00.000Z');
    expect((await send(uniquePhone())).status).toBe(200);
  });

  it('counts verifies on their own budget', async () => {
    clock.set('2028-01-11T10:00:00.000Z');
    const phone = uniquePhone();
    for (let i = 0; i < VERIFIES_PER_HOUR; i++) expect((await verify(phone)).status).not.toBe(429);
    const refused = await verify(phone);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('borrower_sign_in_rate_limited');
    expect(refused.headers.get('retry-after')).toBe('3600');
    // Sends have their own budget.
    expect((await send(uniquePhone())).status).toBe(200);
  });

  it('through the hosted loan page each browser has its own budget (the page names its address with the relay key); a caller naming an address without the key is counted as itself', async () => {
    clock.set('2028-01-12T10:00:00.000Z');
    const viaPage = (address: string) =>
      fetch(`${app.url}/checkout/my-loan/api/sign-in/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ phone: uniquePhone(), mode: 'test' }),
      });
    for (let i = 0; i < SENDS_PER_HOUR; i++) expect((await viaPage('203.0.113.5')).status).toBe(200);
    const refused = await viaPage('203.0.113.5');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toBe('borrower_sign_in_rate_limited');
    // Another borrower on the same page is not held by the first one's hour.
    expect((await viaPage('203.0.113.9')).status).toBe(200);
    // Straight to the platform, naming an address with a made-up key: every call counts against the caller itself.
    const forged = (address: string) =>
      fetch(`${app.url}/v1/borrower/sign-in/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-borrower-client-ip': address, 'x-checkout-relay': 'x'.repeat(64) },
        body: JSON.stringify({ phone: uniquePhone(), mode: 'test' }),
      });
    const answers = [];
    for (let i = 0; i <= SENDS_PER_HOUR; i++) answers.push((await forged(`198.51.100.${i + 1}`)).status);
    expect(answers).toEqual([...Array(SENDS_PER_HOUR).fill(200), 429]);
  });
});
