import crypto from 'node:crypto';
import { randomBytes } from '../random';

/** A random token for a cookie or a link (256 bits, base64url); the database keeps only `hashToken(token)`. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/** SHA-256 hex: a stolen database row gives no usable cookie or link. Tokens are random, so no salt or slow hash is needed. */
export const hashToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
