import express, { type Request, type Response } from 'express';
import ipaddr from 'ipaddr.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { loadWebAuthn } from '../shared/webauthn';
import { offerSigningChallenge } from '../shared/offer-signing-challenge';
import type { PlatformAnswer, PlatformCall } from './platform-client';

/**
 * Passkeys in the checkout server, which is the WebAuthn relying party: it builds the browser's
 * options and verifies what comes back, while everything that must outlive a request is the
 * platform's (credentials, one-time challenges, evidence), reached over the documented
 * `/v1/checkout/passkeys*` and `/v1/checkout/accept` routes. Several checkout processes can
 * therefore serve one borrower. Passkeys are optional: without one, the typed name and the
 * verified phone sign, and nothing here ever blocks that path.
 */
export interface PasskeyOptions {
  /** Relying party id: the host name passkeys are bound to. Default: the host of `origin`. */
  rpId?: string;
  /** Shown by the browser's passkey prompt. Default `Loan checkout`. */
  rpName?: string;
  /** The origin the hosted page is served from, e.g. `https://checkout.lender.example`. Default: `publicUrl`'s origin, else the request's. */
  origin?: string;
}

export interface RelyingParty {
  rpId: string;
  rpName: string;
  origin: string;
}

type Failure = [status: number, error: string, message: string];

const fail = (res: Response, [status, error, message]: Failure) => res.status(status).json({ status, success: false, message, error });

/** A challenge as the platform issues them: base64url of 32 bytes. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The relying party for a request, or undefined when passkeys cannot work here: switched off, or
 * the page is served from an IP address (WebAuthn needs a host name; `localhost` is fine).
 */
export function relyingPartyFor(options: PasskeyOptions | false | undefined, fallbackOrigin: string): RelyingParty | undefined {
  if (options === false) return undefined;
  let origin: URL;
  try {
    origin = new URL(options?.origin ?? fallbackOrigin);
  } catch {
    return undefined;
  }
  const rpId = options?.rpId ?? origin.hostname;
  if (ipaddr.isValid(rpId.replace(/^\[|\]$/g, ''))) return undefined;
  return { rpId, rpName: options?.rpName ?? 'Loan checkout', origin: origin.origin };
}

interface Deps {
  platform: PlatformCall;
  relyingParty: (req: Request, res: Response) => RelyingParty | undefined;
}

/** The parts of the platform's answers this file reads (see the OpenAPI document for the whole shapes). */
interface CredentialDescriptor {
  id: string;
  transports: string[];
}
interface RegistrationChallenge {
  challenge: string;
  user: { id: string; name: string; displayName: string };
  excludeCredentials: CredentialDescriptor[];
}
interface SignChallenge {
  nonce: string;
  challenge: string;
  documentReference: string;
  allowCredentials: CredentialDescriptor[];
}
interface PasskeyList {
  loanId: string;
  passkeys: Array<{ credentialId: string; publicKey: string; counter: number; transports: string[] }>;
}

const data = <T>(answer: { body: Record<string, unknown> }) => answer.body.data as T;

/** `/passkeys` (status), `/passkeys/registration-options`, `/passkeys` (POST, register), `/offer/passkey-options`. */
export function createPasskeyRoutes(deps: Deps): express.Router {
  const router = express.Router();
  const token = (res: Response) => res.locals.token as string;
  const relay = (res: Response, answer: PlatformAnswer) => {
    if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
    return res.status(answer.status).json(answer.body);
  };
  const unavailable: Failure = [409, 'passkeys_unavailable', 'Passkeys are not available on this page; sign with your typed name.'];

  // Whether to offer passkeys at all (the widget also asks the browser), and whether the borrower has one here.
  router.get('/passkeys', async (req, res) => {
    const rp = deps.relyingParty(req, res);
    if (!rp) return res.json({ status: 200, success: true, message: 'Passkeys', data: { available: false, registered: 0 } });
    const answer = await deps.platform('GET', `/v1/checkout/passkeys?rpId=${encodeURIComponent(rp.rpId)}`, token(res));
    if (answer.status !== 200) return relay(res, answer);
    res.json({ status: 200, success: true, message: 'Passkeys', data: { available: true, registered: data<PasskeyList>(answer).passkeys.length } });
  });

  router.post('/passkeys/registration-options', async (req, res) => {
    const rp = deps.relyingParty(req, res);
    if (!rp) return fail(res, unavailable);
    const answer = await deps.platform('POST', '/v1/checkout/passkeys/registration-challenge', token(res), { rpId: rp.rpId });
    if (answer.status !== 201) return relay(res, answer);
    const issued = data<RegistrationChallenge>(answer);
    const options = await (await loadWebAuthn()).generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpId,
      userID: new Uint8Array(Buffer.from(issued.user.id, 'base64url')),
      userName: issued.user.name,
      userDisplayName: issued.user.displayName,
      challenge: new Uint8Array(Buffer.from(issued.challenge, 'base64url')),
      attestationType: 'none',
      excludeCredentials: issued.excludeCredentials,
      // A passkey on this device, unlocked by the borrower (biometrics or screen lock).
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    });
    res.json({ status: 200, success: true, message: 'Registration options', data: options });
  });

  router.post('/passkeys', async (req, res) => {
    const rp = deps.relyingParty(req, res);
    if (!rp) return fail(res, unavailable);
    const response = (req.body as { response?: RegistrationResponseJSON })?.response;
    if (!response || typeof response !== 'object') return fail(res, [400, 'invalid_request', 'response: send the passkey registration response.']);
    // As relying party: origin, RP id, user verification and the attestation. The challenge's issue and
    // single use are the platform's to check (it verifies the whole response again against the challenge it issued).
    const { verifyRegistrationResponse } = await loadWebAuthn();
    const refused = await refusal(() =>
      verifyRegistrationResponse({
        response: response!,
        expectedChallenge: (challenge) => CHALLENGE.test(challenge),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        requireUserVerification: true,
      }),
    );
    if (refused) return fail(res, refused);
    relay(res, await deps.platform('POST', '/v1/checkout/passkeys', token(res), { rpId: rp.rpId, origin: rp.origin, response }, req.get('idempotency-key') ?? undefined));
  });

  router.post('/offer/passkey-options', async (req, res) => {
    const rp = deps.relyingParty(req, res);
    if (!rp) return fail(res, unavailable);
    const answer = await deps.platform('POST', '/v1/checkout/passkeys/sign-challenge', token(res), { rpId: rp.rpId });
    if (answer.status !== 201) return relay(res, answer);
    const issued = data<SignChallenge>(answer);
    const options = await (await loadWebAuthn()).generateAuthenticationOptions({
      rpID: rp.rpId,
      challenge: new Uint8Array(Buffer.from(issued.challenge, 'base64url')),
      allowCredentials: issued.allowCredentials,
      userVerification: 'required',
    });
    res.json({ status: 200, success: true, message: 'Signing options', data: { options, nonce: issued.nonce, documentReference: issued.documentReference } });
  });

  return router;
}

async function refusal(verify: () => Promise<{ verified: boolean }>): Promise<Failure | undefined> {
  try {
    if ((await verify()).verified) return undefined;
    return [422, 'passkey_verification_failed', 'Your passkey could not be verified. Try again, or sign with your typed name.'];
  } catch (error) {
    const why = error instanceof Error ? error.message : 'unreadable response';
    return [422, 'passkey_verification_failed', `Your passkey could not be verified (${why.slice(0, 160)}). Try again, or sign with your typed name.`];
  }
}

/**
 * The `passkey` part of an acceptance, verified here as relying party before it goes to the
 * platform: the credential must be one of the borrower's passkeys for this site, and the
 * challenge the one bound to this offer (loan id, the document reference being signed, the
 * nonce). The platform verifies it all again and uses the nonce.
 */
export async function passkeySignature(
  deps: Deps,
  req: Request,
  res: Response,
  documentReference: unknown,
): Promise<{ passkey?: { nonce: string; rpId: string; origin: string; response: AuthenticationResponseJSON }; error?: Failure }> {
  const given = (req.body as { passkey?: { nonce?: unknown; response?: AuthenticationResponseJSON } })?.passkey;
  if (given === undefined) return {};
  const rp = deps.relyingParty(req, res);
  if (!rp) return { error: [409, 'passkeys_unavailable', 'Passkeys are not available on this page; sign with your typed name.'] };
  if (typeof given?.nonce !== 'string' || typeof given.response?.id !== 'string' || typeof documentReference !== 'string') {
    return { error: [400, 'invalid_request', 'passkey: send the nonce and the passkey response.'] };
  }
  const answer = await deps.platform('GET', `/v1/checkout/passkeys?rpId=${encodeURIComponent(rp.rpId)}`, res.locals.token as string);
  if (answer.status !== 200) return { error: [answer.status, String(answer.body.error), String(answer.body.message)] };
  const { loanId, passkeys } = data<PasskeyList>(answer);
  const credential = passkeys.find((p) => p.credentialId === given.response!.id);
  if (!credential) return { error: [422, 'passkey_verification_failed', 'This passkey is not registered for you on this site. Sign with your typed name, or add the passkey first.'] };
  const expected = offerSigningChallenge({ loanId, documentReference, nonce: given.nonce });
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  const refused = await refusal(() =>
    verifyAuthenticationResponse({
      response: given.response!,
      expectedChallenge: expected,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      credential: { id: credential.credentialId, publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')), counter: credential.counter, transports: credential.transports },
      requireUserVerification: true,
    }),
  );
  if (refused) return { error: refused };
  return { passkey: { nonce: given.nonce, rpId: rp.rpId, origin: rp.origin, response: given.response } };
}
