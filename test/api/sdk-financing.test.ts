import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { verifySdkWebhook } from '../../server/platform/domain/financing/sdk-webhooks';
import { createApiKey, revokeApiKey } from '../../server/platform/domain/api-keys/api-key';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { startReceiver, type Receiver } from '../support/webhooks';

/**
 * The patient-financing initiation API (`/api/v1/sdk`, spec B): validation of every field, clientReference replay and
 * conflict, loan.initiated signed with the organisation's API secret key, the event log and redelivery, the mandate
 * routes before an offer, and tenancy. The hosted application itself is in sdk-application.test.ts.
 */
let app: TestApp;
let clock: FakeClock;
let dispatcher: WebhookDispatcher;
let receiver: Receiver;
let partner: Tenant;
let stranger: Tenant;

let counter = 0;
const body = (overrides: Record<string, unknown> = {}) => ({
  clientReference: `cref-${Date.now()}-${(counter += 1)}`,
  invoiceReference: 'INV-2026-001',
  firstName: 'Ada',
  phoneNumber: '08031234567',
  treatment: 'Root canal and crown',
  treatmentAmount: 15_000_000,
  ...overrides,
});

const initiate = (b: unknown, tenant = partner) => client(app, tenant.test).post('/api/v1/sdk/loans/initiate', b);

async function counts() {
  const db = app.platform.db;
  return {
    applications: (await db.selectFrom('financingApplications').select('id').execute()).length,
    loans: (await db.selectFrom('loans').select('id').execute()).length,
    borrowers: (await db.selectFrom('borrowers').select('id').execute()).length,
    events: (await db.selectFrom('events').select('id').execute()).length,
    sessions: (await db.selectFrom('checkoutSessions').select('id').execute()).length,
  };
}

beforeAll(async () => {
  clock = new FakeClock('2026-11-26T09:00:00.000Z');
  app = await startTestApp({ clock });
  dispatcher = new WebhookDispatcher(app.platform, { random: () => 0.5 });
  receiver = await startReceiver();
  // A clinic: no Loan Tenant permission, which the financing API does not need.
  partner = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  stranger = await createTenant(app, { loanTenant: false });
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

describe('POST /api/v1/sdk/loans/initiate', () => {
  it('when the body is valid, then 201 with the initiation record, and the applicationUrl opens the hosted application', async () => {
    const res = await initiate(body());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 201, success: true, message: expect.any(String) });
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['applicationUrl', 'clientReference', 'expiresAt', 'sdkReference', 'status']);
    expect(data.status).toBe('initiated');
    expect(data.expiresAt).toBe('2026-11-29T09:00:00.000Z');
    expect(data.applicationUrl).toMatch(/\/checkout\/c\/cs_test_[0-9A-Za-z]{40}$/);
    const opened = await fetch(data.applicationUrl, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const loan = await app.platform.db.selectFrom('loans').selectAll().where('id', '=', data.sdkReference).executeTakeFirstOrThrow();
    expect(loan).toMatchObject({ organisationId: partner.organisationId, mode: 'test', status: 'pending', principalKobo: 15_000_000 });
  });

  it.each([
    ['08031234567'],
    ['2348031234567'],
    ['+2348031234567'],
    ['+234 803 123 4567'],
    ['0803-123-4567'],
  ])('accepts the phone %s and stores it as +2348031234567', async (phoneNumber) => {
    const res = await initiate(body({ phoneNumber }));
    expect(res.status).toBe(201);
    const app_ = await app.platform.db.selectFrom('financingApplications').select('phone').where('id', '=', res.body.data.sdkReference).executeTakeFirstOrThrow();
    expect(app_.phone).toBe('+2348031234567');
  });

  it.each([['+447911123456'], ['0803123456'], ['080312345678'], ['+2341012345678'], ['12345'], ['8031234567'], ['phone']])(
    'refuses the phone %s with 422 phone_number_invalid and changes nothing',
    async (phoneNumber) => {
      const before = await counts();
      const res = await initiate(body({ phoneNumber }));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: 'phone_number_invalid' });
      expect(await counts()).toEqual(before);
    },
  );

  it.each([
    ['a fraction of a kobo', 150000.5],
    ['zero', 0],
    ['a negative amount', -100],
    ['a string', '15000000'],
    ['an unsafe integer', 2 ** 53],
  ])('refuses %s as treatmentAmount with 400 naming the field and changes nothing', async (_name, treatmentAmount) => {
    const before = await counts();
    const res = await initiate(body({ treatmentAmount }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.message).toMatch(/^body\.treatmentAmount: /);
    expect(await counts()).toEqual(before);
  });

  it('when naira is sent as kobo (₦150,000 as 150000), then 422 treatment_amount_outside_policy says what it is and what was probably meant', async () => {
    const before = await counts();
    const res = await initiate(body({ treatmentAmount: 150_000 }));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('treatment_amount_outside_policy');
    expect(res.body.message).toContain('₦1,500.00');
    expect(res.body.message).toContain('If you meant ₦150,000.00, send 15000000');
    expect(await counts()).toEqual(before);
  });

  it('when the amount is above the policy, then 422 without a × 100 hint', async () => {
    const res = await initiate(body({ treatmentAmount: 900_000_000 }));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('treatment_amount_outside_policy');
    expect(res.body.message).not.toContain('If you meant');
  });

  it.each([
    ['no clientReference', { clientReference: undefined }],
    ['an empty firstName', { firstName: '  ' }],
    ['no treatment', { treatment: undefined }],
    ['no phoneNumber', { phoneNumber: undefined }],
    ['an unknown field', { lastName: 'Obi' }],
  ])('refuses %s with 400 invalid_request', async (_name, overrides) => {
    const res = await initiate(JSON.parse(JSON.stringify(body(overrides))));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when the same clientReference comes again with the same body (phone in another format), then the same initiation, and nothing new is created', async () => {
    const first = body();
    const created = await initiate(first);
    const before = await counts();
    const replay = await initiate({ ...first, phoneNumber: '+234 803 123 4567' });
    expect(replay.status).toBe(201);
    expect(replay.body.data).toEqual(created.body.data);
    expect(await counts()).toEqual(before);
  });

  it('when the same clientReference comes with another body, then 409 client_reference_conflict naming the existing initiation', async () => {
    const first = body();
    const created = await initiate(first);
    const before = await counts();
    const res = await initiate({ ...first, treatmentAmount: 16_000_000 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'client_reference_conflict', data: { sdkReference: created.body.data.sdkReference } });
    expect(await counts()).toEqual(before);
  });

  it('lets invoiceReference repeat across initiations, and clientReference be reused by another organisation', async () => {
    const a = await initiate(body({ invoiceReference: 'INV-SHARED' }));
    const b = await initiate(body({ invoiceReference: 'INV-SHARED' }));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.data.sdkReference).not.toBe(b.body.data.sdkReference);
    const mine = body();
    const theirs = await initiate(mine, stranger);
    const ours = await initiate(mine);
    expect(theirs.status).toBe(201);
    expect(ours.status).toBe(201);
    expect(ours.body.data.sdkReference).not.toBe(theirs.body.data.sdkReference);
  });

  it('answers 401 without a key pair', async () => {
    const res = await client(app).post('/api/v1/sdk/loans/initiate', body());
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('UNAUTHENTICATED');
  });
});

describe('webhooks, the event log and redelivery', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(app, { loanTenant: false });
    const registered = await client(app, tenant.test).post('/api/v1/sdk/webhook-endpoints', { url: receiver.url('/sdk') });
    expect(registered.status).toBe(201);
    expect(registered.body.data).not.toHaveProperty('signingSecret');
  });

  it('delivers loan.initiated with the spec\'s sample fields, signed with the organisation\'s API secret key', async () => {
    const sent = body({ firstName: 'Chioma' });
    const res = await initiate(sent, tenant);
    await dispatcher.runOnce();
    const got = receiver.received.filter((r) => r.path === '/sdk').at(-1)!;
    expect(got.headers['x-service-event']).toBe('loan.initiated');
    const envelope = verifySdkWebhook(got.rawBody, got.headers, tenant.test.secretKey);
    expect(Object.keys(envelope).sort()).toEqual(['data', 'event', 'timestamp']);
    expect(envelope.timestamp).toBe(clock.now().toISOString());
    expect(envelope.data).toEqual({
      sdkReference: res.body.data.sdkReference,
      clientReference: sent.clientReference,
      invoiceReference: sent.invoiceReference,
      status: 'initiated',
      amount: 15_000_000,
      currency: 'NGN',
      applicant: { firstName: 'Chioma', lastName: null, gender: null },
      applicationUrl: res.body.data.applicationUrl,
    });
    expect(() => verifySdkWebhook(got.rawBody, got.headers, stranger.test.secretKey)).toThrow(/does not match/);
    // The URL is a credential: the outbox keeps it sealed.
    const stored = await app.platform.db.selectFrom('events').select('payload').where('api', '=', 'sdk').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.payload)).not.toContain('cs_test_');
  });

  it('signs with the newest key pair after a rotation', async () => {
    const fresh = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'test', now: clock.now() });
    await revokeApiKey(app.platform.db, tenant.test.publicKey, clock.now());
    app.platform.authenticator.invalidate();
    const rotated = { publicKey: fresh.publicKey, secretKey: fresh.secretKey };
    await client(app, rotated).post('/api/v1/sdk/loans/initiate', body());
    await dispatcher.runOnce();
    const got = receiver.received.filter((r) => r.path === '/sdk').at(-1)!;
    expect(verifySdkWebhook(got.rawBody, got.headers, fresh.secretKey).event).toBe('loan.initiated');
    expect(() => verifySdkWebhook(got.rawBody, got.headers, tenant.test.secretKey)).toThrow();
    tenant = { ...tenant, test: rotated };
  });

  it('lists deliveries newest first with status and last error, limit 1-200 (default 100), and only patient-financing events', async () => {
    const list = await client(app, tenant.test).get('/api/v1/sdk/events');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(2);
    const ids = list.body.data.map((d: { id: string }) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());
    for (const d of list.body.data) {
      expect(d).toMatchObject({ event: 'loan.initiated', status: 'succeeded', lastError: null, responseStatus: 200 });
      expect(d.data.applicationUrl).toMatch(/\/checkout\/c\//);
    }
    expect((await client(app, tenant.test).get('/api/v1/sdk/events?limit=1')).body.data).toHaveLength(1);
    expect((await client(app, tenant.test).get('/api/v1/sdk/events?limit=200')).status).toBe(200);
    for (const bad of ['0', '201', 'ten', '1.5']) {
      const res = await client(app, tenant.test).get(`/api/v1/sdk/events?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
    expect((await client(app, stranger.test).get('/api/v1/sdk/events')).body.data).toEqual([]);
  });

  it('records a failing attempt with its last error, and redelivery requeues it with the same event id', async () => {
    const failing = await createTenant(app, { loanTenant: false });
    await client(app, failing.test).post('/api/v1/sdk/webhook-endpoints', { url: receiver.url('/down') });
    const closedPort = receiver.url('/down').replace(/:\d+\//, ':9/');
    await app.platform.db.updateTable('webhookEndpoints').set({ url: closedPort }).where('organisationId', '=', failing.organisationId).execute();
    await initiate(body(), failing);
    await dispatcher.runOnce();
    const [row] = (await client(app, failing.test).get('/api/v1/sdk/events')).body.data;
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/);

    await app.platform.db.updateTable('webhookEndpoints').set({ url: receiver.url('/back') }).where('organisationId', '=', failing.organisationId).execute();
    const redelivered = await client(app, failing.test).post(`/api/v1/sdk/events/${row.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data).toMatchObject({ id: row.id, status: 'pending', lastError: null });
    await dispatcher.runOnce();
    const got = receiver.received.filter((r) => r.path === '/back');
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['x-service-event-id']).toBe(row.eventId);
    expect(verifySdkWebhook(got[0]!.rawBody, got[0]!.headers, failing.test.secretKey).data.sdkReference).toBe(row.data.sdkReference);
    expect((await client(app, failing.test).get('/api/v1/sdk/events')).body.data[0]).toMatchObject({ id: row.id, status: 'succeeded' });

    const foreign = await client(app, stranger.test).post(`/api/v1/sdk/events/${row.id}/redeliver`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('NOT_FOUND');
  });

  it('sends patient-financing events only to sdk endpoints, and lending events never to them', async () => {
    const both = await createTenant(app);
    await client(app, both.test).post('/v1/webhook-endpoints', { url: receiver.url('/lending-only') });
    await initiate(body(), both);
    await dispatcher.runOnce();
    expect(receiver.received.filter((r) => r.path === '/lending-only')).toHaveLength(0);
    expect((await client(app, both.test).get('/v1/events')).body.data).toEqual([]);
  });
});

describe('mandate routes before the offer is signed, and tenancy', () => {
  let loanId: string;
  beforeAll(async () => {
    loanId = (await initiate(body())).body.data.sdkReference;
  });

  it('GET shows the patient has not reached the mandate yet', async () => {
    const res = await client(app, partner.test).get(`/api/v1/sdk/loans/${loanId}/mandate`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sdkReference: loanId, applicationStatus: 'initiated', stage: 'awaiting_offer', authorizationUrl: null, mandate: null });
  });

  it('POST before the offer is signed answers 409 invalid_loan_state', async () => {
    const res = await client(app, partner.test).post(`/api/v1/sdk/loans/${loanId}/mandate`, {});
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
  });

  it.each([
    ['only bankCode', { bankCode: '058' }, 422, 'bank_details_incomplete'],
    ['only accountNumber', { accountNumber: '0123456785' }, 422, 'bank_details_incomplete'],
    ['a NUBAN with a wrong check digit', { bankCode: '058', accountNumber: '0123456789' }, 422, 'account_number_invalid'],
    ['an unknown bank', { bankCode: '999', accountNumber: '0123456785' }, 422, 'bank_not_found'],
    ['a 9-digit account number', { bankCode: '058', accountNumber: '012345678' }, 400, 'invalid_request'],
  ])('POST with %s answers %i %s', async (_name, b, status, code) => {
    const res = await client(app, partner.test).post(`/api/v1/sdk/loans/${loanId}/mandate`, b);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
  });

  it('another organisation\'s loan answers 404 on GET and POST, and so does the other mode', async () => {
    for (const res of [
      await client(app, stranger.test).get(`/api/v1/sdk/loans/${loanId}/mandate`),
      await client(app, stranger.test).post(`/api/v1/sdk/loans/${loanId}/mandate`, {}),
      await client(app, partner.live).get(`/api/v1/sdk/loans/${loanId}/mandate`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, success: false, message: expect.any(String), error: 'NOT_FOUND', docUrl: `${app.url}/docs/errors#NOT_FOUND` });
    }
  });

  it('a malformed loan id answers 400 INVALID_ID', async () => {
    const res = await client(app, partner.test).get('/api/v1/sdk/loans/not-a-uuid/mandate');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_ID');
  });
});

describe('reading and cancelling an initiation', () => {
  it('GET /sdk/loans/{loanId} answers the initiation as it stands; another organisation gets 404', async () => {
    const created = (await initiate(body())).body.data;
    const read = await client(app, partner.test).get(`/api/v1/sdk/loans/${created.sdkReference}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created);
    expect((await client(app, stranger.test).get(`/api/v1/sdk/loans/${created.sdkReference}`)).status).toBe(404);
  });

  it('the partner cancels before disbursement: cancelled, idempotent, loan.cancelled sent; another organisation gets 404', async () => {
    const tenant = await createTenant(app, { loanTenant: false });
    await client(app, tenant.test).post('/api/v1/sdk/webhook-endpoints', { url: receiver.url('/cancel') });
    const created = (await initiate(body(), tenant)).body.data;
    expect((await client(app, stranger.test).post(`/api/v1/sdk/loans/${created.sdkReference}/cancel`, {})).status).toBe(404);
    const cancelled = await client(app, tenant.test).post(`/api/v1/sdk/loans/${created.sdkReference}/cancel`, { reason: 'Treatment postponed' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ sdkReference: created.sdkReference, status: 'cancelled' });
    const again = await client(app, tenant.test).post(`/api/v1/sdk/loans/${created.sdkReference}/cancel`, {});
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('cancelled');
    await dispatcher.runOnce();
    // Deliveries go out concurrently: arrival order is not emission order; the event id (UUIDv7) is.
    const got = receiver.received
      .filter((r) => r.path === '/cancel')
      .sort((a, b) => (String(a.headers['x-service-event-id']) < String(b.headers['x-service-event-id']) ? -1 : 1))
      .map((r) => verifySdkWebhook(r.rawBody, r.headers, tenant.test.secretKey));
    expect(got.map((e) => e.event)).toEqual(['loan.initiated', 'loan.cancelled']);
    expect(got[1]!.data).toMatchObject({ status: 'cancelled', reason: 'Treatment postponed' });
    // The hosted application is closed for the patient.
    const token = created.applicationUrl.slice(created.applicationUrl.lastIndexOf('/') + 1);
    const state = await client(app).get('/v1/checkout/session', { authorization: `CheckoutSession ${token}` });
    expect(state.body.data.status).toBe('closed');
  });

  it('a partner that is also a Loan Tenant cannot reject or disburse the service\'s loan through the lending API', async () => {
    const lender = await createTenant(app);
    const created = (await initiate(body(), lender)).body.data;
    for (const path of ['reject', 'disburse']) {
      const res = await client(app, lender.test).post(`/v1/loans/${created.sdkReference}/${path}`, path === 'reject' ? { reason: 'no' } : undefined);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('approval_mode_mismatch');
    }
    expect((await client(app, lender.test).post(`/v1/loans/${created.sdkReference}/approve`, {})).body.error).toBe('approval_mode_mismatch');
  });
});
