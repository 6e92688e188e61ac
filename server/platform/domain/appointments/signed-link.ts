import type { Secrets } from '../secrets';
import type { LinkSigner } from '../ports';
import { safeEqual } from '../secrets';

/**
 * Short-lived links that need no credential, only their own HMAC signature over the path and the
 * expiry (the offer-letter links' scheme, for any platform-served file: prescription PDFs and
 * recordings in the local file store). Each use has its own purpose, so one kind of link cannot be
 * turned into another.
 */
export function signPath(secrets: Secrets, purpose: string, options: { baseUrl: string; path: string; now: Date; ttlSeconds: number }): { url: string; expiresAt: string } {
  const expires = Math.floor(options.now.getTime() / 1000) + options.ttlSeconds;
  const signature = secrets.hmac(purpose, `${options.path}|${expires}`);
  return { url: `${options.baseUrl}${options.path}?${new URLSearchParams({ expires: String(expires), signature })}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** What signs links to stored files (`/files/<key>`), served by the platform itself when files are on local disk. */
export const FILE_LINK_PURPOSE = 'file-link';

/** The local file store's link signer: an HMAC with the platform's keys, checked by `verifyPath` on `/files/…`. */
export const fileLinkSigner =
  (secrets: Secrets): LinkSigner =>
  (path, options) =>
    signPath(secrets, FILE_LINK_PURPOSE, { ...options, path }).url;

/** True when `signature` is this path's and `expires` has not passed. */
export function verifyPath(secrets: Secrets, purpose: string, link: { path: string; expires: unknown; signature: unknown }, now: Date): boolean {
  if (typeof link.expires !== 'string' || typeof link.signature !== 'string') return false;
  if (!/^\d{1,12}$/.test(link.expires) || !/^[0-9a-f]{64}$/.test(link.signature)) return false;
  const expires = Number(link.expires);
  if (expires * 1000 <= now.getTime()) return false;
  return safeEqual(secrets.hmac(purpose, `${link.path}|${expires}`), link.signature);
}
