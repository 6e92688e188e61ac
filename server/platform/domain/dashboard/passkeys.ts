import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { loadWebAuthn } from '../../../shared/webauthn';
import type { Executor } from '../../db/database';
import type { DashboardChallengePurpose } from '../../db/schema';
import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import { hashToken, newSecretToken } from './secret-token';
import { createSession, type DashboardSession } from './sessions';
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from './sign-in-throttle';

/**
 * Passkeys of dashboard users (WebAuthn, `@simplewebauthn/server`): registration by a signed-in user, passwordless
 * sign-in with a discoverable credential, and the passkey as a second factor after the password. The relying party is
 * the platform's public base URL (`PUBLIC_BASE_URL`): its host name is the RP ID, its origin the only accepted origin.
 *
 * Challenges are issued here, stored by their SHA-256 with a purpose and what they are bound to, live 5 minutes and
 * are used once: a verification consumes the challenge before checking the signature, so a failed attempt cannot be
 * retried with the same challenge either.
 */
export const DASHBOARD_PASSKEY_RULES = {
  challengeLifetimeMs: 5 * 60_000,
  /** A pending "password right, passkey still to come" sign-in lasts as long as its challenge. */
  secondFactorLifetimeMs: 5 * 60_000,
  maxPasskeysPerUser: 20,
  /** Passwordless options are unauthenticated: at most this many unused, unexpired challenges per IP address. */
  maxOpenSignInChallengesPerIp: 30,
  nameMaxLength: 60,
} as const;

type Services = Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'>;

export interface RelyingParty {
  rpId: string;
  rpName: string;
  origin: string;
}

export function dashboardRelyingParty(baseUrl: string): RelyingParty {
  const url = new URL(baseUrl);
  return { rpId: url.hostname, rpName: 'Lending dashboard', origin: url.origin };
}

export interface DashboardPasskey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const refusedPasskey = (why = 'This passkey could not be verified.') => new AppError('passkey_verification_failed', `${why} Try again, or sign in with your password.`);
const badChallenge = () => new AppError('passkey_challenge_invalid', 'This passkey prompt has expired or was already used; start again.');

async function issueChallenge(
  db: Executor,
  entry: { purpose: DashboardChallengePurpose; userId: string | null; organisationId: string | null; binding: string | null; now: Date },
): Promise<string> {
  const challenge = newSecretToken();
  const at = entry.now.toISOString();
  // Expired challenges are of no use to anyone: each issue sweeps them (the table stays small).
  await db.deleteFrom('dashboardWebauthnChallenges').where('expiresAt', '<', at).execute();
  await db
    .insertInto('dashboardWebauthnChallenges')
    .values({
      id: hashToken(challenge),
      purpose: entry.purpose,
      userId: entry.userId,
      organisationId: entry.organisationId,
      binding: entry.binding,
      expiresAt: new Date(entry.now.getTime() + DASHBOARD_PASSKEY_RULES.challengeLifetimeMs).toISOString(),
      usedAt: null,
      createdAt: at,
    })
    .execute();
  return challenge;
}

/** The challenge the browser signed, read from clientDataJSON (verified against the stored one afterwards). */
function challengeOf(response: { response: { clientDataJSON: string } }): string {
  try {
    const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof client.challenge === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(client.challenge)) return client.challenge;
  } catch {
    // falls through
  }
  throw badChallenge();
}

/**
 * Uses a challenge once: it must exist, have this purpose and binding, not be expired or used. Marked used by a
 * conditional update, so two concurrent verifications of one challenge cannot both pass.
 */
async function consumeChallenge(db: Executor, challenge: string, purpose: DashboardChallengePurpose, binding: string | null, now: Date) {
  const id = hashToken(challenge);
  const row = await db.selectFrom('dashboardWebauthnChallenges').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.purpose !== purpose || row.usedAt || Date.parse(row.expiresAt) <= now.getTime()) throw badChallenge();
  if (binding !== null && row.binding !== binding) throw badChallenge();
  const used = await db.updateTable('dashboardWebauthnChallenges').set({ usedAt: now.toISOString() }).where('id', '=', id).where('usedAt', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw badChallenge();
  return row;
}

const parseTransports = (json: string): string[] => {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

async function passkeyRows(db: Executor, userId: string) {
  return db.selectFrom('dashboardPasskeys').selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();
}

export async function listPasskeys(db: Executor, userId: string): Promise<DashboardPasskey[]> {
  return (await passkeyRows(db, userId)).map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt }));
}

export async function requiresPasskey(db: Executor, userId: string): Promise<boolean> {
  const user = await db.selectFrom('dashboardUsers').select('requirePasskey').where('id', '=', userId).executeTakeFirst();
  return Boolean(user?.requirePasskey);
}

// ── Registration (signed in) ─────────────────────────────────────────────────────────────────────

/** Options for `navigator.credentials.create()`: a discoverable credential (usable without typing the e-mail), user verification required. */
export async function passkeyRegistrationOptions(services: Services, session: DashboardSession) {
  const rp = dashboardRelyingParty(services.baseUrl);
  const now = services.clock.now();
  const existing = await passkeyRows(services.db, session.userId);
  if (existing.length >= DASHBOARD_PASSKEY_RULES.maxPasskeysPerUser) {
    throw new AppError('invalid_request', `You have ${existing.length} passkeys, the most one account may have; remove one first.`);
  }
  const challenge = await inUnitOfWork(services.db, (tx) =>
    issueChallenge(tx, { purpose: 'registration', userId: session.userId, organisationId: session.organisationId, binding: session.sessionId, now }),
  );
  return (await loadWebAuthn()).generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userID: new Uint8Array(Buffer.from(session.userId, 'utf8')),
    userName: session.email,
    userDisplayName: session.email,
    challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: parseTransports(row.transports) as Transport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: 60_000,
  });
}

/** Verifies `navigator.credentials.create()`'s answer against the challenge issued to this session, and stores the passkey. */
export async function registerPasskey(
  services: Services,
  session: DashboardSession,
  input: { response: RegistrationResponseJSON; name?: string | undefined },
  origin: RequestOrigin,
): Promise<DashboardPasskey> {
  const rp = dashboardRelyingParty(services.baseUrl);
  const now = services.clock.now();
  const challenge = challengeOf(input.response);
  await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, 'registration', session.sessionId, now));
  let info;
  try {
    const verified = await (await loadWebAuthn()).verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    info = verified.registrationInfo;
  } catch (error) {
    throw refusedPasskey(`This passkey could not be verified (${(error instanceof Error ? error.message : 'unreadable').slice(0, 120)}).`);
  }
  const at = now.toISOString();
  const name = input.name?.trim() || `Passkey added ${at.slice(0, 10)}`;
  return inUnitOfWork(services.db, async (tx) => {
    const taken = await tx.selectFrom('dashboardPasskeys').select('id').where('id', '=', info.credential.id).executeTakeFirst();
    if (taken) throw new AppError('passkey_already_registered', 'This passkey is registered already.');
    await tx
      .insertInto('dashboardPasskeys')
      .values({
        id: info.credential.id,
        userId: session.userId,
        name,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: JSON.stringify(info.credential.transports ?? input.response.response.transports ?? []),
        rpId: rp.rpId,
        createdAt: at,
        lastUsedAt: null,
      })
      .execute();
    await writeAudit(tx, { userId: session.userId, organisationId: session.organisationId, action: 'passkey_registered', target: `passkey:${info.credential.id}`, origin, now });
    return { id: info.credential.id, name, createdAt: at, lastUsedAt: null };
  });
}

async function ownPasskey(db: Executor, userId: string, id: string) {
  const row = await db.selectFrom('dashboardPasskeys').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'Passkey not found.');
  return row;
}

export async function renamePasskey(services: Services, session: DashboardSession, id: string, name: string, origin: RequestOrigin): Promise<DashboardPasskey> {
  const now = services.clock.now();
  return inUnitOfWork(services.db, async (tx) => {
    const row = await ownPasskey(tx, session.userId, id);
    await tx.updateTable('dashboardPasskeys').set({ name }).where('id', '=', id).execute();
    await writeAudit(tx, { userId: session.userId, organisationId: session.organisationId, action: 'passkey_renamed', target: `passkey:${id}`, origin, now });
    return { id, name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
  });
}

/** Removes one of the user's own passkeys; not the last one while a passkey is asked after the password. */
export async function removePasskey(services: Services, session: DashboardSession, id: string, origin: RequestOrigin): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await ownPasskey(tx, session.userId, id);
    const count = (await passkeyRows(tx, session.userId)).length;
    if (count === 1 && (await requiresPasskey(tx, session.userId))) {
      throw new AppError('dashboard_last_passkey', 'This is your last passkey and your sign-in asks for one: switch off "Ask for a passkey after the password" first.');
    }
    await tx.deleteFrom('dashboardPasskeys').where('id', '=', id).where('userId', '=', session.userId).execute();
    await writeAudit(tx, { userId: session.userId, organisationId: session.organisationId, action: 'passkey_removed', target: `passkey:${id}`, origin, now });
  });
}

/** Switches "ask for a passkey after the password" on (needs a passkey) or off. */
export async function setRequirePasskey(services: Services, session: DashboardSession, on: boolean, origin: RequestOrigin): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    if (on && (await passkeyRows(tx, session.userId)).length === 0) {
      throw new AppError('dashboard_passkey_needed', 'Add a passkey first: then it can be asked after your password.');
    }
    if ((await requiresPasskey(tx, session.userId)) === on) return;
    await tx.updateTable('dashboardUsers').set({ requirePasskey: on }).where('id', '=', session.userId).execute();
    await writeAudit(tx, {
      userId: session.userId,
      organisationId: session.organisationId,
      action: on ? 'passkey_second_factor_enabled' : 'passkey_second_factor_disabled',
      target: `user:${session.userId}`,
      origin,
      now,
    });
  });
}

// ── Sign-in (passwordless, and as the second factor) ─────────────────────────────────────────────

/** The key passkey failures are counted under in the sign-in throttle (per address: there is no e-mail to count by). */
const passkeyThrottleKey = (origin: RequestOrigin) => `passkey:${origin.ip ?? 'unknown'}`;

async function authenticationOptions(rp: RelyingParty, challenge: string, allow?: Array<{ id: string; transports: string }>) {
  return (await loadWebAuthn()).generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
    allowCredentials: allow?.map((row) => ({ id: row.id, transports: parseTransports(row.transports) as Transport[] })),
    userVerification: 'required',
    timeout: 60_000,
  });
}

/** Options for a passwordless sign-in: no credential list (the authenticator offers the discoverable passkeys it holds for this site). */
export async function passkeySignInOptions(services: Services, origin: RequestOrigin) {
  const now = services.clock.now();
  await assertSignInAllowed(services.db, passkeyThrottleKey(origin), origin.ip ?? 'unknown', now);
  // Unauthenticated, so each address may hold only a few live challenges at once (the table cannot be flooded).
  const address = `ip:${origin.ip ?? 'unknown'}`;
  const live = await services.db
    .selectFrom('dashboardWebauthnChallenges')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('binding', '=', address)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now.toISOString())
    .executeTakeFirstOrThrow();
  if (Number(live.count) >= DASHBOARD_PASSKEY_RULES.maxOpenSignInChallengesPerIp) {
    throw new AppError('too_many_sign_in_attempts', 'Too many passkey prompts opened from this address. Wait a few minutes, or sign in with your password.').withRetryAfter(
      DASHBOARD_PASSKEY_RULES.challengeLifetimeMs / 1000,
    );
  }
  const challenge = await inUnitOfWork(services.db, (tx) => issueChallenge(tx, { purpose: 'sign_in', userId: null, organisationId: null, binding: address, now }));
  return authenticationOptions(dashboardRelyingParty(services.baseUrl), challenge);
}

async function verifyAssertion(services: Services, response: AuthenticationResponseJSON, challenge: string, credential: { id: string; publicKey: string; counter: number; transports: string }) {
  const rp = dashboardRelyingParty(services.baseUrl);
  try {
    const verified = await (await loadWebAuthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: { id: credential.id, publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')), counter: Number(credential.counter), transports: parseTransports(credential.transports) as Transport[] },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    return verified.authenticationInfo.newCounter;
  } catch {
    throw refusedPasskey();
  }
}

export interface PasskeySignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  organisationId: string;
}

async function openSession(services: Services, user: { id: string; email: string }, organisationId: string | null, credentialId: string, newCounter: number, origin: RequestOrigin, how: string): Promise<PasskeySignedIn> {
  const now = services.clock.now();
  const membership = organisationId
    ? { organisationId }
    : await services.db.selectFrom('dashboardMemberships').select('organisationId').where('userId', '=', user.id).orderBy('createdAt').orderBy('organisationId').executeTakeFirst();
  if (!membership) throw refusedPasskey();
  return inUnitOfWork(services.db, async (tx) => {
    await tx.updateTable('dashboardPasskeys').set({ counter: newCounter, lastUsedAt: now.toISOString() }).where('id', '=', credentialId).execute();
    await clearSignInFailures(tx, user.email);
    const session = await createSession(tx, { userId: user.id, organisationId: membership.organisationId, now, ...origin });
    await writeAudit(tx, { userId: user.id, organisationId: membership.organisationId, action: 'passkey_sign_in', target: `passkey:${credentialId} ${how}`, origin, now });
    return { token: session.token, expiresAt: session.expiresAt, userId: user.id, organisationId: membership.organisationId };
  });
}

async function failed(services: Services, key: string, origin: RequestOrigin, userId: string | null): Promise<never> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await recordSignInFailure(tx, key, origin.ip ?? 'unknown', now);
    await writeAudit(tx, { userId, organisationId: null, action: 'sign_in_failed', target: userId ? `user:${userId} passkey` : 'passkey', origin, now });
  });
  throw refusedPasskey();
}

/** Passwordless sign-in: the assertion of a discoverable passkey against a `sign_in` challenge. Opens a session. */
export async function signInWithPasskey(services: Services, input: { response: AuthenticationResponseJSON; origin: RequestOrigin }): Promise<PasskeySignedIn> {
  const now = services.clock.now();
  const key = passkeyThrottleKey(input.origin);
  await assertSignInAllowed(services.db, key, input.origin.ip ?? 'unknown', now);
  const challenge = challengeOf(input.response);
  await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, 'sign_in', null, now));
  const credential = await services.db
    .selectFrom('dashboardPasskeys as p')
    .innerJoin('dashboardUsers as u', 'u.id', 'p.userId')
    .select(['p.id', 'p.publicKey', 'p.counter', 'p.transports', 'p.userId', 'u.email', 'u.emailVerifiedAt'])
    .where('p.id', '=', String(input.response.id))
    .executeTakeFirst();
  if (!credential || !credential.emailVerifiedAt) return failed(services, key, input.origin, null);
  let counter: number;
  try {
    counter = await verifyAssertion(services, input.response, challenge, credential);
  } catch {
    return failed(services, key, input.origin, credential.userId);
  }
  return openSession(services, { id: credential.userId, email: credential.email }, null, credential.id, counter, input.origin, 'passwordless');
}

/** The name of the short-lived cookie that carries a pending second-factor sign-in (httpOnly, path /dashboard). */
export const SECOND_FACTOR_COOKIE = 'dashboard_second_factor';

/**
 * After a right password, for a user who asks a passkey too: no session yet, but a pending sign-in (a random token for
 * the cookie, whose hash binds a `second_factor` challenge to this browser, this user and organisation) and the
 * options for `navigator.credentials.get()` listing the user's passkeys. Called inside the password step's transaction.
 */
export async function beginSecondFactor(
  services: Services,
  tx: Executor,
  user: { id: string },
  organisationId: string,
  now: Date,
): Promise<{ pendingToken: string; options: Awaited<ReturnType<typeof authenticationOptions>> } | undefined> {
  const user_ = await tx.selectFrom('dashboardUsers').select('requirePasskey').where('id', '=', user.id).executeTakeFirst();
  if (!user_?.requirePasskey) return undefined;
  const passkeys = await passkeyRows(tx, user.id);
  if (passkeys.length === 0) return undefined;
  const pendingToken = newSecretToken();
  const challenge = await issueChallenge(tx, { purpose: 'second_factor', userId: user.id, organisationId, binding: hashToken(pendingToken), now });
  return { pendingToken, options: await authenticationOptions(dashboardRelyingParty(services.baseUrl), challenge, passkeys) };
}

/** The second step: the assertion must answer the challenge bound to this browser's pending sign-in, with one of that user's passkeys. */
export async function completeSecondFactor(services: Services, input: { pendingToken: string | undefined; response: AuthenticationResponseJSON; origin: RequestOrigin }): Promise<PasskeySignedIn> {
  const now = services.clock.now();
  if (!input.pendingToken) throw badChallenge();
  const challenge = challengeOf(input.response);
  const row = await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, 'second_factor', hashToken(input.pendingToken!), now));
  const user = await services.db.selectFrom('dashboardUsers').select(['id', 'email']).where('id', '=', row.userId!).executeTakeFirstOrThrow();
  await assertSignInAllowed(services.db, user.email, input.origin.ip ?? 'unknown', now);
  const credential = await services.db.selectFrom('dashboardPasskeys').selectAll().where('id', '=', String(input.response.id)).where('userId', '=', user.id).executeTakeFirst();
  if (!credential) return failed(services, user.email, input.origin, user.id);
  let counter: number;
  try {
    counter = await verifyAssertion(services, input.response, challenge, credential);
  } catch {
    return failed(services, user.email, input.origin, user.id);
  }
  return openSession(services, user, row.organisationId, credential.id, counter, input.origin, 'second factor');
}
