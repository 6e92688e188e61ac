import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { loadWebAuthn } from '../../../shared/webauthn';
import type { Executor } from '../../db/database';
import type { LoanConsentPasskeysTable, LoansTable } from '../../db/schema';
import { OFFER_CHALLENGE_VERSION, offerSigningChallenge } from '../../../shared/offer-signing-challenge';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { CheckoutScope } from '../checkout/checkout-session';
import { consumeChallenge, listUserPasskeys, newNonce, PASSKEY_RULES, requireLiveChallenge, sessionUser, toPasskey, verificationFailed } from './passkey';

/** What the relying party needs to build `navigator.credentials.get()` options for signing one offer. */
export interface SignChallenge {
  nonce: string;
  /** `offerSigningChallenge({loanId, documentReference, nonce})`, base64url. */
  challenge: string;
  challengeVersion: string;
  loanId: string;
  documentReference: string;
  expiresAt: string;
  allowCredentials: Array<{ id: string; transports: string[] }>;
}

/**
 * Issues a one-time nonce for signing the session's current offer with a passkey of this relying
 * party; the challenge binds the loan, the offer's document reference and the nonce.
 */
export async function issueSignChallenge(db: Executor, scope: CheckoutScope, input: { rpId: string }, now: Date): Promise<SignChallenge> {
  const user = await sessionUser(db, scope);
  const loan = await db.selectFrom('loans').select(['id', 'status', 'documentReference']).where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  if (loan.status !== 'awaiting_acceptance' || !loan.documentReference) {
    throw new AppError('invalid_loan_state', `The loan is ${loan.status}: there is no offer to sign.`);
  }
  const passkeys = await listUserPasskeys(db, user.userId, input.rpId);
  if (passkeys.length === 0) {
    throw new AppError('passkey_not_registered', 'The borrower has no passkey for this site: register one, or sign with the typed name.');
  }
  const nonce = newNonce();
  const challenge = offerSigningChallenge({ loanId: loan.id, documentReference: loan.documentReference, nonce });
  const expiresAt = new Date(now.getTime() + PASSKEY_RULES.challengeLifetimeMs).toISOString();
  await db
    .insertInto('passkeyChallenges')
    .values({
      id: newId(),
      sessionId: scope.sessionId,
      loanId: loan.id,
      userId: user.userId,
      purpose: 'sign',
      nonce,
      challenge,
      rpId: input.rpId,
      documentReference: loan.documentReference,
      expiresAt,
      consumedAt: null,
      createdAt: now.toISOString(),
    })
    .execute();
  return {
    nonce,
    challenge,
    challengeVersion: OFFER_CHALLENGE_VERSION,
    loanId: loan.id,
    documentReference: loan.documentReference,
    expiresAt,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: toPasskey(p).transports })),
  };
}

/** A passkey signature as the checkout server forwards it. */
export interface PasskeySignature {
  nonce: string;
  rpId: string;
  origin: string;
  response: AuthenticationResponseJSON;
}

/** The verified evidence, waiting for the consent it belongs to. */
export type PasskeyEvidence = Omit<LoanConsentPasskeysTable, 'id' | 'consentId'>;

export const VERIFIED_WITH = '@simplewebauthn/server 14 verifyAuthenticationResponse (user verification required)';

/**
 * Verifies a passkey assertion over the offer the borrower is signing, and uses its nonce. The
 * platform does not take the checkout server's word for it: it re-derives the challenge from the
 * loan, the current document reference and the nonce it issued, and verifies the signature with
 * the public key it stored at registration. Runs in the acceptance's transaction: if the
 * verification or anything later fails, the nonce stays unused.
 */
export async function verifyOfferPasskey(db: Executor, scope: CheckoutScope, loan: LoansTable, signature: PasskeySignature, now: Date): Promise<PasskeyEvidence> {
  const user = await sessionUser(db, scope);
  if (!loan.documentReference) throw new AppError('invalid_loan_state', 'There is no offer to sign.');
  const row = await db.selectFrom('passkeyChallenges').selectAll().where('nonce', '=', signature.nonce).where('purpose', '=', 'sign').executeTakeFirst();
  if (!row || row.loanId !== loan.id || row.userId !== user.userId || row.rpId !== signature.rpId) {
    throw new AppError('passkey_challenge_invalid', 'This passkey challenge was not issued for this offer; ask for a new one.');
  }
  if (row.documentReference !== loan.documentReference) {
    throw new AppError('passkey_challenge_invalid', 'This passkey challenge was issued for an earlier version of the offer; ask for a new one.');
  }
  requireLiveChallenge(row, now);
  // Use the nonce first: the conditional UPDATE is the one place two racing signatures are told
  // apart (the loser waits for the winner's commit and finds it used), before either reads the
  // passkey's counter. A refusal below rolls the use back with the rest of the transaction.
  await consumeChallenge(db, row, now);
  const challenge = offerSigningChallenge({ loanId: loan.id, documentReference: loan.documentReference, nonce: row.nonce });
  const stored = await db
    .selectFrom('userPasskeys')
    .selectAll()
    .where('credentialId', '=', signature.response.id)
    .where('userId', '=', user.userId)
    .where('rpId', '=', row.rpId)
    .executeTakeFirst();
  if (!stored) throw verificationFailed('the credential is not one of the borrower\'s passkeys for this site');
  const passkey = toPasskey(stored);
  let info;
  try {
    const verified = await (await loadWebAuthn()).verifyAuthenticationResponse({
      response: signature.response,
      expectedChallenge: challenge,
      expectedOrigin: signature.origin,
      expectedRPID: row.rpId,
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error('the signature does not match the passkey');
    info = verified.authenticationInfo;
  } catch (error) {
    throw verificationFailed(error);
  }
  const at = now.toISOString();
  await db.updateTable('userPasskeys').set({ counter: info.newCounter, lastUsedAt: at }).where('id', '=', stored.id).execute();
  return {
    loanId: loan.id,
    passkeyId: stored.id,
    credentialId: stored.credentialId,
    publicKey: stored.publicKey,
    rpId: row.rpId,
    origin: info.origin,
    challengeVersion: OFFER_CHALLENGE_VERSION,
    documentReference: loan.documentReference,
    nonce: row.nonce,
    challenge,
    clientDataJson: signature.response.response.clientDataJSON,
    authenticatorData: signature.response.response.authenticatorData,
    signature: signature.response.response.signature,
    userHandle: signature.response.response.userHandle ?? null,
    signCount: info.newCounter,
    userVerified: info.userVerified,
    verified: true,
    verifiedWith: VERIFIED_WITH,
    verifiedAt: at,
  };
}

/** Stores the evidence with the consent it signed (same transaction). */
export async function recordPasskeyEvidence(db: Executor, consentId: string, evidence: PasskeyEvidence): Promise<void> {
  await db.insertInto('loanConsentPasskeys').values({ id: newId(), consentId, ...evidence }).execute();
}
