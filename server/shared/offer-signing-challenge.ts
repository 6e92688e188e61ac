import crypto from 'node:crypto';

/**
 * The WebAuthn challenge that binds a passkey signature to one offer: a published formula, so the
 * checkout server (the relying party), the platform and anyone holding the stored evidence later
 * compute the same value.
 *
 *   challenge = base64url( SHA-256( UTF-8( JSON.stringify(["lc-offer-signature/v1", loanId, documentReference, nonce]) ) ) )
 *
 * The nonce is one-time, issued and consumed by the platform. JSON array encoding keeps the three
 * inputs unambiguous whatever characters they hold.
 */
export const OFFER_CHALLENGE_VERSION = 'lc-offer-signature/v1';

export interface OfferChallengeInputs {
  loanId: string;
  documentReference: string;
  nonce: string;
}

export function offerSigningChallenge(inputs: OfferChallengeInputs): string {
  const preimage = JSON.stringify([OFFER_CHALLENGE_VERSION, inputs.loanId, inputs.documentReference, inputs.nonce]);
  return crypto.createHash('sha256').update(preimage, 'utf8').digest('base64url');
}
