import crypto from 'node:crypto';
import { ensureFinancingLender, FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { client, type Tenant, type TestApp } from './harness';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from './checkout';

/** Funds the service's own financing pool (test mode), as the operator would with `admin pool fund`. */
export async function fundFinancingPool(app: TestApp, amountKobo: number): Promise<void> {
  const now = app.platform.clock.now();
  await ensureFinancingLender(app.platform.db, app.platform.config.FINANCING_POLICY, now);
  await fundPool(app.platform.db, { organisationId: FINANCING_LENDER_ID, mode: 'test', code: FINANCING_POOL_CODE, amountKobo, now });
}

/** A BVN ending in `last` (the sandbox bureau decides by the last digit). */
export const bvnEnding = (last: string) => `${String(crypto.randomInt(1_000_000_000, 9_999_999_999))}${last}`;

/** Initiates financing for a fresh phone and verifies the OTP through the hosted application's session. */
export async function initiatedApplication(app: TestApp, partner: Tenant, overrides: Record<string, unknown> = {}) {
  const phone = uniquePhone();
  const res = await client(app, partner.test).post('/api/v1/sdk/loans/initiate', {
    clientReference: `cref-${crypto.randomBytes(6).toString('hex')}`,
    invoiceReference: 'INV-77',
    firstName: 'Ada',
    phoneNumber: phone,
    treatment: 'Knee arthroscopy',
    treatmentAmount: 15_000_000,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`initiate failed: ${JSON.stringify(res.body)}`);
  const initiation = res.body.data as { sdkReference: string; applicationUrl: string; clientReference: string; expiresAt: string };
  const session = sessionClient(app, tokenOf(initiation.applicationUrl));
  return { initiation, session, phone };
}

export async function verifyOtp(app: TestApp, session: ReturnType<typeof sessionClient>, phone: string): Promise<void> {
  const sent = await session.post('/v1/checkout/otp/send');
  if (sent.status !== 200) throw new Error(`otp send failed: ${JSON.stringify(sent.body)}`);
  const verified = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
  if (verified.status !== 200) throw new Error(`otp verify failed: ${JSON.stringify(verified.body)}`);
}

export const identity = (bvn: string, overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Obi',
  bvn,
  dateOfBirth: '1990-04-01',
  declaredMonthlyIncomeKobo: 20_000_000,
  email: 'ada@example.com',
  ...overrides,
});

const signatureFor = (documentReference: string) => ({
  signatureFullName: 'Ada Obi',
  signatureEmail: 'ada@example.com',
  documentReference,
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0 (Linux; Android 14)',
});

/**
 * A financing application carried through the hosted steps to a signed offer (3 months) with a mandate the patient
 * approved at the provider; the caller moves the clock past the rail's confirmation lag and polls to disburse it.
 */
export async function signedFinancing(app: TestApp, partner: Tenant, overrides: Record<string, unknown> = {}) {
  const { initiation, session, phone } = await initiatedApplication(app, partner, overrides);
  await verifyOtp(app, session, phone);
  const decided = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('6')));
  if (decided.body.data?.status !== 'approved') throw new Error(`not approved: ${JSON.stringify(decided.body)}`);
  await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 });
  const { documentReference } = (await session.get('/v1/checkout/session')).body.data.offer;
  await session.post('/v1/checkout/accept', signatureFor(documentReference));
  await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber: `200000007${nubanCheckDigit('058', '200000007')}` });
  const mandate = (await session.post('/v1/checkout/mandate', {})).body.data;
  await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
  return { initiation, session };
}
