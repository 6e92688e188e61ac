import { afterEach, describe, expect, it } from 'vitest';
import { LendingApiError, LendingConnectionError, backoffDelayMs, createLendingClient, parseRetryAfterMs, type RetryOptions } from '../../sdk/src/index';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server';

const KEYS = { publicKey: 'pk_test_retry', secretKey: 'sk_test_retry' };
const FAST: RetryOptions = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 };
const OK = { status: 200, success: true, message: 'Redelivery queued', data: {} };
const EVENT = { params: { path: { id: '7f0c1e4e-0000-4000-8000-000000000001' } } };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientOf(url: string, options: { retry?: RetryOptions | false; idempotencyKeys?: boolean } = {}) {
  return createLendingClient({ baseUrl: url, ...KEYS, retry: FAST, ...options });
}

describe('client retries', () => {
  it('when a POST answers 429 with Retry-After, then waits that long and retries with the same Idempotency-Key', async () => {
    server = await startLoopbackServer((_req, res, i) =>
      i === 0 ? json(res, 429, { status: 429, success: false, message: 'Slow down', error: 'RATE_LIMITED' }, { 'retry-after': '1' }) : json(res, 200, OK),
    );
    const started = Date.now();

    const body = await clientOf(server.url).post('/v1/events/{id}/redeliver', EVENT);

    expect(body.message).toBe('Redelivery queued');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
  });

  it('when a POST answers 503 then 200, then it is retried with the same key and resolves to the 200', async () => {
    server = await startLoopbackServer((_req, res, i) => (i === 0 ? json(res, 503, { status: 503, success: false, message: 'Busy', error: 'SERVICE_UNAVAILABLE' }) : json(res, 200, OK)));

    await clientOf(server.url).post('/v1/events/{id}/redeliver', { ...EVENT, idempotencyKey: 'redeliver-evt-1' });

    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['redeliver-evt-1', 'redeliver-evt-1']);
  });

  it('when the connection is reset, then the request is sent again (same key, same body)', async () => {
    server = await startLoopbackServer((_req, res, i) => (i === 0 ? res.socket?.destroy() : json(res, 200, { status: 200, success: true, message: 'ok', data: {} })));

    await clientOf(server.url).post('/v1/loans/{id}/cancel', { params: { path: { id: 'a5b1c2d3-0000-4000-8000-000000000002' } }, body: { reason: 'Customer changed plans' } });

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.headers['idempotency-key']).toBe(server.requests[0]!.headers['idempotency-key']);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ reason: 'Customer changed plans' });
  });

  it('when a GET answers 500 twice, then the third attempt is made (no key needed to repeat a GET)', async () => {
    server = await startLoopbackServer((_req, res, i) => (i < 2 ? json(res, 500, { status: 500, success: false, message: 'Oops', error: 'INTERNAL_ERROR' }) : json(res, 200, { status: 200, success: true, message: 'Loans retrieved', data: [] })));

    const body = await clientOf(server.url).get('/v1/loans');

    expect(body.data).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('when every attempt fails, then it stops after maxAttempts and raises the last answer', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 503, { status: 503, success: false, message: 'Busy', error: 'SERVICE_UNAVAILABLE' }));

    const error = await clientOf(server.url, { retry: { ...FAST, maxAttempts: 4 } }).get('/v1/loans').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LendingApiError);
    expect((error as LendingApiError).status).toBe(503);
    expect(server.requests).toHaveLength(4);
  });

  it('when the caller turned keys off, then a POST that answers 503 is not retried and sends no key', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 503, { status: 503, success: false, message: 'Busy', error: 'SERVICE_UNAVAILABLE' }));

    const error = await clientOf(server.url, { idempotencyKeys: false }).post('/v1/events/{id}/redeliver', EVENT).catch((e: unknown) => e);

    expect((error as LendingApiError).code).toBe('SERVICE_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('when one call opts out of the key, then its reset connection is not retried and surfaces as LendingConnectionError', async () => {
    server = await startLoopbackServer((_req, res) => res.socket?.destroy());

    const error = await clientOf(server.url).post('/v1/events/{id}/redeliver', { ...EVENT, idempotencyKey: false }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LendingConnectionError);
    expect((error as LendingConnectionError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('when Retry-After asks for longer than maxRetryAfterMs, then the 429 is raised at once with retryAfterSeconds', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 429, { status: 429, success: false, message: 'Slow down', error: 'RATE_LIMITED' }, { 'retry-after': '120' }));

    const error = await clientOf(server.url).get('/v1/loans').catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 120 });
    expect(server.requests).toHaveLength(1);
  });

  it('when an attempt gets no answer within attemptTimeoutMs, then it is abandoned and a repeatable request is tried again', async () => {
    server = await startLoopbackServer((_req, res, i) => {
      if (i === 0) setTimeout(() => json(res, 200, { status: 200, success: true, message: 'late', data: [] }), 1500);
      else json(res, 200, { status: 200, success: true, message: 'Loans retrieved', data: [] });
    });

    const body = await clientOf(server.url, { retry: { ...FAST, attemptTimeoutMs: 200 } }).get('/v1/loans');

    expect(body.message).toBe('Loans retrieved');
    expect(server.requests).toHaveLength(2);
  });

  it('when the caller aborts, then the call rejects at once and is not retried', async () => {
    server = await startLoopbackServer((_req, res) => setTimeout(() => json(res, 200, { status: 200, success: true, message: 'late', data: [] }), 1500));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);

    await expect(clientOf(server.url).get('/v1/loans', { signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(server.requests).toHaveLength(1);
  });

  it('when retries are off, then a 503 GET is tried once', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 503, { status: 503, success: false, message: 'Busy', error: 'SERVICE_UNAVAILABLE' }));

    await expect(clientOf(server.url, { retry: false }).get('/v1/loans')).rejects.toBeInstanceOf(LendingApiError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('backoff and Retry-After', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };

  it('draws each wait uniformly below a ceiling that doubles per retry and stops at maxDelayMs (full jitter)', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 9].map((retry) => backoffDelayMs(retry, policy, top))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(200);
  });

  it('reads Retry-After as seconds or as an HTTP date, a past date as now, anything else as absent', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs('Fri, 27 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('Fri, 27 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });

  it('waits out a Retry-After given as an HTTP date before retrying', async () => {
    server = await startLoopbackServer((_req, res, i) =>
      i === 0 ? json(res, 503, { status: 503, success: false, message: 'Busy', error: 'SERVICE_UNAVAILABLE' }, { 'retry-after': new Date(Date.now() + 2000).toUTCString() }) : json(res, 200, { status: 200, success: true, message: 'ok', data: [] }),
    );
    const started = Date.now();

    await clientOf(server.url).get('/v1/loans');

    // HTTP dates have whole seconds: the wait is between one and two seconds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });
});
