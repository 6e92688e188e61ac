import { afterEach, describe, expect, it } from 'vitest';
import { LendingApiError, createLendingClient } from '../../sdk/src/index';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server';

const KEYS = { publicKey: 'pk_test_errors', secretKey: 'sk_test_errors' };
const LOAN = { params: { path: { id: '0b6f3c1a-0000-4000-8000-000000000003' } } };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureOf(promise: Promise<unknown>): Promise<LendingApiError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LendingApiError);
  return error as LendingApiError;
}

describe('client errors', () => {
  it('when the platform answers an error envelope, then LendingApiError carries status, code, message, requestId, data and docUrl', async () => {
    const current = { documentReference: 'OFR-2' };
    server = await startLoopbackServer((_req, res) =>
      json(
        res,
        409,
        { status: 409, success: false, message: 'The offer changed.', error: 'stale_offer', data: current, docUrl: 'http://127.0.0.1/docs/errors#stale_offer' },
        { 'x-request-id': 'req-123' },
      ),
    );

    const error = await failureOf(createLendingClient({ baseUrl: server.url, ...KEYS }).post('/v1/loans/{id}/cancel', { ...LOAN, body: { reason: 'Duplicate application' } }));

    expect(error).toMatchObject({ name: 'LendingApiError', status: 409, code: 'stale_offer', message: 'The offer changed.', requestId: 'req-123', data: current, docUrl: 'http://127.0.0.1/docs/errors#stale_offer' });
  });

  it('when the answer has no X-Request-Id header, then requestId comes from the body; no docUrl stays undefined', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 404, { status: 404, success: false, message: 'Loan not found', error: 'NOT_FOUND', requestId: 'body-req-9' }));

    const error = await failureOf(createLendingClient({ baseUrl: server.url, ...KEYS }).get('/v1/loans/{id}', LOAN));

    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'body-req-9', docUrl: undefined, data: undefined });
  });

  it('when a proxy answers with text, then the code is http_<status> and the message is the text', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad gateway');
    });

    const error = await failureOf(createLendingClient({ baseUrl: server.url, ...KEYS, retry: false }).get('/v1/loans/{id}', LOAN));

    expect(error).toMatchObject({ status: 502, code: 'http_502', message: 'Bad gateway', requestId: undefined });
  });

  it('sends the key pair as X-API-Public-Key and X-API-Secret-Key, JSON bodies, and the path parameters in the path', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 200, { status: 200, success: true, message: 'Loan retrieved', data: { id: 'x' } }));

    await createLendingClient({ baseUrl: `${server.url}/`, ...KEYS }).get('/v1/loans/{id}', LOAN);

    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', url: '/v1/loans/0b6f3c1a-0000-4000-8000-000000000003' });
    expect(request!.headers).toMatchObject({ 'x-api-public-key': KEYS.publicKey, 'x-api-secret-key': KEYS.secretKey });
  });

  it('refuses to start without a key pair of the expected form', () => {
    expect(() => createLendingClient({ baseUrl: 'http://127.0.0.1:1', publicKey: 'sk_test_x', secretKey: 'pk_test_y' })).toThrow(/publicKey \(pk_…\)/);
  });
});
