import net from 'node:net';
import { AppError } from '../errors';
import { refusedName, refusedRange, type AddressPolicy } from '../../../shared/address-policy';

/** Which addresses and names may receive webhooks is pure arithmetic, shared with the sender (`server/shared/address-policy.ts`). */
export { isPublicAddress, refusedName, refusedRange, type AddressPolicy } from '../../../shared/address-policy';

const LOOPBACK_HINT = ' (loopback only when the server runs with WEBHOOK_ALLOW_LOOPBACK=true, for development)';

/**
 * Registration: a URL whose host is an IP literal must name an address that may receive webhooks
 * (`refusedRange`); a host name must not be a special-use or internal name (`refusedName`:
 * `localhost`, `*.local`, `*.internal`, …, in any case, with or without a trailing dot). A name that
 * passes is resolved again at every delivery, and the connection goes only to an address that passes
 * `refusedRange`. Nothing is stored when this refuses (422 `webhook_url_not_allowed`).
 */
export function checkTargetHost(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host)) {
    const why = refusedName(host, policy);
    if (why) {
      throw new AppError(
        'webhook_url_not_allowed',
        `url: ${host} is ${why}, never a public host; webhooks go only to public host names` + (why === 'a loopback name' ? LOOPBACK_HINT : ''),
      );
    }
    return;
  }
  const range = refusedRange(host, policy);
  if (range) {
    throw new AppError(
      'webhook_url_not_allowed',
      `url: ${host} is not a public address (${range}); webhooks go only to globally routable addresses` + (range === 'loopback' ? LOOPBACK_HINT : ''),
    );
  }
}
