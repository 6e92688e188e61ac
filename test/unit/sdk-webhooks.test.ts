import { describe, expect, it } from 'vitest';
import {
  WebhookVerificationError,
  signFinancingWebhook,
  signLendingWebhook,
  verifyFinancingWebhook,
  verifyLendingWebhook,
  type WebhookVerificationReason,
} from '../../sdk/src/index';
// The platform's own signers: what the package verifies is what the platform sends.
import { signatureHeaders } from '../../server/platform/domain/webhooks/signature';
import { signSdkBody } from '../../server/platform/domain/financing/sdk-webhooks';

const SIGNING_SECRET = 'whsec_test_0123456789abcdef';
const OLD_SIGNING_SECRET = 'whsec_test_previous_secret';
const API_SECRET_KEY = 'sk_test_0123456789abcdef0123456789';
const NOW = new Date('2026-11-27T10:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;

const lendingBody = JSON.stringify({ id: 'evt_1', event: 'loan.disbursed', timestamp: NOW.toISOString(), data: { loanId: 'l1', amountKobo: 5_000_000 }, mode: 'test', createdAt: NOW.toISOString() });
const financingBody = JSON.stringify({ event: 'loan.approved', timestamp: NOW.toISOString(), data: { sdkReference: 'ref-1' } });

async function reasonOf(promise: Promise<unknown>): Promise<WebhookVerificationReason> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('lending webhook verification (X-Service-Signature over timestamp.rawBody)', () => {
  it('when the platform signed the raw body, then it verifies and returns the envelope', async () => {
    const headers = signatureHeaders([SIGNING_SECRET], NOW_SECONDS, lendingBody);

    const envelope = await verifyLendingWebhook<{ loanId: string }>(lendingBody, headers, SIGNING_SECRET, { now: NOW });

    expect(envelope).toMatchObject({ id: 'evt_1', event: 'loan.disbursed', data: { loanId: 'l1' } });
  });

  it('accepts bytes and Fetch Headers as well as a string and a Node header object', async () => {
    const headers = new Headers(signatureHeaders([SIGNING_SECRET], NOW_SECONDS, lendingBody));

    await expect(verifyLendingWebhook(new TextEncoder().encode(lendingBody), headers, SIGNING_SECRET, { now: NOW })).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('when the body was altered, then signature_mismatch', async () => {
    const headers = signatureHeaders([SIGNING_SECRET], NOW_SECONDS, lendingBody);

    expect(await reasonOf(verifyLendingWebhook(lendingBody.replace('5000000', '9000000'), headers, SIGNING_SECRET, { now: NOW }))).toBe('signature_mismatch');
  });

  it('when verified with the wrong secret, then signature_mismatch', async () => {
    const headers = signatureHeaders([SIGNING_SECRET], NOW_SECONDS, lendingBody);

    expect(await reasonOf(verifyLendingWebhook(lendingBody, headers, 'whsec_test_someone_else', { now: NOW }))).toBe('signature_mismatch');
  });

  it('when the timestamp is older than the tolerance, then timestamp_out_of_tolerance (the default is 300 s)', async () => {
    const headers = signatureHeaders([SIGNING_SECRET], NOW_SECONDS - 301, lendingBody);

    expect(await reasonOf(verifyLendingWebhook(lendingBody, headers, SIGNING_SECRET, { now: NOW }))).toBe('timestamp_out_of_tolerance');
    await expect(verifyLendingWebhook(lendingBody, headers, SIGNING_SECRET, { now: NOW, toleranceSeconds: 600 })).resolves.toMatchObject({ id: 'evt_1' });
  });

  it('during a secret roll, then either of the two comma-separated signatures verifies', async () => {
    const headers = signatureHeaders([SIGNING_SECRET, OLD_SIGNING_SECRET], NOW_SECONDS, lendingBody);
    expect(headers['X-Service-Signature']).toContain(',');

    await expect(verifyLendingWebhook(lendingBody, headers, SIGNING_SECRET, { now: NOW })).resolves.toMatchObject({ id: 'evt_1' });
    await expect(verifyLendingWebhook(lendingBody, headers, OLD_SIGNING_SECRET, { now: NOW })).resolves.toMatchObject({ id: 'evt_1' });
    expect(await reasonOf(verifyLendingWebhook(lendingBody, headers, 'whsec_test_neither', { now: NOW }))).toBe('signature_mismatch');
  });

  it('when a header is missing or malformed, then missing_header or malformed_header', async () => {
    const headers = signatureHeaders([SIGNING_SECRET], NOW_SECONDS, lendingBody);

    expect(await reasonOf(verifyLendingWebhook(lendingBody, { 'x-service-signature': headers['X-Service-Signature'] }, SIGNING_SECRET, { now: NOW }))).toBe('missing_header');
    expect(await reasonOf(verifyLendingWebhook(lendingBody, { ...headers, 'X-Service-Timestamp': '2026-11-27' }, SIGNING_SECRET, { now: NOW }))).toBe('malformed_header');
    expect(await reasonOf(verifyLendingWebhook(lendingBody, { ...headers, 'X-Service-Signature': 'sha256=abc' }, SIGNING_SECRET, { now: NOW }))).toBe('malformed_header');
  });

  it('signs test deliveries exactly as the platform does', async () => {
    expect(await signLendingWebhook(lendingBody, [SIGNING_SECRET, OLD_SIGNING_SECRET], { timestamp: NOW_SECONDS })).toEqual(
      signatureHeaders([SIGNING_SECRET, OLD_SIGNING_SECRET], NOW_SECONDS, lendingBody),
    );
  });
});

describe('patient-financing webhook verification (X-Service-Signature over the raw body, keyed with the API secret key)', () => {
  const headersFor = (body: string, key = API_SECRET_KEY) => ({ 'x-service-event': 'loan.approved', 'x-service-signature': signSdkBody(key, body) });

  it('when the platform signed the raw body, then it verifies and returns the envelope', async () => {
    await expect(verifyFinancingWebhook(financingBody, headersFor(financingBody), API_SECRET_KEY, { now: NOW })).resolves.toEqual(JSON.parse(financingBody));
  });

  it('when the body was altered, then signature_mismatch', async () => {
    expect(await reasonOf(verifyFinancingWebhook(financingBody.replace('ref-1', 'ref-2'), headersFor(financingBody), API_SECRET_KEY, { now: NOW }))).toBe('signature_mismatch');
  });

  it('when verified with the wrong secret key, then signature_mismatch', async () => {
    expect(await reasonOf(verifyFinancingWebhook(financingBody, headersFor(financingBody), 'sk_test_another_key', { now: NOW }))).toBe('signature_mismatch');
  });

  it('when the signed timestamp in the body is stale, then timestamp_out_of_tolerance', async () => {
    const stale = JSON.stringify({ event: 'loan.approved', timestamp: new Date(NOW.getTime() - 301_000).toISOString(), data: {} });

    expect(await reasonOf(verifyFinancingWebhook(stale, headersFor(stale), API_SECRET_KEY, { now: NOW }))).toBe('timestamp_out_of_tolerance');
  });

  it('when the signature header is missing or not hex, then missing_header or malformed_header', async () => {
    expect(await reasonOf(verifyFinancingWebhook(financingBody, {}, API_SECRET_KEY, { now: NOW }))).toBe('missing_header');
    expect(await reasonOf(verifyFinancingWebhook(financingBody, { 'X-Service-Signature': 'not-hex' }, API_SECRET_KEY, { now: NOW }))).toBe('malformed_header');
  });

  it('when the signature matches but the body is not a JSON object, then malformed_body', async () => {
    expect(await reasonOf(verifyFinancingWebhook('[1,2]', headersFor('[1,2]'), API_SECRET_KEY, { now: NOW }))).toBe('malformed_body');
  });

  it('signs test deliveries exactly as the platform does', async () => {
    expect(await signFinancingWebhook(financingBody, API_SECRET_KEY, 'loan.approved')).toEqual({ 'X-Service-Event': 'loan.approved', 'X-Service-Signature': signSdkBody(API_SECRET_KEY, financingBody) });
  });
});
