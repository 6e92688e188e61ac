import net from 'node:net';
import { AppError } from '../errors';
import { refusedRange, type AddressPolicy } from '../../../shared/address-policy';

/** Which addresses may receive webhooks is pure address arithmetic, shared with the sender (`server/shared/address-policy.ts`). */
export { isPublicAddress, refusedRange, type AddressPolicy } from '../../../shared/address-policy';

/**
 * Registration: a URL whose host is an IP literal must name an address that may receive webhooks
 * (`refusedRange`); hostnames are checked at delivery, after DNS resolution, on the address the
 * connection then uses. Nothing is stored when this refuses (422 `webhook_url_not_allowed`).
 */
export function checkTargetHost(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host)) return;
  const range = refusedRange(host, policy);
  if (range) {
    throw new AppError(
      'webhook_url_not_allowed',
      `url: ${host} is not a public address (${range}); webhooks go only to globally routable addresses` +
        (range === 'loopback' ? ' (loopback only when the server runs with WEBHOOK_ALLOW_LOOPBACK=true, for development)' : ''),
    );
  }
}
