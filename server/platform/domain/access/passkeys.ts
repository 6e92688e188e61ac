import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { loadWebAuthn } from '../../../shared/webauthn';
import type { Executor } from '../../db/database';
import type { DashboardChallengePurpose } from '../../db/schema';
import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import type { DashboardServices } from '../dashboard/dashboard-services';
import { hashToken, newSecretToken } from '../dashboard/secret-token';
import { assertSignInAllowed, recordSignInFailure } from '../dashboard/sign-in-throttle';
import type { AccessRealm, AccessSession, RequestOrigin } from './realm';

/**
 * Passkeys (WebAuthn, `@simplewebauthn/server`) of either realm (`realm.ts`): registration by a signed-in person,
 * passwordless sign-in with a discoverable credential, and the passkey as a second factor after the password. The
 * relying party is the platform's public base URL (`PUBLIC_BASE_URL`): its host name is the RP ID, its origin the
 * only accepted origin.
 *
 * Challenges are issued here, stored by their SHA-256 with a purpose (per realm) and what they are bound to, live
 * 5 minutes and are used once: a verification consumes the challenge before checking the signature, so a failed
 * attempt cannot be retried with the same challenge either.
 */
export const PASSKEY_RULES = {
  challengeLifetimeMs: 5 * 60_000,
  /** A pending "password right, passkey still to come" sign-in lasts as long as its challenge. */
  secondFactorLifetimeMs: 5 * 60_000,
  maxPasskeysPerUser: 20,
  /** Passwordless options are unauthenticated: at most this many unused, unexpired challenges per IP address. */
  maxOpenSignInChallengesPerIp: 30,
  nameMaxLength: 60,
} as const;

export type PasskeyServices = Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'>;

export interface RelyingParty {
  rpId: string;
  rpName: string;
  origin: string;
}

export function relyingParty(baseUrl: string, rpName: string): RelyingParty {
  const url = new URL(baseUrl);
  return { rpId: url.hostname, rpName, origin: url.origin };
}

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}


export const refusedPasskey = (why = 'This passkey could not be verified.') => new AppError('passkey_verification_failed', `${why} Try again, or sign in with your password.`);
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
      expiresAt: new Date(entry.now.getTime() + PASSKEY_RULES.challengeLifetimeMs).toISOString(),
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

async function passkeyRows(realm: AccessRealm, db: Executor, userId: string) {
  return db.selectFrom(realm.tables.passkeys).selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();
}

export async function listPasskeys(realm: AccessRealm, db: Executor, userId: string): Promise<Passkey[]> {
  return (await passkeyRows(realm, db, userId)).map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt }));
}

/** Whether the account itself asks a passkey after the password (its switch; the realm may ask more, `realm.requiresPasskey`). */
export async function accountAsksPasskey(realm: AccessRealm, db: Executor, userId: string): Promise<boolean> {
  const user = await db.selectFrom(realm.tables.users).select('requirePasskey').where('id', '=', userId).executeTakeFirst();
  return Boolean(user?.requirePasskey);
}

// ── Registration (signed in) ─────────────────────────────────────────────────────────────────────

/** Options for `navigator.credentials.create()`: a discoverable credential (usable without typing the e-mail), user verification required. */
export async function passkeyRegistrationOptions(realm: AccessRealm, services: PasskeyServices, session: AccessSession) {
  const rp = relyingParty(services.baseUrl, realm.rpName);
  const now = services.clock.now();
  const existing = await passkeyRows(realm, services.db, session.userId);
  if (existing.length >= PASSKEY_RULES.maxPasskeysPerUser) {
    throw new AppError('invalid_request', `You have ${existing.length} passkeys, the most one account may have; remove one first.`);
  }
  const challenge = await inUnitOfWork(services.db, (tx) =>
    issueChallenge(tx, { purpose: realm.purposes.registration, userId: session.userId, organisationId: session.scopeId, binding: session.sessionId, now }),
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
  realm: AccessRealm,
  services: PasskeyServices,
  session: AccessSession,
  input: { response: RegistrationResponseJSON; name?: string | undefined },
  origin: RequestOrigin,
): Promise<Passkey> {
  const rp = relyingParty(services.baseUrl, realm.rpName);
  const now = services.clock.now();
  const challenge = challengeOf(input.response);
  await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, realm.purposes.registration, session.sessionId, now));
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
    const taken = await tx.selectFrom(realm.tables.passkeys).select('id').where('id', '=', info.credential.id).executeTakeFirst();
    if (taken) throw new AppError('passkey_already_registered', 'This passkey is registered already.');
    await tx
      .insertInto(realm.tables.passkeys)
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
    await realm.audit(tx, { userId: session.userId, scopeId: session.scopeId, action: 'passkey_registered', target: `passkey:${info.credential.id}`, origin, now });
    return { id: info.credential.id, name, createdAt: at, lastUsedAt: null };
  });
}

async function ownPasskey(realm: AccessRealm, db: Executor, userId: string, id: string) {
  const row = await db.selectFrom(realm.tables.passkeys).selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'Passkey not found.');
  return row;
}

export async function renamePasskey(realm: AccessRealm, services: PasskeyServices, session: AccessSession, id: string, name: string, origin: RequestOrigin): Promise<Passkey> {
  const now = services.clock.now();
  return inUnitOfWork(services.db, async (tx) => {
    const row = await ownPasskey(realm, tx, session.userId, id);
    await tx.updateTable(realm.tables.passkeys).set({ name }).where('id', '=', id).execute();
    await realm.audit(tx, { userId: session.userId, scopeId: session.scopeId, action: 'passkey_renamed', target: `passkey:${id}`, origin, now });
    return { id, name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
  });
}

/** Removes one of the person's own passkeys; not the last one while a passkey is asked after the password. */
export async function removePasskey(realm: AccessRealm, services: PasskeyServices, session: AccessSession, id: string, origin: RequestOrigin): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await ownPasskey(realm, tx, session.userId, id);
    const count = (await passkeyRows(realm, tx, session.userId)).length;
    if (count === 1 && (await realm.requiresPasskey(tx, session.userId))) {
      throw new AppError('dashboard_last_passkey', 'This is your last passkey and your sign-in asks for one: switch off "Ask for a passkey after the password" first.');
    }
    await tx.deleteFrom(realm.tables.passkeys).where('id', '=', id).where('userId', '=', session.userId).execute();
    await realm.audit(tx, { userId: session.userId, scopeId: session.scopeId, action: 'passkey_removed', target: `passkey:${id}`, origin, now });
  });
}

/** Records that a passkey was shown (or made with user verification) in this session: from then on it passes the gate. */
export async function markSessionPasskeyVerified(realm: AccessRealm, db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable(realm.tables.sessions).set({ passkeyVerifiedAt: now.toISOString() }).where('id', '=', sessionId).where('passkeyVerifiedAt', 'is', null).execute();
}

/**
 * Switches "ask for a passkey after the password" on (needs a passkey) or off. Switching it on keeps the session
 * that did it (its holder just chose the stricter rule) and ends, through the realm's session look-up, every other
 * session of the person that was opened without a passkey.
 */
export async function setRequirePasskey(realm: AccessRealm, services: PasskeyServices, session: AccessSession, on: boolean, origin: RequestOrigin): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    if (on && (await passkeyRows(realm, tx, session.userId)).length === 0) {
      throw new AppError('dashboard_passkey_needed', 'Add a passkey first: then it can be asked after your password.');
    }
    if (!on && !realm.mayDropPasskey) throw new AppError('dashboard_passkey_needed', 'This sign-in always asks a passkey after the password.');
    if ((await accountAsksPasskey(realm, tx, session.userId)) === on) return;
    await tx.updateTable(realm.tables.users).set({ requirePasskey: on }).where('id', '=', session.userId).execute();
    if (on) await markSessionPasskeyVerified(realm, tx, session.sessionId, now);
    await realm.audit(tx, {
      userId: session.userId,
      scopeId: session.scopeId,
      action: on ? 'passkey_second_factor_enabled' : 'passkey_second_factor_disabled',
      target: `user:${session.userId}`,
      origin,
      now,
    });
  });
}

// ── Sign-in (passwordless, and as the second factor) ─────────────────────────────────────────────

/** The key passkey failures are counted under in the sign-in throttle (per address: there is no e-mail to count by). */
const passkeyThrottleKey = (realm: AccessRealm, origin: RequestOrigin) => realm.throttleKey(`passkey:${origin.ip ?? 'unknown'}`);

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
export async function passkeySignInOptions(realm: AccessRealm, services: PasskeyServices, origin: RequestOrigin) {
  const now = services.clock.now();
  await assertSignInAllowed(services.db, passkeyThrottleKey(realm, origin), origin.ip ?? 'unknown', now);
  // Unauthenticated, so each address may hold only a few live challenges at once (the table cannot be flooded).
  const address = `ip:${origin.ip ?? 'unknown'}`;
  const live = await services.db
    .selectFrom('dashboardWebauthnChallenges')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('binding', '=', address)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now.toISOString())
    .executeTakeFirstOrThrow();
  if (Number(live.count) >= PASSKEY_RULES.maxOpenSignInChallengesPerIp) {
    throw new AppError('too_many_sign_in_attempts', 'Too many passkey prompts opened from this address. Wait a few minutes, or sign in with your password.').withRetryAfter(
      PASSKEY_RULES.challengeLifetimeMs / 1000,
    );
  }
  const challenge = await inUnitOfWork(services.db, (tx) => issueChallenge(tx, { purpose: realm.purposes.signIn, userId: null, organisationId: null, binding: address, now }));
  return authenticationOptions(relyingParty(services.baseUrl, realm.rpName), challenge);
}

async function verifyAssertion(realm: AccessRealm, services: PasskeyServices, response: AuthenticationResponseJSON, challenge: string, credential: { id: string; publicKey: string; counter: number; transports: string }) {
  const rp = relyingParty(services.baseUrl, realm.rpName);
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

/** How a session is opened once a passkey is verified: the realm's session gate (`session-gate.ts`), with proof `passkey`. */
export type OpenVerifiedSession<T> = (
  tx: Executor,
  options: { user: { id: string; email: string }; scopeId: string | null; origin: RequestOrigin; now: Date; audit: { action: string; target: string } },
) => Promise<T>;

async function openSession<T>(
  realm: AccessRealm,
  services: PasskeyServices,
  open: OpenVerifiedSession<T>,
  user: { id: string; email: string },
  scopeId: string | null | undefined,
  credentialId: string,
  newCounter: number,
  origin: RequestOrigin,
  how: string,
): Promise<T> {
  const now = services.clock.now();
  const scope = scopeId !== undefined ? scopeId : await realm.defaultScope(services.db, user.id);
  if (scope === undefined) throw refusedPasskey();
  return inUnitOfWork(services.db, async (tx) => {
    await tx.updateTable(realm.tables.passkeys).set({ counter: newCounter, lastUsedAt: now.toISOString() }).where('id', '=', credentialId).execute();
    return open(tx, { user, scopeId: scope, origin, now, audit: { action: 'passkey_sign_in', target: `passkey:${credentialId} ${how}` } });
  });
}

async function failed(realm: AccessRealm, services: PasskeyServices, key: string, origin: RequestOrigin, userId: string | null): Promise<never> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await recordSignInFailure(tx, key, origin.ip ?? 'unknown', now);
    await realm.audit(tx, { userId, scopeId: null, action: 'sign_in_failed', target: userId ? `user:${userId} passkey` : 'passkey', origin, now });
  });
  throw refusedPasskey();
}

/** Passwordless sign-in: the assertion of a discoverable passkey against a sign-in challenge of this realm. Opens a session. */
export async function signInWithPasskey<T>(
  realm: AccessRealm,
  services: PasskeyServices,
  open: OpenVerifiedSession<T>,
  input: { response: AuthenticationResponseJSON; origin: RequestOrigin },
): Promise<T> {
  const now = services.clock.now();
  const key = passkeyThrottleKey(realm, input.origin);
  await assertSignInAllowed(services.db, key, input.origin.ip ?? 'unknown', now);
  const challenge = challengeOf(input.response);
  await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, realm.purposes.signIn, null, now));
  const credential = await services.db
    .selectFrom(`${realm.tables.passkeys} as p`)
    .innerJoin(`${realm.tables.users} as u`, 'u.id', 'p.userId')
    .select(['p.id', 'p.publicKey', 'p.counter', 'p.transports', 'p.userId', 'u.email', 'u.emailVerifiedAt'])
    .where('p.id', '=', String(input.response.id))
    .executeTakeFirst();
  if (!credential || !credential.emailVerifiedAt) return failed(realm, services, key, input.origin, null);
  let counter: number;
  try {
    counter = await verifyAssertion(realm, services, input.response, challenge, credential);
  } catch {
    return failed(realm, services, key, input.origin, credential.userId);
  }
  return openSession(realm, services, open, { id: credential.userId, email: credential.email }, undefined, credential.id, counter, input.origin, 'passwordless');
}

/**
 * After a right password, for a person who must show a passkey too: no session yet, but a pending sign-in (a random
 * token for the cookie, whose hash binds a second-factor challenge to this browser, this person and scope) and the
 * options for `navigator.credentials.get()` listing the person's passkeys. Called inside the password step's
 * transaction; undefined when the password is enough.
 */
export async function beginSecondFactor(
  realm: AccessRealm,
  services: Pick<DashboardServices, 'baseUrl'>,
  tx: Executor,
  user: { id: string },
  scopeId: string | null,
  now: Date,
): Promise<{ pendingToken: string; options: Awaited<ReturnType<typeof authenticationOptions>> } | undefined> {
  if (!(await realm.requiresPasskey(tx, user.id))) return undefined;
  const passkeys = await passkeyRows(realm, tx, user.id);
  // Removing the last passkey is refused while one is asked, so this is only reached after a manual change.
  if (passkeys.length === 0) throw new AppError('dashboard_passkey_needed', 'Your sign-in asks for a passkey but none is registered: ask support to reset your second factor.');
  const pendingToken = newSecretToken();
  const challenge = await issueChallenge(tx, { purpose: realm.purposes.secondFactor, userId: user.id, organisationId: scopeId, binding: hashToken(pendingToken), now });
  return { pendingToken, options: await authenticationOptions(relyingParty(services.baseUrl, realm.rpName), challenge, passkeys) };
}

/** The second step: the assertion must answer the challenge bound to this browser's pending sign-in, with one of that person's passkeys. */
export async function completeSecondFactor<T>(
  realm: AccessRealm,
  services: PasskeyServices,
  open: OpenVerifiedSession<T>,
  input: { pendingToken: string | undefined; response: AuthenticationResponseJSON; origin: RequestOrigin },
): Promise<T> {
  const now = services.clock.now();
  if (!input.pendingToken) throw badChallenge();
  const challenge = challengeOf(input.response);
  const row = await inUnitOfWork(services.db, (tx) => consumeChallenge(tx, challenge, realm.purposes.secondFactor, hashToken(input.pendingToken!), now));
  const user = await services.db.selectFrom(realm.tables.users).select(['id', 'email']).where('id', '=', row.userId!).executeTakeFirstOrThrow();
  const key = realm.throttleKey(user.email);
  await assertSignInAllowed(services.db, key, input.origin.ip ?? 'unknown', now);
  const credential = await services.db.selectFrom(realm.tables.passkeys).selectAll().where('id', '=', String(input.response.id)).where('userId', '=', user.id).executeTakeFirst();
  if (!credential) return failed(realm, services, key, input.origin, user.id);
  let counter: number;
  try {
    counter = await verifyAssertion(realm, services, input.response, challenge, credential);
  } catch {
    return failed(realm, services, key, input.origin, user.id);
  }
  return openSession(realm, services, open, user, row.organisationId, credential.id, counter, input.origin, 'second factor');
}
