import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { FakeClock } from '../../server/integrations/clock';
import { createPlatform, type Platform } from '../../server/platform/platform';
import { createLogger } from '../../server/platform/log/create-logger';
import { expireMandates } from '../../server/platform/domain/mandates/expire-mandates';
import { client, startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, verifiedSession } from '../support/checkout';

/**
 * Mandates that expire: one the borrower never authorised at the rail lapses after
 * MANDATE_AUTHORISATION_WINDOW_HOURS (read back at the rail first, withdrawn there, `mandate.expired`,
 * a text in the borrower's language, "Try again" in the checkout); one authorised at the rail
 * meanwhile becomes active instead; two sweepers at once expire it once.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let second: Platform | undefined;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(async () => {
  await second?.close();
  await app.stop();
});

const WINDOW_HOURS = () => app.platform.config.MANDATE_AUTHORISATION_WINDOW_HOURS;
const hours = (n: number) => n * 3_600_000;
const sweep = (platform: Platform = app.platform) => expireMandates(platform.db, platform, { windowHours: WINDOW_HOURS(), now: clock.now() });
const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const CALLBACK = 'https://shop.example/checkout/?return=mandate';

/** A verified session whose offer is signed, whose account is captured and whose mandate is set up (not authorised). */
async function pendingMandate() {
  const ready = await verifiedSession(app, tenant);
  const signed = await ready.session.post('/v1/checkout/accept', {
    signatureFullName: 'Ada Obi',
    documentReference: ready.loan.documentReference,
    ipAddress: '102.89.34.7',
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
  });
  expect(signed.status).toBe(200);
  expect((await ready.session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000000') })).status).toBe(200);
  const mandate = (await ready.session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK })).body.data as { id: string; authorizationUrl: string };
  return { ...ready, mandate };
}

async function inbox(phone: string): Promise<string[]> {
  const res = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return (res.body.data.messages as Array<{ body: string }>).map((m) => m.body);
}

const statusOf = async (id: string) => (await app.platform.db.selectFrom('loanMandates').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const expiredEvents = async (mandateId: string) => (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'mandate.expired' && e.data.mandateId === mandateId);
/** The authorisation's status as the sandbox rail holds it (its own table: "another company"'s record). */
const railStatus = async (mandateId: string) => {
  const { reference } = await app.platform.db.selectFrom('loanMandates').select('reference').where('id', '=', mandateId).executeTakeFirstOrThrow();
  return (await app.platform.db.selectFrom('sandboxRailAuthorisations').select('status').where('reference', '=', reference).executeTakeFirstOrThrow()).status;
};

describe('a mandate the borrower never authorised', () => {
  it('when the window has not passed, then the sweep leaves it in play; once past, it is withdrawn at the rail, expired, mandate.expired is emitted once, and the borrower is texted with the link back', async () => {
    const { loan, mandate, phone } = await pendingMandate();
    clock.advance(hours(WINDOW_HOURS()) - 60_000);
    await sweep();
    expect(await statusOf(mandate.id)).toBe('initiated');

    clock.advance(120_000);
    const outcome = await sweep();
    expect(outcome.expired).toBeGreaterThanOrEqual(1);
    expect(await statusOf(mandate.id)).toBe('expired');
    expect(await railStatus(mandate.id)).toBe('cancelled');
    const events = await expiredEvents(mandate.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ mandateId: mandate.id, provider: 'rail_a', status: 'expired' });
    const texts = (await inbox(phone)).filter((body) => /direct debit request expired/.test(body));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/Nothing was taken from your account\. To set it up again: http/);

    // Swept again: nothing more.
    await sweep();
    expect(await expiredEvents(mandate.id)).toHaveLength(1);
    expect((await inbox(phone)).filter((body) => /expired/.test(body))).toHaveLength(1);

    // A day on, the application link's session has ended: the text carries a fresh one's link (phone to confirm again).
    // On it the checkout says the direct debit lapsed and "Try again" sets up a fresh mandate.
    const link = /(https?:\/\/\S+)/.exec(texts[0]!)![1]!;
    expect(link).not.toBe(loan.applicationUrl);
    const session = sessionClient(app, tokenOf(link));
    expect((await session.post('/v1/checkout/otp/send')).status).toBe(200);
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data.mandate).toMatchObject({ id: mandate.id, status: 'expired', failure: 'expired' });
    const activate = await session.post('/v1/checkout/mandate/activate');
    expect(activate.status).toBe(409);
    expect(activate.body.error).toBe('mandate_expired');
    const retry = await session.post('/v1/checkout/mandate', { callbackUrl: CALLBACK });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).not.toBe(mandate.id);
  });

  it('when the borrower chose Yorùbá, then the text is in Yorùbá', async () => {
    const { session, mandate, phone } = await pendingMandate();
    expect((await session.post('/v1/checkout/language', { locale: 'yo' })).status).toBe(200);
    clock.advance(hours(WINDOW_HOURS()) + 60_000);
    await sweep();
    expect(await statusOf(mandate.id)).toBe('expired');
    expect(await inbox(phone)).toContainEqual(expect.stringMatching(/ìbéèrè ìyọkúrò tààrà rẹ ti dópin/));
  });

  it('when the borrower approved at the rail but never came back, then the sweep makes it active (mandate.active), never expired, and sends no expiry text', async () => {
    const { mandate, phone, loan } = await pendingMandate();
    await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    clock.advance(hours(WINDOW_HOURS()) + 60_000);
    const outcome = await sweep();
    expect(outcome.readBack).toBeGreaterThanOrEqual(1);
    expect(await statusOf(mandate.id)).toBe('active');
    const events = await eventsOf(app, tenant.organisationId);
    expect(events.filter((e) => e.name === 'mandate.active' && e.data.mandateId === mandate.id)).toHaveLength(1);
    expect(await expiredEvents(mandate.id)).toEqual([]);
    expect((await inbox(phone)).filter((body) => /expired/.test(body))).toEqual([]);
    expect((await app.platform.db.selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow()).activeMandateId).toBe(mandate.id);
  });

  it('when an older mandate cannot be read at the rail (left for the next run), then the ones behind it still expire', async () => {
    const stuck = await pendingMandate();
    const behind = await pendingMandate();
    await app.platform.db.updateTable('loanMandates').set({ providerReference: 'mdt_unknown_to_the_rail' }).where('id', '=', stuck.mandate.id).execute();
    clock.advance(hours(WINDOW_HOURS()) + 60_000);
    const outcome = await expireMandates(app.platform.db, app.platform, { windowHours: WINDOW_HOURS(), now: clock.now(), pageSize: 1 });
    expect(outcome.skipped).toBeGreaterThanOrEqual(1);
    expect(await statusOf(stuck.mandate.id)).toBe('initiated');
    expect(await statusOf(behind.mandate.id)).toBe('expired');
    // Taken out of play, so later sweeps in this file do not meet it again.
    await app.platform.db.updateTable('loanMandates').set({ status: 'cancelled' }).where('id', '=', stuck.mandate.id).execute();
  });

  it('when two sweepers (two platforms on one database) run at once, then the mandate expires once: one event, one text', async () => {
    const { mandate, phone, loan } = await pendingMandate();
    second ??= await createPlatform(loadConfig({ ...app.env, LOG_LEVEL: 'silent', BOOTSTRAP_SANDBOX: 'false' }), {
      clock,
      logger: createLogger('silent'),
      pgSchema: app.pgSchema,
      sqliteFile: path.join(app.dataDir, 'platform.sqlite'),
    });
    clock.advance(hours(WINDOW_HOURS()) + 60_000);
    const [a, b] = await Promise.all([sweep(app.platform), sweep(second)]);
    expect(await statusOf(mandate.id)).toBe('expired');
    expect(a.expired + b.expired).toBeGreaterThanOrEqual(1);
    expect(await expiredEvents(mandate.id)).toHaveLength(1);
    expect((await inbox(phone)).filter((body) => /direct debit request expired/.test(body))).toHaveLength(1);
    // One link minted for the text, by the sweeper that won.
    expect(await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loan.id).where('source', '=', 'renewed').execute()).toHaveLength(1);
  });

  it('the sweep reads a partial index of the mandates not yet authorised (migration 0053)', async () => {
    const definition = app.pgSchema
      ? (await sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = 'loan_mandates_unauthorised_idx' and schemaname = ${app.pgSchema}`.execute(app.platform.db)).rows[0]?.def
      : (await sql<{ def: string }>`select sql as def from sqlite_master where name = 'loan_mandates_unauthorised_idx'`.execute(app.platform.db)).rows[0]?.def;
    expect(definition).toMatch(/created_at.*id/i);
    expect(definition).toMatch(/where.*status.*'initiated'.*'pending'/i);
  });
});
