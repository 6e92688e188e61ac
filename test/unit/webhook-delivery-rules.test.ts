import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusedRange } from '../../server/integrations/webhooks/send-webhook';
import { refusedName } from '../../server/shared/address-policy';
import { MAX_ATTEMPTS, parseRetryAfter, RETRY_DELAYS_MS, retryDelayMs } from '../../server/platform/domain/webhooks/retry-schedule';
import { endpointWants } from '../../server/platform/domain/webhooks/fan-out';

describe('SSRF guard: which addresses may receive a live webhook', () => {
  it.each([
    '10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '127.8.8.8', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '255.255.255.255', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip',
    // IPv4-compatible IPv6 (::/96, deprecated) carries any IPv4 address: refused whatever it embeds.
    '::7f00:1', '::a00:1', '::808:808', '::127.0.0.1', '::8.8.8.8', '64:ff9b::a00:1', '2002:a00:1::1', 'ff02::1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '102.89.1.1', '2001:4860:4860::8888', '::ffff:8.8.4.4'])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('SSRF guard with WEBHOOK_ALLOW_LOOPBACK (development)', () => {
  it.each(['127.0.0.1', '127.8.8.8', '::1', '::ffff:127.0.0.1'])('allows loopback %s only with the flag', (address) => {
    expect(refusedRange(address, { allowLoopback: false })).toBe('loopback');
    expect(refusedRange(address, { allowLoopback: true })).toBeUndefined();
  });

  it.each(['10.0.0.1', '169.254.169.254', '::', '::7f00:1', 'fd00::1', '100.64.0.1'])('still refuses %s', (address) => {
    expect(refusedRange(address, { allowLoopback: true })).toBeDefined();
  });
});

describe('SSRF guard: which host names may be registered', () => {
  it.each([
    ['localhost', 'a loopback name'],
    ['LOCALHOST.', 'a loopback name'],
    ['a.b.localhost', 'a loopback name'],
    ['printer.local', 'a special-use name (.local)'],
    ['metadata.google.internal..', 'a special-use name (.internal)'],
    ['nas.home.arpa', 'a special-use name (.arpa)'],
    ['x.invalid', 'a special-use name (.invalid)'],
    ['app.TEST', 'a special-use name (.test)'],
    ['x.onion', 'a special-use name (.onion)'],
    ['x.alt', 'a special-use name (.alt)'],
    ['metadata', 'not a fully qualified domain name'],
    ['metadata.', 'not a fully qualified domain name'],
  ])('refuses %s: %s', (name, why) => expect(refusedName(name, { allowLoopback: false })).toBe(why));

  it.each(['hooks.partner.com', 'partner.example', 'example.com', 'local.partner.com', 'internal.partner.ng', 'hooks.partner.com.'])('allows %s (resolved and checked again at delivery)', (name) =>
    expect(refusedName(name, { allowLoopback: false })).toBeUndefined(),
  );

  it('lets localhost through only with WEBHOOK_ALLOW_LOOPBACK, and nothing else internal', () => {
    expect(refusedName('localhost', { allowLoopback: true })).toBeUndefined();
    expect(refusedName('dev.localhost.', { allowLoopback: true })).toBeUndefined();
    expect(refusedName('metadata.google.internal', { allowLoopback: true })).toBe('a special-use name (.internal)');
  });
});

describe('retry schedule', () => {
  it('goes from seconds to hours over about three days, 13 attempts in all', () => {
    expect(MAX_ATTEMPTS).toBe(13);
    expect(RETRY_DELAYS_MS[0]).toBe(5_000);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(2.5);
    expect(total / 86_400_000).toBeLessThan(3.5);
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]).toBeGreaterThan(RETRY_DELAYS_MS[i - 1]!);
  });

  it('jitters each delay by at most 20 % and stops after the last', () => {
    expect(retryDelayMs(1, 0)).toBe(4_000);
    expect(retryDelayMs(1, 0.5)).toBe(5_000);
    expect(retryDelayMs(1, 0.999999)).toBeLessThanOrEqual(6_000);
    expect(retryDelayMs(RETRY_DELAYS_MS.length, 0.5)).toBe(RETRY_DELAYS_MS.at(-1));
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1, 0.5)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date, clamped to 1 s … 24 h', () => {
    const now = new Date('2026-03-02T08:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(1_000);
    expect(parseRetryAfter('999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 08:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('subscription filter', () => {
  it('matches exact names; empty or null means all; no wildcards', () => {
    expect(endpointWants(null, 'loan.approved')).toBe(true);
    expect(endpointWants('[]', 'loan.approved')).toBe(true);
    expect(endpointWants('["loan.approved"]', 'loan.approved')).toBe(true);
    expect(endpointWants('["loan.approved"]', 'loan.offer.issued')).toBe(false);
    expect(endpointWants('["loan.*"]', 'loan.approved')).toBe(false);
    expect(endpointWants(['loan.disbursed'], 'loan.disbursed')).toBe(true);
  });
});
