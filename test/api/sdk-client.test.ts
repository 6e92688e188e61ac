import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { LendingApiError, createLendingClient, verifyLendingWebhook, type LendingClient } from '../../sdk/src/index';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { startReceiver, type Receiver } from '../support/webhooks';

/**
 * The client package (its source, as built) against the real platform: push a decision, issue the offer, mint a
 * checkout session, list loans through the iterator, a real error typed, idempotent replays, and a real webhook
 * delivery verified by the package.
 */
let app: TestApp;
let tenant: LendingTenant;
let lending: LendingClient;
let receiver: Receiver;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  lending = createLendingClient({ baseUrl: app.url, publicKey: tenant.test.publicKey, secretKey: tenant.test.secretKey });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

function decision() {
  const unique = crypto.randomBytes(5).toString('hex');
  return {
    borrower: { firstName: 'Ada', lastName: 'Obi', phone: '+2348012345678', email: 'ada@example.com' },
    decision: {
      metadata: { assessment_id: `asm_${unique}`, bvn: '22222222222' },
      decision: { recommendation: 'APPROVE', approved_amount: 150000, conditions: { interest_rate: 4.5, tenor_days: 90, repayment_frequency: 'monthly' } },
    },
    clientReference: `cref_${unique}`,
  };
}

async function offeredLoanId(): Promise<string> {
  const pushed = await lending.post('/v1/preapprovals', { body: decision() });
  const issued = await lending.post('/v1/preapprovals/{id}/issue-offer', { params: { path: { id: pushed.data.preapprovalId } }, body: {} });
  return issued.data.id;
}

describe('the client package against the platform', () => {
  it('pushes a decision, issues the offer, mints a checkout session and finds the loans through the iterator', async () => {
    const pushed = await lending.post('/v1/preapprovals', { body: decision() });
    expect(pushed.status).toBe(202);
    const issued = await lending.post('/v1/preapprovals/{id}/issue-offer', { params: { path: { id: pushed.data.preapprovalId } }, body: {} });
    expect(issued.data).toMatchObject({ status: 'awaiting_acceptance', principalKobo: 15_000_000 });
    const second = await offeredLoanId();

    const session = await lending.post('/v1/loans/{id}/checkout-sessions', { params: { path: { id: issued.data.id } } });
    expect(session.data).toMatchObject({ loanId: issued.data.id, token: expect.stringMatching(/^cs_test_/), url: expect.stringContaining('/checkout/c/cs_test_') });

    const listed: string[] = [];
    for await (const loan of lending.paginate('/v1/loans', { params: { query: { status: 'awaiting_acceptance' } } })) listed.push(loan.id);
    expect(listed.slice(0, 2)).toEqual([second, issued.data.id]);
  });

  it('when the same Idempotency-Key is sent twice, then the platform executes once and the replay answers the same', async () => {
    const body = decision();
    const key = `push-${body.clientReference}`;

    const first = await lending.post('/v1/preapprovals', { body, idempotencyKey: key });
    const replay = await lending.post('/v1/preapprovals', { body, idempotencyKey: key });

    expect(replay).toEqual(first);
    const rows = await app.platform.db.selectFrom('preapprovals').select('id').where('organisationId', '=', tenant.organisationId).where('id', '=', first.data.preapprovalId).execute();
    expect(rows).toHaveLength(1);
  });

  it('when the key is reused with another body, then LendingApiError 409 IDEMPOTENCY_KEY_CONFLICT with the request id', async () => {
    const key = `conflict-${crypto.randomUUID()}`;
    await lending.post('/v1/preapprovals', { body: decision(), idempotencyKey: key });

    const error = await lending.post('/v1/preapprovals', { body: decision(), idempotencyKey: key }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LendingApiError);
    expect(error).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_CONFLICT', requestId: expect.any(String) });
  });

  it('when a loan does not exist, then LendingApiError 404 NOT_FOUND', async () => {
    const error = await lending.get('/v1/loans/{id}', { params: { path: { id: crypto.randomUUID() } } }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'LendingApiError', status: 404, code: 'NOT_FOUND' });
  });

  it('when the key pair is wrong, then LendingApiError 401 UNAUTHENTICATED (not retried)', async () => {
    const stranger = createLendingClient({ baseUrl: app.url, publicKey: 'pk_test_unknown', secretKey: 'sk_test_unknown' });

    await expect(stranger.get('/v1/loans')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('registers a webhook endpoint and verifies the real delivery with the package', async () => {
    const registered = await lending.post('/v1/webhook-endpoints', { body: { url: receiver.url('/sdk-hook') } });
    const pushed = await lending.post('/v1/preapprovals', { body: decision() });

    await new WebhookDispatcher(app.platform).runOnce();

    const delivery = receiver.received.find((r) => r.path === '/sdk-hook' && r.body?.data?.preapprovalId === pushed.data.preapprovalId);
    expect(delivery).toBeDefined();
    const envelope = await verifyLendingWebhook<{ preapprovalId: string }>(delivery!.rawBody, delivery!.headers, registered.data.signingSecret);
    expect(envelope).toMatchObject({ event: 'preapproval.received', mode: 'test', data: { preapprovalId: pushed.data.preapprovalId } });
    await expect(verifyLendingWebhook(delivery!.rawBody, delivery!.headers, 'whsec_not_this_one')).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });
});
