import crypto from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

/** Authenticator-data flags: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software WebAuthn authenticator for API tests (the browser tests use Chromium's virtual one):
 * a real P-256 key pair per credential, real authenticator data, `none` attestation and DER
 * ECDSA signatures over authenticatorData ‖ SHA-256(clientDataJSON), exactly what a platform
 * authenticator returns through `PublicKeyCredential.toJSON()`.
 */
export class SoftAuthenticator {
  private readonly credentials = new Map<string, { privateKey: crypto.KeyObject; counter: number; userHandle: string }>();

  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** `navigator.credentials.create()` for a challenge (base64url) and user handle. */
  register(options: { challenge: string; userHandle?: string; origin?: string; rpId?: string; userVerified?: boolean }): RegistrationResponseJSON {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const credentialId = crypto.randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, Buffer.from(cose)]);
    const flags = UP | AT | (options.userVerified === false ? 0 : UV);
    const authData = this.authData(options.rpId ?? this.rpId, flags, 0, attested);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: options.origin ?? this.origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    const id = b64url(credentialId);
    this.credentials.set(id, { privateKey, counter: 0, userHandle: options.userHandle ?? b64url(crypto.randomBytes(16)) });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64url(Buffer.from(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`: signs the challenge with a credential (the only one by default). */
  sign(options: { challenge: string; credentialId?: string; origin?: string; rpId?: string; userVerified?: boolean }): AuthenticationResponseJSON {
    const id = options.credentialId ?? [...this.credentials.keys()][0]!;
    const credential = this.credentials.get(id);
    if (!credential) throw new Error(`no credential ${id}`);
    credential.counter += 1;
    const authData = this.authData(options.rpId ?? this.rpId, UP | (options.userVerified === false ? 0 : UV), credential.counter);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: options.origin ?? this.origin, crossOrigin: false }));
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}

/** Flips one bit of a base64url value (a tampered signature, authenticator data…). */
export function tamper(value: string, at = 10): string {
  const bytes = Buffer.from(value, 'base64url');
  bytes[at % bytes.length]! ^= 0x01;
  return bytes.toString('base64url');
}
