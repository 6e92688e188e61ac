import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { ACCOUNT_REQUEST_LIMITS } from '../../server/platform/domain/dashboard/request-limits';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/platform/domain/dashboard/sign-in-throttle';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, inboxCount, signedInOwner, tokenFromInbox, uniqueEmail } from '../support/dashboard';

/**
 * The account routes anyone may call without a session hold their limits under pressure: parallel wrong passwords
 * never get more verifications than the lockout allows, a password-reset link dies when a newer one is sent or one is
 * used, and reset requests and sign-ups are limited per e-mail and per address before anything is hashed or sent.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app?.stop());

const HOUR = 3600_000;

async function resetLink(email: string): Promise<string> {
  const before = inboxCount(app, email);
  expect((await dashboardClient(app).post('/password-reset/request', { email })).status).toBe(202);
  return tokenFromInbox(app, email, 'reset-password', before);
}

describe('the sign-in lockout under parallel attempts', () => {
  it('40 parallel wrong passwords for one e-mail verify at most the limit; the rest are 429 with Retry-After, and then even the right password waits', async () => {
    const owner = await signedInOwner(app);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => dashboardClient(app).post('/sign-in', { email: owner.email, password: `wrong password number ${i} here` })),
    );
    const statuses = answers.map((a) => a.status);
    // Attempts for one e-mail are counted one after another: exactly the limit are verified, never fewer (a burst
    // that refused every attempt would leave the e-mail unlocked) and never more.
    expect(statuses.filter((s) => s === 401).length).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.json.error).toBe('too_many_sign_in_attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The failures recorded are the passwords verified: no more than the limit.
    const failures = await app.platform.db.selectFrom('dashboardLoginFailures').select('id').where('email', '=', owner.email.toLowerCase()).execute();
    expect(failures.length).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD })).status).toBe(429);
    clock.advance(16 * 60_000);
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD })).status).toBe(200);
  });

  it('the same holds for an invitation accepted with an existing account’s password', async () => {
    const inviter = await signedInOwner(app);
    const member = await signedInOwner(app);
    const before = inboxCount(app, member.email);
    expect((await inviter.post('/team/invitations', { email: member.email, role: 'developer' })).status).toBe(201);
    const token = await tokenFromInbox(app, member.email, 'accept-invitation', before);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => dashboardClient(app).post('/invitations/accept', { token, password: `not it, attempt ${i} of many` })));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(MAX_FAILURES_PER_ACCOUNT);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(30 - MAX_FAILURES_PER_ACCOUNT);
    clock.advance(16 * 60_000);
  });
});

describe('password-reset links', () => {
  it('a newer request ends the older link, and a used link ends every other', async () => {
    const owner = await signedInOwner(app);
    const first = await resetLink(owner.email);
    const second = await resetLink(owner.email);
    const stale = await dashboardClient(app).post('/password-reset', { token: first, password: 'a first new passphrase for this' });
    expect(stale.status).toBe(400);
    expect(stale.json.error).toBe('email_token_invalid');
    const changed = await dashboardClient(app).post('/password-reset', { token: second, password: 'a second new passphrase for this' });
    expect(changed.status).toBe(200);
    expect([changed.json.message, changed.json.data]).toEqual(['Password changed: sign in with the new one. Every other session has ended.', { firstPassword: false }]);
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: 'a second new passphrase for this' })).status).toBe(200);

    // Two links issued before either is used (as two requests racing would): using one ends the other.
    const a = await resetLink(owner.email);
    await app.platform.db.updateTable('dashboardEmailTokens').set({ usedAt: null }).where('purpose', '=', 'reset_password').execute();
    const b = await resetLink(owner.email);
    await app.platform.db.updateTable('dashboardEmailTokens').set({ usedAt: null }).where('purpose', '=', 'reset_password').execute();
    expect((await dashboardClient(app).post('/password-reset', { token: b, password: 'a third new passphrase for this' })).status).toBe(200);
    const other = await dashboardClient(app).post('/password-reset', { token: a, password: 'a fourth new passphrase for this' });
    expect(other.json.error).toBe('email_token_invalid');
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: 'a third new passphrase for this' })).status).toBe(200);
  });

  it('an unknown link is refused before any password is hashed, whatever the password', async () => {
    const bogus = await dashboardClient(app).post('/password-reset', { token: 'x'.repeat(43), password: 'short' });
    expect(bogus.status).toBe(400);
    expect(bogus.json.error).toBe('email_token_invalid');
  });
});

describe('limits on reset requests and sign-ups', () => {
  it('reset requests: per e-mail, whether or not it has an account, 429 with Retry-After and no mail past the limit', async () => {
    clock.advance(2 * HOUR);
    const owner = await signedInOwner(app);
    const before = inboxCount(app, owner.email);
    for (let i = 0; i < ACCOUNT_REQUEST_LIMITS.password_reset.perEmail; i += 1) {
      expect((await dashboardClient(app).post('/password-reset/request', { email: owner.email })).status).toBe(202);
    }
    const refused = await dashboardClient(app).post('/password-reset/request', { email: owner.email });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe('too_many_account_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(inboxCount(app, owner.email)).toBe(before + ACCOUNT_REQUEST_LIMITS.password_reset.perEmail);
    // An unknown e-mail is limited the same way (the answer tells nothing about accounts).
    const unknown = uniqueEmail('nobody');
    for (let i = 0; i < ACCOUNT_REQUEST_LIMITS.password_reset.perEmail; i += 1) expect((await dashboardClient(app).post('/password-reset/request', { email: unknown })).status).toBe(202);
    expect((await dashboardClient(app).post('/password-reset/request', { email: unknown })).status).toBe(429);
    // An hour later the e-mail may ask again.
    clock.advance(HOUR + 1000);
    expect((await dashboardClient(app).post('/password-reset/request', { email: owner.email })).status).toBe(202);
  });

  it('reset requests: per address, across e-mails', async () => {
    clock.advance(2 * HOUR);
    let refused = 0;
    for (let i = 0; i < ACCOUNT_REQUEST_LIMITS.password_reset.perIp + 2; i += 1) {
      const res = await dashboardClient(app).post('/password-reset/request', { email: uniqueEmail(`spray${i}`) });
      if (res.status === 429) refused += 1;
      else expect(res.status).toBe(202);
    }
    expect(refused).toBe(2);
  });

  it('sign-ups: per address, 429 past the limit, and nothing created or sent for the refused ones', async () => {
    clock.advance(2 * HOUR);
    const organisationsBefore = (await app.platform.db.selectFrom('organisations').select('id').execute()).length;
    const emails = Array.from({ length: ACCOUNT_REQUEST_LIMITS.sign_up.perIp + 1 }, (_, i) => uniqueEmail(`signup${i}`));
    const statuses: number[] = [];
    for (const email of emails) statuses.push((await dashboardClient(app).post('/sign-up', { email, password: GOOD_PASSWORD, organisationName: 'Flood Clinic' })).status);
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const organisationsAfter = (await app.platform.db.selectFrom('organisations').select('id').execute()).length;
    expect(organisationsAfter - organisationsBefore).toBe(ACCOUNT_REQUEST_LIMITS.sign_up.perIp);
    await new Promise((r) => setTimeout(r, 200));
    expect(inboxCount(app, emails.at(-1)!)).toBe(0);
  });

  it('sign-ups: per e-mail (an existing account’s owner is not mailed without end)', async () => {
    clock.advance(2 * HOUR);
    const owner = await signedInOwner(app);
    clock.advance(2 * HOUR);
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_REQUEST_LIMITS.sign_up.perEmail; i += 1) statuses.push((await dashboardClient(app).post('/sign-up', { email: owner.email, password: GOOD_PASSWORD, organisationName: 'Again' })).status);
    expect(statuses).toEqual([...Array(ACCOUNT_REQUEST_LIMITS.sign_up.perEmail).fill(202), 429]);
  });
});
