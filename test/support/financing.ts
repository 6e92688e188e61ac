import crypto from 'node:crypto';
import { ensureFinancingLender, FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { client, type Tenant, type TestApp } from './harness';
import { latestOtp, sessionClient, tokenOf, uniquePhone } from './checkout';

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
