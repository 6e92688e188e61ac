import crypto from 'node:crypto';
import { randomBytes } from './random';

/**
 * Keyed hashing, signing and encryption under the service's master key. Sub-keys are derived per
 * purpose (HKDF) so a leak of one use does not weaken another.
 */
export class Secrets {
  private readonly keys = new Map<string, Buffer>();
  constructor(private readonly masterKey: string) {}

  private key(purpose: string): Buffer {
    let k = this.keys.get(purpose);
    if (!k) {
      k = Buffer.from(crypto.hkdfSync('sha256', this.masterKey, 'lending-platform', purpose, 32));
      this.keys.set(purpose, k);
    }
    return k;
  }

  /** Hex HMAC-SHA256 of `value` under the sub-key for `purpose`. */
  hmac(purpose: string, value: string): string {
    return crypto.createHmac('sha256', this.key(purpose)).update(value).digest('hex');
  }

  /** AES-256-GCM; returns `iv.tag.ciphertext` in base64url. */
  encrypt(purpose: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key(`enc:${purpose}`), iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  decrypt(purpose: string, sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    if (!iv || !tag || !data) throw new Error('malformed sealed value');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key(`enc:${purpose}`), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}

/** Constant-time comparison of two hex or text digests. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string (rejection sampling, no modulo bias). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
