import { describe, expect, it } from 'vitest';
import { WebhookSignatureError, signatureHeaders, signPayload, verifyWebhook } from '../../server/platform/domain/webhooks/signature';

const secret = 'whsec_test_0123456789abcdef0123456789';
const body = JSON.stringify({ id: 'evt_1', event: 'loan.approved', timestamp: '2026-11-26T10:00:00.000Z', data: { loanId: 'l1' }, mode: 'test', createdAt: '2026-11-26T10:00:00.000Z' });
const now = new Date('2026-11-26T10:00:00.000Z');
const ts = Math.floor(now.getTime() / 1000);

describe('webhook signatures', () => {
  it('signs timestamp + "." + raw body with HMAC-SHA256 as lowercase hex', () => {
    const signature = signPayload(secret, ts, body);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signPayload(secret, ts, Buffer.from(body))).toBe(signature);
  });

  it('verifies a delivery and returns the envelope', () => {
    const headers = signatureHeaders([secret], ts, body);
    expect(verifyWebhook<{ event: string }>(body, headers, secret, { now }).event).toBe('loan.approved');
    expect(verifyWebhook(body, new Headers(headers), secret, { now })).toBeTruthy();
  });

  it('accepts either signature while a rotated secret overlaps', () => {
    const headers = signatureHeaders(['whsec_new_aaaaaaaaaaaaaaaaaaaaaaaa', secret], ts, body);
    expect(() => verifyWebhook(body, headers, secret, { now })).not.toThrow();
    expect(() => verifyWebhook(body, headers, 'whsec_new_aaaaaaaaaaaaaaaaaaaaaaaa', { now })).not.toThrow();
  });

  it.each([
    ['a tampered body', (h: Record<string, string>) => [body.replace('l1', 'l2'), h]],
    ['a re-serialised body', (h: Record<string, string>) => [JSON.stringify(JSON.parse(body), null, 2), h]],
    ['another secret', (h: Record<string, string>) => [body, { ...h, 'X-Service-Signature': signPayload('whsec_other_bbbbbbbbbbbbbbbbbbbb', ts, body) }]],
    ['no signature', (h: Record<string, string>) => [body, { 'X-Service-Timestamp': h['X-Service-Timestamp']! }]],
    ['a malformed timestamp', (h: Record<string, string>) => [body, { ...h, 'X-Service-Timestamp': 'yesterday' }]],
  ])('refuses %s', (_name, mutate) => {
    const [raw, headers] = mutate(signatureHeaders([secret], ts, body)) as [string, Record<string, string>];
    expect(() => verifyWebhook(raw, headers, secret, { now })).toThrow(WebhookSignatureError);
  });

  it('refuses a timestamp older than the tolerance (5 minutes by default)', () => {
    const old = ts - 301;
    const headers = signatureHeaders([secret], old, body);
    expect(() => verifyWebhook(body, headers, secret, { now })).toThrow(/300 s/);
    expect(() => verifyWebhook(body, signatureHeaders([secret], ts - 299, body), secret, { now })).not.toThrow();
  });
});
