import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/** Headers a proxy adds: a request carrying one did not come straight from this machine's browser. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];
/** How long an answer of the platform about its inbox is remembered. */
const PROBE_TTL_MS = 5 * 60_000;

/** The browser's connection comes from this machine (loopback), with no proxy in between: the only browser the platform's sandbox inbox answers. */
export function fromThisMachine(req: Pick<Request, 'socket' | 'headers'>): boolean {
  const raw = req.socket.remoteAddress ?? '';
  if (!ipaddr.isValid(raw)) return false;
  let address = ipaddr.parse(raw);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'loopback' && FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

/**
 * The address of the platform's sandbox inbox (`/sandbox/mail#texts`, where test-mode codes land) when the platform
 * serves it to this server: a HEAD request answered 200 (the inbox is mounted only with the sandbox routes, and answers
 * only this machine: anything else is 403 or 404, and then there is no link). One probe per 5 minutes.
 */
export function sandboxInboxProbe(apiBaseUrl: string, doFetch: typeof fetch = fetch): () => Promise<string | null> {
  const base = apiBaseUrl.replace(/\/+$/, '');
  let known: { at: number; url: Promise<string | null> } | undefined;
  return () => {
    if (known && Date.now() - known.at < PROBE_TTL_MS) return known.url;
    const url = doFetch(`${base}/sandbox/mail`, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(2_000) }).then(
      (res) => (res.status === 200 ? `${base}/sandbox/mail#texts` : null),
      () => null,
    );
    known = { at: Date.now(), url };
    return url;
  };
}
