import crypto from 'node:crypto';
import { client, type KeyPair, type Tenant, type TestApp } from './harness';
import { offeredLoan } from './lifecycle';

/** A Nigerian mobile number nobody else in the run uses (OTP send limits are per phone). */
export const uniquePhone = () => `+23481${String(crypto.randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** A client that presents a checkout-session token (and optionally nothing else). */
export function sessionClient(app: TestApp, token: string) {
  const base = client(app);
  const auth = { authorization: `CheckoutSession ${token}` };
  return {
    get: (p: string, headers: Record<string, string> = {}) => base.get(p, { ...auth, ...headers }),
    post: (p: string, body: unknown = {}, headers: Record<string, string> = {}) => base.post(p, body, { ...auth, ...headers }),
  };
}

/** The texts the sandbox sent a phone, newest first. */
export async function sandboxTexts(app: TestApp, phone: string): Promise<Array<{ body: string }>> {
  return (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;
}

/** The latest code in the sandbox inbox for a phone. */
export async function latestOtp(app: TestApp, phone: string): Promise<string> {
  const texts = await sandboxTexts(app, phone);
  const body = texts[0]?.body;
  // Every language puts the code first (`123456 is your…`, `123456 ni kóòdù…`).
  const code = body?.match(/^(\d{6}) /)?.[1];
  if (!code) throw new Error(`no code in the sandbox inbox for ${phone}: ${JSON.stringify(texts)}`);
  return code;
}

export const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A partner-minted session for a loan. */
export async function mintSession(app: TestApp, key: KeyPair, loanId: string) {
  const res = await client(app, key).post(`/v1/loans/${loanId}/checkout-sessions`);
  if (res.status !== 201) throw new Error(`mint failed: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; token: string; url: string; expiresAt: string; maxExpiresAt: string };
}

/** An offered loan with a unique phone, and a session on it whose phone is verified. */
export async function verifiedSession(app: TestApp, tenant: Tenant) {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  const token = tokenOf(loan.applicationUrl);
  const session = sessionClient(app, token);
  const sent = await session.post('/v1/checkout/otp/send');
  if (sent.status !== 200) throw new Error(`otp send failed: ${JSON.stringify(sent.body)}`);
  const verified = await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
  if (verified.status !== 200) throw new Error(`otp verify failed: ${JSON.stringify(verified.body)}`);
  return { loan, token, session, phone };
}

/** A valid NUBAN for a bank code (serial + check digit), from the platform's own check-digit function. */
export { nubanCheckDigit } from '../../server/platform/domain/payouts/nuban';
