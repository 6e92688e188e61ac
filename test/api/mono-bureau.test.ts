import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMono, type FakeMono } from '../support/fakes/mono-fake';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';
import { client, createTenant, startTestApp, type TestApp, type Tenant } from '../support/harness';
import { sessionClient, tokenOf } from '../support/checkout';
import { identity } from '../support/financing';
import { newId } from '../../server/platform/domain/ids';
import { fromJson } from '../../server/platform/db/database';
import { liveProviders } from '../../server/platform/platform';

/**
 * Live patient financing's credit check on Mono's Lookup credit history (CRC and FirstCentral), against the local
 * fake: the report is reduced to the domain's facts, the policy decides on them, only the facts and a reference are
 * kept, and an outage or a timeout leaves the application waiting for a retry (never approved).
 */
let mono: FakeMono;
let dojah: FakeDojah;
let app: TestApp;
let clinic: Tenant;

beforeAll(async () => {
  mono = await startFakeMono({ secretKey: 'test_sk_fakemono0001', webhookSecret: 'mono-webhook-secret-0001' });
  dojah = await startFakeDojah({ appId: 'app_fake', secretKey: 'dojah_fake_secret' });
  app = await startTestApp({
    env: {
      MONO_SECRET_KEY: 'test_sk_fakemono0001',
      MONO_BASE_URL: mono.url,
      DOJAH_APP_ID: 'app_fake',
      DOJAH_SECRET_KEY: 'dojah_fake_secret',
      DOJAH_BASE_URL: dojah.url,
      PROVIDER_TIMEOUT_MS: '500',
      PROVIDER_MAX_ATTEMPTS: '2',
    },
  });
  clinic = await createTenant(app, { loanTenant: false, preapprovedLending: false });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([mono?.close(), dojah?.close()]);
});

let serial = 0;
/** A fresh BVN the fake Dojah matches to Ada Obi. */
function liveBvn(): string {
  serial += 1;
  const bvn = `221${String(Date.now() % 1_000_000).padStart(6, '0')}${String(serial).padStart(2, '0')}`;
  dojah.seedBvn(bvn, { firstName: 'Ada', lastName: 'Obi', dob: '1990-04-01' });
  return bvn;
}

/** A live application whose phone is verified (live OTP texts need an SMS provider: arranged directly). */
async function liveApplication() {
  const initiated = await client(app, clinic.live).post('/api/v1/sdk/loans/initiate', {
    clientReference: `cref-${newId()}`,
    invoiceReference: 'INV-9',
    firstName: 'Ada',
    phoneNumber: '08031234569',
    treatment: 'Knee arthroscopy',
    treatmentAmount: 15_000_000,
  });
  expect(initiated.status).toBe(201);
  const loanId = initiated.body.data.sdkReference as string;
  await app.platform.db.updateTable('checkoutSessions').set({ otpVerifiedAt: new Date().toISOString() }).where('loanId', '=', loanId).execute();
  return { loanId, session: sessionClient(app, tokenOf(initiated.body.data.applicationUrl)) };
}

const month = (monthsAgo: number) => {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
  return `${String(at.getUTCMonth() + 1).padStart(2, '0')}-${at.getUTCFullYear()}`;
};
const isoMonthsAgo = (monthsAgo: number) => new Date(Date.now() - monthsAgo * 30 * 86_400_000).toISOString();
const schedule = (statuses: string[]) => statuses.map((status, i) => ({ [month(statuses.length - i)]: status }));

/** A good file: a loan repaid on time and one open, current facility, both reported by CRC and FirstCentral. */
const goodHistory = () => ({
  credit_history: [
    {
      institution: 'FAIRMONEY MICROFINANCE BANK',
      history: [
        { date_opened: isoMonthsAgo(20), opening_balance: 30_000_000, loan_balance: 0, currency: 'NGN', performance_status: 'performing', loan_status: 'closed', closed_date: isoMonthsAgo(8), tenor: 12, repayment_schedule: schedule(Array(12).fill('paid')) },
      ],
    },
    {
      institution: 'ACCESS BANK PLC',
      history: [
        { date_opened: isoMonthsAgo(5), opening_balance: 12_000_000, loan_balance: 4_000_000, currency: 'NGN', performance_status: 'performing', loan_status: 'open', closed_date: null, tenor: 6, repayment_schedule: schedule(['paid', 'paid', 'paid', 'paid']) },
      ],
    },
    {
      // The same facility again, as the other bureau reports it: counted once.
      institution: 'Access Bank PLC',
      history: [
        { date_opened: isoMonthsAgo(5), opening_balance: 12_000_000, loan_balance: 4_000_000, currency: 'NGN', performance_status: 'performing', loan_status: 'open', closed_date: null, tenor: 6, repayment_schedule: schedule(['paid', 'paid', 'paid', 'paid']) },
      ],
    },
  ],
  enquiries: [{ date: isoMonthsAgo(2) }],
});

/** A bad file: three months missed in a row on an open loan in the last year. */
const badHistory = () => ({
  credit_history: [
    {
      institution: 'QUICKCASH MFB',
      history: [
        { date_opened: isoMonthsAgo(10), opening_balance: 20_000_000, loan_balance: 18_000_000, currency: 'NGN', performance_status: 'substandard', loan_status: 'open', closed_date: null, tenor: 12, repayment_schedule: schedule(['paid', 'not-paid', 'not-paid', 'not-paid', 'paid']) },
      ],
    },
  ],
});

async function applicationRow(loanId: string) {
  return app.platform.db.selectFrom('financingApplications').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();
}

describe('live credit bureau on Mono (CRC and FirstCentral), against the fake', () => {
  it('when the report is good, then the application is approved on the facts, and only the facts and a reference are kept', async () => {
    const bvn = liveBvn();
    mono.seedCreditHistory(bvn, goodHistory());
    const { loanId, session } = await liveApplication();
    const res = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('approved');
    const row = await applicationRow(loanId);
    expect(row).toMatchObject({ status: 'approved', bureauOutcome: 'good', riskBand: 'A' });
    const decision = fromJson<Record<string, unknown>>(row.decision)!;
    expect(decision.bureauProvider).toBe('mono:crc+xds');
    expect(decision.bureauReference).toMatch(/^MONO-CRC\+XDS-\d{14}-[0-9a-f]{8}$/);
    expect(decision.bureauFacts).toEqual({ facilitiesReported: 2, openFacilities: 1, totalOutstandingKobo: 4_000_000, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: 1 });
    // Nothing of the raw report (institutions, profile, schedules) and never the BVN is stored.
    const stored = JSON.stringify(await app.platform.db.selectFrom('financingApplications').selectAll().where('id', '=', loanId).execute());
    for (const raw of ['ACCESS BANK', 'FAIRMONEY', 'TEST PERSON', 'repayment_schedule', bvn]) expect(stored).not.toContain(raw);
    // Asked once, with the secret key header (the fake refuses anything else), for both bureaus.
    expect(mono.state.requests.filter((r) => r.path === '/v3/lookup/credit-history/all')).toHaveLength(1);
  });

  it('when the report is bad, then the application is declined with the policy reason (delinquent)', async () => {
    const bvn = liveBvn();
    mono.seedCreditHistory(bvn, badHistory());
    const { loanId, session } = await liveApplication();
    const res = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'delinquent' });
    const row = await applicationRow(loanId);
    expect(row).toMatchObject({ status: 'rejected', bureauOutcome: 'delinquent', riskBand: null, rejectionReason: 'delinquent' });
    expect(fromJson<Record<string, unknown>>(row.decision)).toMatchObject({ approved: false, reason: 'delinquent', bureauFacts: { worstDelinquencyDays24m: 90, openFacilities: 1, totalOutstandingKobo: 18_000_000 } });
  });

  it('when the bureaus hold nothing for the BVN, then it is a thin file (band C), not an outage', async () => {
    const bvn = liveBvn();
    const { loanId, session } = await liveApplication();
    const res = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(res.body.data.status).toBe('approved');
    expect(await applicationRow(loanId)).toMatchObject({ bureauOutcome: 'thin_file', riskBand: 'C' });
  });

  it('when Mono is down or times out, then 502 bureau_unavailable, nothing is recorded, the application stays pending, and a retry decides it', async () => {
    const bvn = liveBvn();
    mono.seedCreditHistory(bvn, goodHistory());
    const { loanId, session } = await liveApplication();
    const kyc = async () => (await app.platform.db.selectFrom('kycSubmissions').select('id').where('loanId', '=', loanId).execute()).length;

    mono.failNext(2, 503);
    const down = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(down.status).toBe(502);
    expect(down.body.error).toBe('bureau_unavailable');
    expect(await applicationRow(loanId)).toMatchObject({ status: 'initiated', bureauOutcome: null, riskBand: null, decision: null });
    expect(await kyc()).toBe(0);

    mono.delayNext(1_500);
    mono.delayNext(1_500);
    const slow = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(slow.status).toBe(502);
    expect(slow.body.error).toBe('bureau_unavailable');
    expect((await applicationRow(loanId)).status).toBe('initiated');
    expect(await kyc()).toBe(0);

    const retried = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(retried.status).toBe(200);
    expect(retried.body.data.status).toBe('approved');
  });

  it('the live providers line names the Mono bureau', () => {
    expect(liveProviders(app.platform)).toMatchObject({ bureau: 'mono:all', bvnIdentity: 'dojah' });
  });
});
