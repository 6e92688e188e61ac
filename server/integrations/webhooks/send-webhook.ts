import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { SendWebhook, WebhookOutcome } from '../../platform/domain/ports';
import { isPublicAddress, refusedRange, type AddressPolicy } from '../../shared/address-policy';

export { isPublicAddress, refusedRange, type AddressPolicy };

export class SsrfRefused extends Error {
  readonly code = 'ESSRF';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that resolves every address of the host and refuses the connection if
 * any is refused by the policy. The socket connects to the address this lookup answers (the
 * connection is pinned to the checked address), so DNS rebinding between a check and a connect is
 * not possible.
 */
function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => refusedRange(a.address, policy) !== undefined);
      if (refused || addresses.length === 0) {
        return callback(new SsrfRefused(`refused: ${hostname} resolves to a non-public address (${refused?.address ?? 'none'})`), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const lookups = { strict: guardedLookup({ allowLoopback: false }), loopback: guardedLookup({ allowLoopback: true }) };

// Requests under different policies never share a kept-alive socket.
const agents = {
  strict: { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) },
  loopback: { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) },
};

const ERROR_EXCERPT = 300;
/** How much of a receiver's response body the attempt log keeps (`bodyExcerpt`). */
const RESPONSE_EXCERPT_BYTES = 2048;

/**
 * The `SendWebhook` port's adapter: one webhook with node's HTTP client. POST, the given timeout over
 * the whole exchange, no redirects followed, the response body read (to keep the connection reusable)
 * and an excerpt kept for `lastError` and the attempt log. Never throws: every failure becomes an outcome.
 */
export const sendWebhook: SendWebhook = (request) =>
  new Promise<WebhookOutcome>((resolve) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return resolve({ error: 'invalid URL' });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const policy = request.allowLoopback ? 'loopback' : 'strict';
    if (net.isIP(host)) {
      const range = refusedRange(host, { allowLoopback: request.allowLoopback });
      if (range) return resolve({ error: `refused: ${host} is not a public address (${range})` });
    }
    const secure = url.protocol === 'https:';
    const pool = agents[policy];
    const signal = AbortSignal.timeout(request.timeoutMs);
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: secure ? pool.https : pool.http,
      lookup: lookups[policy] as typeof dns.lookup,
      signal,
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const retryAfter = res.headers['retry-after'];
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_EXCERPT_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () => {
        const ok = status >= 200 && status < 300;
        const bodyExcerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
        const excerpt = bodyExcerpt.slice(0, ERROR_EXCERPT);
        const error = ok
          ? undefined
          : status >= 300 && status < 400
            ? `redirect not followed (${status} to ${res.headers.location ?? 'no location'})`
            : `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`;
        resolve({ status, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, error, bodyExcerpt });
      });
      res.on('error', (error) => resolve({ status, error: describe(error, request.timeoutMs, signal) }));
    });
    req.on('error', (error) => resolve({ error: describe(error, request.timeoutMs, signal) }));
    req.end(request.body);
  });

function describe(error: Error & { code?: string }, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `timeout after ${timeoutMs} ms`;
  if (error instanceof SsrfRefused) return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
