import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { loadWebAuthn } from '../../../shared/webauthn';
import type { Executor } from '../../db/database';
import { toJson } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { CheckoutScope } from '../checkout/checkout-session';
import { maskPhone, normalisePhone } from '../users/phone';
import {
  consumeChallenge,
  listUserPasskeys,
  newNonce,
  PASSKEY_RULES,
  requireLiveChallenge,
  sessionUser,
  toPasskey,
  verificationFailed,
  type Passkey,
} from './passkey';

/** What the relying party needs to build `navigator.credentials.create()` options. */
export interface RegistrationChallenge {
  challenge: string;
  expiresAt: string;
  /** `id` is the WebAuthn user handle (base64url of the platform user id: opaque, nothing personal). */
  user: { id: string; name: string; displayName: string };
  /** Passkeys this user already has for this relying party (the authenticator will not make a second). */
  excludeCredentials: Array<{ id: string; transports: string[] }>;
}

/** Issues a one-time registration challenge for the session's user (after OTP). */
export async function issueRegistrationChallenge(db: Executor, scope: CheckoutScope, input: { rpId: string }, now: Date): Promise<RegistrationChallenge> {
  const user = await sessionUser(db, scope);
  const nonce = newNonce();
  const expiresAt = new Date(now.getTime() + PASSKEY_RULES.challengeLifetimeMs).toISOString();
  await db
    .insertInto('passkeyChallenges')
    .values({
      id: newId(),
      sessionId: scope.sessionId,
      loanId: scope.loanId,
      userId: user.userId,
      purpose: 'register',
      nonce,
      // A registration challenge binds nothing but the session: the random nonce is the challenge.
      challenge: nonce,
      rpId: input.rpId,
      documentReference: null,
      expiresAt,
      consumedAt: null,
      createdAt: now.toISOString(),
    })
    .execute();
  const existing = await listUserPasskeys(db, user.userId, input.rpId);
  const phone = normalisePhone(user.phone);
  const displayName = `${user.firstName} ${user.lastName}`;
  return {
    challenge: nonce,
    expiresAt,
    user: { id: Buffer.from(user.userId, 'utf8').toString('base64url'), name: phone ? `${displayName} (${maskPhone(phone)})` : displayName, displayName },
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: toPasskey(p).transports })),
  };
}

function challengeOf(response: RegistrationResponseJSON | { response: { clientDataJSON: string } }): string {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof clientData.challenge === 'string') return clientData.challenge;
  } catch {
    // fall through
  }
  throw new AppError('passkey_verification_failed', 'The passkey response did not verify: clientDataJSON is not readable.');
}

export interface PasskeyRegistration {
  rpId: string;
  origin: string;
  response: RegistrationResponseJSON;
}

/**
 * Stores a new passkey for the session's user. The platform verifies the attestation itself
 * (@simplewebauthn/server, user verification required) against the challenge it issued to this
 * session, and uses the challenge once; the checkout server's own verification is not trusted.
 */
export async function registerPasskey(db: Executor, scope: CheckoutScope, input: PasskeyRegistration, now: Date, recordedBy: string): Promise<Passkey> {
  const user = await sessionUser(db, scope);
  const challenge = challengeOf(input.response);
  const row = await db
    .selectFrom('passkeyChallenges')
    .selectAll()
    .where('challenge', '=', challenge)
    .where('sessionId', '=', scope.sessionId)
    .where('purpose', '=', 'register')
    .executeTakeFirst();
  if (!row || row.rpId !== input.rpId) {
    throw new AppError('passkey_challenge_invalid', 'This registration was not started by this checkout for this site; start again.');
  }
  requireLiveChallenge(row, now);
  let info;
  try {
    const verified = await (await loadWebAuthn()).verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: row.challenge,
      expectedOrigin: input.origin,
      expectedRPID: row.rpId,
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('not verified');
    info = verified.registrationInfo;
  } catch (error) {
    throw verificationFailed(error);
  }
  await consumeChallenge(db, row, now);
  const at = now.toISOString();
  const id = newId();
  const inserted = await db
    .insertInto('userPasskeys')
    .values({
      id,
      userId: user.userId,
      mode: scope.mode,
      rpId: row.rpId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: toJson(info.credential.transports ?? input.response.response.transports ?? []),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      aaguid: info.aaguid,
      origin: info.origin,
      registeredBy: recordedBy,
      lastUsedAt: null,
      createdAt: at,
    })
    .onConflict((oc) => oc.column('credentialId').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw new AppError('passkey_already_registered', 'This passkey is registered already.');
  return toPasskey(inserted);
}
