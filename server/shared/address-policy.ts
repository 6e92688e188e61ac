import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Loopback (127.0.0.0/8, ::1) may receive webhooks: development only (`WEBHOOK_ALLOW_LOOPBACK`), and a rehearsal. */
  allowLoopback: boolean;
  /**
   * A rehearsal of live mode (`REHEARSAL`, docs/rehearsal.md): webhooks go only to this machine, and a live endpoint
   * may be a plain-http loopback receiver (a partner's machine), as a test-mode one always may.
   */
  rehearsal?: boolean;
}

/** The policy a server's configuration sets: loopback under `WEBHOOK_ALLOW_LOOPBACK` or in a rehearsal, which allows nothing else. */
export function webhookAddressPolicy(config: { WEBHOOK_ALLOW_LOOPBACK: boolean; REHEARSAL: boolean }): AddressPolicy {
  return { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK || config.REHEARSAL, rehearsal: config.REHEARSAL };
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

/**
 * Top-level names that never lead to a public host (RFC 6761, 6762, 7686, 8375, 9476 and ICANN's
 * private-use `internal`). A resolver answers them from the machine itself, from multicast DNS on
 * the local link, or from whatever private zone the network serves: a webhook to one would reach
 * inside.
 *
 * | name | why |
 * |---|---|
 * | `localhost` | loopback by definition (RFC 6761 §6.3) |
 * | `local` | multicast DNS on the local link (RFC 6762) |
 * | `internal` | reserved for private networks; cloud metadata lives there (`metadata.google.internal`) |
 * | `arpa` | infrastructure: `home.arpa` is the home network (RFC 8375); reverse zones and `ipv4only.arpa` are no hosts |
 * | `invalid` | never resolves (RFC 6761 §6.4) |
 * | `test` | never delegated (RFC 6761 §6.2), and development tools commonly point it at the machine itself or the LAN |
 * | `onion`, `alt` | outside the DNS altogether (RFC 7686, RFC 9476) |
 *
 * Not refused: `example` (RFC 6761 §6.5). It is the name documentation uses (this API's reference
 * shows `https://partner.example/…`), nothing serves it in practice, and the RFC asks software not
 * to treat it specially; should a private resolver ever answer for it, the delivery guard still
 * connects only to a public address.
 */
export const INTERNAL_TOP_LEVEL_NAMES: ReadonlySet<string> = new Set(['localhost', 'local', 'internal', 'arpa', 'invalid', 'test', 'onion', 'alt']);

/**
 * Why a host name may not be registered as a webhook target ("a loopback name", …), or undefined when it may (it is then
 * still resolved at each delivery, and every address it resolves to must pass `refusedRange`).
 * Case and trailing dots do not matter (`LOCALHOST.` is `localhost`). Refused: a name under one of
 * `INTERNAL_TOP_LEVEL_NAMES`, and a single-label name (`metadata`, `intranet`), which resolves only
 * through the machine's search domains or hosts file. `localhost` and `*.localhost` name loopback,
 * so `WEBHOOK_ALLOW_LOOPBACK` lets them through as it does 127.0.0.1.
 */
export function refusedName(hostname: string, policy: AddressPolicy): string | undefined {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  const labels = name.split('.');
  const topLevel = labels.at(-1) ?? '';
  if (topLevel === 'localhost') return policy.allowLoopback ? undefined : 'a loopback name';
  if (INTERNAL_TOP_LEVEL_NAMES.has(topLevel)) return `a special-use name (.${topLevel})`;
  if (labels.length < 2 || labels.some((label) => label === '')) return 'not a fully qualified domain name';
  return undefined;
}
