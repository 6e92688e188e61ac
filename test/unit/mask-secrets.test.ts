import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { DIGITS_MASK, maskLogLine, maskSecrets } from '../../server/platform/log/mask-secrets';
import { createLogger } from '../../server/platform/log/create-logger';

const CS = `cs_test_${'A'.repeat(36)}Zq91`;
const CS_LIVE = `cs_live_${'b'.repeat(36)}Xy12`;
const MK = `mk_${'c'.repeat(28)}Mm77`;
const SK = `sk_live_${'d'.repeat(36)}Kk55`;
const PK = `pk_test_${'e'.repeat(24)}`;
const WHSEC = `whsec_${'f-_'.repeat(14)}Ws9`;

describe('maskSecrets', () => {
  it.each([
    ['a checkout link path', `/checkout/c/${CS}`, '/checkout/c/cs_test_****Zq91'],
    ['a live checkout token in a sentence', `token ${CS_LIVE} expired`, 'token cs_live_****Xy12 expired'],
    ['a meeting join path', `/meet/j/${MK}`, '/meet/j/mk_****Mm77'],
    ['an API secret key in a query', `/x?key=${SK}`, '/x?key=***'],
    ['an API secret key in text', `sent ${SK} by mistake`, 'sent sk_live_****Kk55 by mistake'],
    ['a public key (not secret)', `by ${PK}`, `by ${PK}`],
    ['a webhook signing secret', `secret: ${WHSEC}.`, `secret: whsec_****${WHSEC.slice(-4)}.`],
    ['a sandbox rail authorise path', '/sandbox/rails/rail_a/authorise/mdt_0123456789abcdef01234567', '/sandbox/rails/rail_a/authorise/mdt_****4567'],
    ['a rail authorisation read', '/sandbox/rails/rail_b/authorisations/mdt_aaaaaaaaaaaaaaaaaaaa1234/cancel', '/sandbox/rails/rail_b/authorisations/mdt_****1234/cancel'],
    ['a rail charge reference', '/sandbox/rails/rail_a/charges/chg_0123456789abcdef0123beef', '/sandbox/rails/rail_a/charges/chg_****beef'],
    ['a rail authorisation code', 'code AUTH_Ab3dE5gH9k', 'code AUTH_****gH9k'],
    ['an offer-letter link', '/offer-letters/x.pdf?ref=OFR-1&expires=1767225600&signature=9f86d081884c7d65', '/offer-letters/x.pdf?ref=OFR-1&expires=1767225600&signature=***'],
    ['a prescription link', 'https://h.example/prescriptions/a.pdf?expires=1767225600&signature=abc_DEF-123', 'https://h.example/prescriptions/a.pdf?expires=1767225600&signature=***'],
    ['a rail return address', '/checkout/?return=mandate&reference=XYZ-9&status=approved', '/checkout/?return=mandate&reference=***&status=approved'],
    ['personal query values', '/sandbox/sms?phone=%2B2348012345678&email=a%40b.c', '/sandbox/sms?phone=***&email=***'],
    ['a BVN in a path', '/v1/borrowers/22233344455', `/v1/borrowers/${DIGITS_MASK}`],
    ['a BVN in a message', 'bvn 22233344455, nin 12345678901.', `bvn ${DIGITS_MASK}, nin ${DIGITS_MASK}.`],
    ['a checkout-session credential', `Authorization: CheckoutSession ${CS}`, 'Authorization: CheckoutSession ***'],
    ['a bearer credential', 'Bearer abc.def.ghi', 'Bearer ***'],
    ['10 and 12 digits (not a BVN)', 'acct 0123456789 ref 123456789012', 'acct 0123456789 ref 123456789012'],
    ['digits inside an id', 'a12345678901b', 'a12345678901b'],
    ['a prefix alone, as docs write it', 'tokens look like cs_test_… and mk_…', 'tokens look like cs_test_… and mk_…'],
    ['a uuid path', '/v1/loans/7f1c2a3b-0000-4000-8000-123456789012', '/v1/loans/7f1c2a3b-0000-4000-8000-123456789012'],
  ])('%s', (_name, input, expected) => {
    expect(maskSecrets(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const text = `/checkout/c/${CS} ?signature=abc CheckoutSession ${CS} 22233344455 /meet/j/${MK}`;
    expect(maskSecrets(maskSecrets(text))).toBe(maskSecrets(text));
  });
});

describe('maskLogLine', () => {
  it('masks string values and keeps numbers (an 11-digit kobo amount is not a BVN) and valid JSON', () => {
    const line = `${JSON.stringify({ level: 30, totalSweptKobo: 12345678901, path: `/checkout/c/${CS}`, nested: { list: ['22233344455'] } })}\n`;
    const masked = maskLogLine(line);
    expect(masked.endsWith('\n')).toBe(true);
    expect(JSON.parse(masked)).toEqual({ level: 30, totalSweptKobo: 12345678901, path: '/checkout/c/cs_test_****Zq91', nested: { list: [DIGITS_MASK] } });
  });
});

describe('createLogger', () => {
  it('masks every line it writes, from child loggers and serialised errors too', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.child({ reqId: 'r1' }).error({ err: new Error(`could not load /meet/j/${MK} for 22233344455`) }, `failed for ${CS}`);
    logger.info({ url: `https://h.example/files/x.webm?expires=1&signature=s3cr3t` }, 'file link');
    const text = lines.join('');
    for (const secret of [MK, CS, '22233344455', 's3cr3t']) expect(text).not.toContain(secret);
    expect(text).toContain('mk_****Mm77');
    expect(lines.map((l) => JSON.parse(l).level)).toEqual([50, 30]);
  });

  it('(today\'s plain pino logger writes them in clear: the reason every logger is built by createLogger)', () => {
    const lines: string[] = [];
    pino({}, { write: (line: string) => void lines.push(line) }).info({ path: `/checkout/c/${CS}` });
    expect(lines.join('')).toContain(CS);
  });
});
