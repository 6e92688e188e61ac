import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relyingPartyFor } from '../../server/checkout/passkeys';
import { credentialFingerprint } from '../../server/platform/domain/passkeys/passkey';
import { OFFER_CHALLENGE_VERSION, offerSigningChallenge } from '../../server/shared/offer-signing-challenge';

describe('the offer-signing challenge', () => {
  it('is base64url(SHA-256) of the JSON array of version, loan id, document reference and nonce', () => {
    const inputs = { loanId: '0192f0a4-1111-7000-8000-000000000001', documentReference: 'OFR-0192f0a4-1111-7000-8000-000000000001-1', nonce: 'bm9uY2U' };
    const expected = crypto
      .createHash('sha256')
      .update(`["${OFFER_CHALLENGE_VERSION}","${inputs.loanId}","${inputs.documentReference}","${inputs.nonce}"]`)
      .digest('base64url');
    expect(offerSigningChallenge(inputs)).toBe(expected);
    expect(offerSigningChallenge(inputs)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('differs whenever any input differs, even when the concatenations are equal', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), fc.string(), fc.string(), (l1, d1, n1, l2, d2, n2) => {
        fc.pre(l1 !== l2 || d1 !== d2 || n1 !== n2);
        expect(offerSigningChallenge({ loanId: l1, documentReference: d1, nonce: n1 })).not.toBe(offerSigningChallenge({ loanId: l2, documentReference: d2, nonce: n2 }));
      }),
    );
    expect(offerSigningChallenge({ loanId: 'a', documentReference: 'bc', nonce: 'd' })).not.toBe(offerSigningChallenge({ loanId: 'ab', documentReference: 'c', nonce: 'd' }));
  });
});

describe('credential fingerprints on the letter', () => {
  it('are the first 8 bytes of SHA-256 over the raw credential id, in upper-case groups of four', () => {
    const id = Buffer.from('credential-id').toString('base64url');
    const hex = crypto.createHash('sha256').update('credential-id').digest('hex').slice(0, 16).toUpperCase();
    expect(credentialFingerprint(id)).toBe(`${hex.slice(0, 4)} ${hex.slice(4, 8)} ${hex.slice(8, 12)} ${hex.slice(12)}`);
  });
});

describe('the checkout server\'s relying party', () => {
  it('comes from the configured origin, or the request\'s, with the host name as RP id', () => {
    expect(relyingPartyFor(undefined, 'https://shop.example:8443')).toEqual({ rpId: 'shop.example', rpName: 'Loan checkout', origin: 'https://shop.example:8443' });
    expect(relyingPartyFor({ origin: 'https://pay.shop.example', rpId: 'shop.example', rpName: 'Shop' }, 'http://127.0.0.1:3000')).toEqual({
      rpId: 'shop.example',
      rpName: 'Shop',
      origin: 'https://pay.shop.example',
    });
    expect(relyingPartyFor(undefined, 'http://localhost:3000')?.rpId).toBe('localhost');
  });

  it('is absent when passkeys are off or the page is served from an IP address (WebAuthn needs a host name)', () => {
    expect(relyingPartyFor(false, 'https://shop.example')).toBeUndefined();
    expect(relyingPartyFor(undefined, 'http://127.0.0.1:3000')).toBeUndefined();
    expect(relyingPartyFor(undefined, 'http://[::1]:3000')).toBeUndefined();
    expect(relyingPartyFor({ origin: 'not a url' }, 'https://shop.example')).toBeUndefined();
  });
});
