import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PaystackHttp } from '../../server/integrations/paystack/paystack-http';
import { PaystackRail } from '../../server/integrations/paystack/paystack-rail';
import {
  PAYSTACK_SIGNATURE_HEADER,
  parsePaystackWebhook,
  PaystackWebhookPayloadError,
  PaystackWebhookSignatureError,
  signPaystackPayload,
  verifyPaystackSignature,
} from '../../server/integrations/paystack/paystack-webhook';
import { startFakePaystack, type FakePaystack } from '../support/fakes/paystack-fake';

const KEY = 'sk_test_webhook_key_7';

/** A loopback receiver keeping each webhook's raw body and signature header. */
async function startReceiver() {
  const received: { raw: string; signature: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: req.headers[PAYSTACK_SIGNATURE_HEADER] as string | undefined });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/webhooks/paystack`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const signed = (payload: unknown) => {
  const raw = JSON.stringify(payload);
  return { raw, signature: signPaystackPayload(raw, KEY) };
};

function signatureError(run: () => unknown): PaystackWebhookSignatureError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PaystackWebhookSignatureError);
    return error as PaystackWebhookSignatureError;
  }
  throw new Error('expected a signature error');
}

describe('Paystack webhook signature', () => {
  it('accepts the HMAC SHA-512 hex of the raw body keyed with the secret key', () => {
    const { raw, signature } = signed({ event: 'charge.success', data: { reference: 'c1' } });
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(() => verifyPaystackSignature(raw, signature, KEY)).not.toThrow();
    expect(() => verifyPaystackSignature(Buffer.from(raw), signature.toUpperCase(), KEY)).not.toThrow();
  });

  it('refuses a missing signature as paystack_signature_missing', () => {
    const { raw } = signed({ event: 'charge.success', data: { reference: 'c1' } });
    expect(signatureError(() => parsePaystackWebhook(raw, undefined, KEY)).code).toBe('paystack_signature_missing');
    expect(signatureError(() => parsePaystackWebhook(raw, '', KEY)).code).toBe('paystack_signature_missing');
  });

  it('refuses a signature made with another key, over another body, or that is not hex at all', () => {
    const { raw, signature } = signed({ event: 'charge.success', data: { reference: 'c1' } });
    expect(signatureError(() => parsePaystackWebhook(raw, signPaystackPayload(raw, 'sk_test_other'), KEY)).code).toBe('paystack_signature_invalid');
    // The same event re-serialised with other spacing is another body: verification is over raw bytes.
    expect(signatureError(() => parsePaystackWebhook(JSON.stringify(JSON.parse(raw), null, 2), signature, KEY)).code).toBe('paystack_signature_invalid');
    expect(signatureError(() => parsePaystackWebhook(raw, 'not-hex', KEY)).code).toBe('paystack_signature_invalid');
    expect(signatureError(() => parsePaystackWebhook(raw, signature.slice(0, 64), KEY)).code).toBe('paystack_signature_invalid');
  });

  it('refuses a correctly signed body that is not a Paystack event with a payload error', () => {
    const raw = 'not json';
    expect(() => parsePaystackWebhook(raw, signPaystackPayload(raw, KEY), KEY)).toThrow(PaystackWebhookPayloadError);
    const { raw: noEvent, signature } = signed({ data: {} });
    expect(() => parsePaystackWebhook(noEvent, signature, KEY)).toThrow(PaystackWebhookPayloadError);
  });
});

describe('Paystack webhook events', () => {
  it('reads direct_debit.authorization.created as approved (not chargeable, no code)', () => {
    const { raw, signature } = signed({
      event: 'direct_debit.authorization.created',
      data: { authorization_code: 'AUTH_JV4T9Wawdj', active: false, channel: 'direct_debit', customer: { code: 'CUS_1', email: 'ravi@demo.com' } },
    });
    expect(parsePaystackWebhook(raw, signature, KEY)).toEqual({
      kind: 'authorisation',
      event: 'direct_debit.authorization.created',
      providerReference: null,
      status: 'approved',
      authorizationCode: null,
      customerEmail: 'ravi@demo.com',
    });
  });

  it('reads direct_debit.authorization.active as active with its code and reference', () => {
    const { raw, signature } = signed({
      event: 'direct_debit.authorization.active',
      data: { authorization_code: 'AUTH_JV4T9Wawdj', active: true, reference: 'miinublwbjkjm7', customer: { email: 'ravi@demo.com' } },
    });
    expect(parsePaystackWebhook(raw, signature, KEY)).toMatchObject({ kind: 'authorisation', status: 'active', authorizationCode: 'AUTH_JV4T9Wawdj', providerReference: 'miinublwbjkjm7' });
  });

  it('reads an active event without a code as not chargeable', () => {
    const { raw, signature } = signed({ event: 'direct_debit.authorization.active', data: { active: true, reference: 'r' } });
    expect(parsePaystackWebhook(raw, signature, KEY)).toMatchObject({ status: 'pending', authorizationCode: null });
  });

  it('reads charge.success and charge.failed by our charge reference', () => {
    const success = signed({ event: 'charge.success', data: { reference: 'loan-7.instalment-1', status: 'success', amount: 100_00 } });
    expect(parsePaystackWebhook(success.raw, success.signature, KEY)).toEqual({ kind: 'charge', event: 'charge.success', chargeReference: 'loan-7.instalment-1', status: 'succeeded', failureReason: null });
    const failed = signed({ event: 'charge.failed', data: { reference: 'c2', status: 'failed', gateway_response: 'Insufficient Funds' } });
    expect(parsePaystackWebhook(failed.raw, failed.signature, KEY)).toEqual({ kind: 'charge', event: 'charge.failed', chargeReference: 'c2', status: 'failed', failureReason: 'Insufficient Funds' });
  });

  it('ignores events the platform does not use', () => {
    const { raw, signature } = signed({ event: 'transfer.success', data: { reference: 't1' } });
    expect(parsePaystackWebhook(raw, signature, KEY)).toEqual({ kind: 'ignored', event: 'transfer.success' });
  });
});

describe('Paystack webhooks from the fake', () => {
  let fake: FakePaystack | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await fake?.close();
    await receiver?.close();
  });

  it('posts a signed direct_debit.authorization.active when the borrower approves on the page, matching what the rail reads back', async () => {
    receiver = await startReceiver();
    fake = await startFakePaystack({ secretKey: KEY, webhookUrl: receiver.url });
    const rail = new PaystackRail('rail_b', new PaystackHttp({ secretKey: KEY, baseUrl: fake.url, timeoutMs: 500 }));
    const { authorizationUrl, providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: 'ada@example.com', amountKobo: 100_00, callbackUrl: 'http://127.0.0.1:9/back' });

    const answer = await fetch(`${authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(answer.status).toBe(303);

    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const notification = parsePaystackWebhook(delivery!.raw, delivery!.signature, KEY);
    const read = await rail.readAuthorisation(providerReference);
    expect(notification).toMatchObject({ kind: 'authorisation', status: 'active', providerReference, authorizationCode: read.authorizationCode });
    expect(read.status).toBe('active');
  });

  it('sends charge.success when charges auto-settle, and a badly signed webhook is refused', async () => {
    receiver = await startReceiver();
    fake = await startFakePaystack({ secretKey: KEY, webhookUrl: receiver.url, autoSettleCharges: true });
    const rail = new PaystackRail('rail_a', new PaystackHttp({ secretKey: KEY, baseUrl: fake.url, timeoutMs: 500 }), { chargeEmail: () => 'ada@example.com' });
    const { providerReference } = await rail.initialiseAuthorisation({ reference: 'm', email: 'ada@example.com', amountKobo: 100_00 });
    await fake.approveAuthorisation(providerReference);
    const { authorizationCode } = await rail.readAuthorisation(providerReference);

    await rail.charge({ authorizationCode: authorizationCode!, amountKobo: 100_00, reference: 'auto-1' });
    await expect.poll(() => receiver!.received.length).toBe(2);
    const last = receiver.received[1]!;
    expect(parsePaystackWebhook(last.raw, last.signature, KEY)).toMatchObject({ kind: 'charge', chargeReference: 'auto-1', status: 'succeeded' });
    await expect(rail.readCharge('auto-1')).resolves.toEqual({ status: 'succeeded', failureReason: null });

    await fake.sendWebhook('charge.success', { reference: 'forged' }, { badSignature: true });
    const forged = receiver.received[2]!;
    expect(signatureError(() => parsePaystackWebhook(forged.raw, forged.signature, KEY)).code).toBe('paystack_signature_invalid');
  });

  it('refuses to post webhooks anywhere but loopback', async () => {
    await expect(startFakePaystack({ secretKey: KEY, webhookUrl: 'https://example.com/hook' })).rejects.toThrow(/loopback/);
  });
});
