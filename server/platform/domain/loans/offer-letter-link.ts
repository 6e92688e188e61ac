import type { Secrets } from '../secrets';
import { safeEqual } from '../secrets';

const PURPOSE = 'offer-letter-link';

export type { OfferLetterLink } from '../../../shared/checkout-contract';
import type { OfferLetterLink } from '../../../shared/checkout-contract';

function signature(secrets: Secrets, loanId: string, documentReference: string, expires: number): string {
  return secrets.hmac(PURPOSE, `${loanId}|${documentReference}|${expires}`);
}

/** A fresh, short-lived link to the offer letter; it needs no API key, only its own signature. */
export function signOfferLetterLink(
  secrets: Secrets,
  options: { baseUrl: string; loanId: string; documentReference: string; now: Date; ttlSeconds: number },
): OfferLetterLink {
  const expires = Math.floor(options.now.getTime() / 1000) + options.ttlSeconds;
  const query = new URLSearchParams({
    ref: options.documentReference,
    expires: String(expires),
    signature: signature(secrets, options.loanId, options.documentReference, expires),
  });
  return {
    url: `${options.baseUrl}/offer-letters/${options.loanId}.pdf?${query}`,
    expiresAt: new Date(expires * 1000).toISOString(),
    documentReference: options.documentReference,
  };
}

/** True when the link is untampered and unexpired. */
export function verifyOfferLetterLink(
  secrets: Secrets,
  link: { loanId: string; documentReference: string; expires: string; signature: string },
  now: Date,
): boolean {
  if (!/^\d{1,12}$/.test(link.expires) || !/^[0-9a-f]{64}$/.test(link.signature)) return false;
  const expires = Number(link.expires);
  if (expires * 1000 <= now.getTime()) return false;
  return safeEqual(signature(secrets, link.loanId, link.documentReference, expires), link.signature);
}

/**
 * True when this platform signed the link, whatever its time: an expired link still names the loan it
 * was made for (its page may name the lender). Never a reason to serve the letter: that is `verifyOfferLetterLink`.
 */
export function isGenuineOfferLetterLink(secrets: Secrets, link: { loanId: string; documentReference: string; expires: string; signature: string }): boolean {
  if (!/^\d{1,12}$/.test(link.expires) || !/^[0-9a-f]{64}$/.test(link.signature)) return false;
  return safeEqual(signature(secrets, link.loanId, link.documentReference, Number(link.expires)), link.signature);
}
