import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Loopback (127.0.0.0/8, ::1) may receive webhooks: development only (`WEBHOOK_ALLOW_LOOPBACK`). */
  allowLoopback: boolean;
}

/**
 * Why an address may not receive a webhook (the range's name), or undefined when it may. Only globally
 * routable unicast addresses may: private, loopback, link-local, CGNAT, unique-local, multicast,
 * unspecified, reserved, documentation, 6to4/Teredo/NAT64 and IPv4-compatible IPv6 (`::/96`, which
 * ipaddr.js would otherwise call unicast) are refused. IPv4-mapped IPv6 is judged as its IPv4 address.
 */
export function refusedRange(address: string, policy: AddressPolicy): string | undefined {
  const normalised = normalise(address);
  if (!normalised || !ipaddr.isValid(normalised)) return 'invalid';
  const parsed = ipaddr.parse(normalised);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.parts.slice(0, 6).every((part) => part === 0) && v6.range() !== 'loopback') return 'ipv4Compatible';
  }
  const range = ipaddr.process(normalised).range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return range;
}

/**
 * IPv6 in its canonical hex form. ipaddr.js reads any `::a.b.c.d` as IPv4-mapped, but `::8.8.8.8` is
 * IPv4-compatible (`::808:808`), and that is how the resolver prints such addresses; the WHATWG URL
 * parser writes both forms out in hex (`::ffff:808:808` stays mapped). Zone ids are not accepted.
 */
function normalise(address: string): string | undefined {
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** Whether an address is globally routable unicast (what every webhook target must be, loopback aside). */
export function isPublicAddress(address: string): boolean {
  return refusedRange(address, { allowLoopback: false }) === undefined;
}
