import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import type { Db } from '../../server/platform/db/database';
import type { Database, WebhookEndpointsTable } from '../../server/platform/db/schema';
import type { WebhookRequest } from '../../server/platform/domain/ports';
import { Secrets } from '../../server/platform/domain/secrets';
import type { ClaimedDelivery } from '../../server/platform/domain/webhooks/claim';
import { deliver, DELIVERY_HEADERS, envelopeFor, lendingEnvelope, sdkEnvelope } from '../../server/platform/domain/webhooks/deliver';
import { verifyWebhook } from '../../server/platform/domain/webhooks/signature';

/** A database that answers every query with no rows: here, an organisation without an API key pair that can sign. */
const noRows: Db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const secrets = new Secrets('unit-test-master-key');
const clock = new FakeClock('2026-03-01T10:00:00.000Z');
const SIGNING_SECRET = 'whsec_unit';

function claimFor(api: 'lending' | 'sdk', endpoint: Partial<WebhookEndpointsTable> | null = {}): ClaimedDelivery {
  const at = '2026-03-01T09:59:00.000Z';
  return {
    delivery: {
      id: 'delivery-1', organisationId: 'org-1', mode: 'test', eventId: 'event-1', endpointId: endpoint ? 'endpoint-1' : null,
      event: api === 'sdk' ? 'loan.approved' : 'preapproval.received', targetUrl: 'https://receiver.example/hook', status: 'delivering',
      attemptCount: 2, maxAttempts: 13, nextAttemptAt: at, deliveredAt: null, responseStatus: null, lastError: null, createdAt: at, updatedAt: at,
    },
    attempt: 2,
    eventCreatedAt: at,
    payload: { preapprovalId: 'p-1' },
    endpoint: endpoint
      ? {
          id: 'endpoint-1', organisationId: 'org-1', mode: 'test', url: 'https://receiver.example/hook', description: null, events: null,
          status: 'active', consecutiveFails: 0, lastFailureAt: null, lastSuccessAt: null,
          // The endpoint module's sealing purpose for signing secrets.
          secretSealed: secrets.encrypt('webhook-signing-secret', SIGNING_SECRET),
          previousSecretSealed: null, previousSecretExpiresAt: null, failingSince: null, api, createdAt: at, updatedAt: at,
          ...endpoint,
        }
      : undefined,
  };
}

function sender(answer: { status?: number; error?: string }) {
  const sent: WebhookRequest[] = [];
  return { sent, send: async (request: WebhookRequest) => (sent.push(request), answer) };
}

const options = (send: (request: WebhookRequest) => Promise<{ status?: number; error?: string }>) =>
  ({ db: noRows, secrets, clock, send, allowLoopback: false, timeoutMs: 1000 });

describe('deliver: one send path, an envelope per endpoint API', () => {
  it('chooses the patient-financing envelope for sdk endpoints and the lending one otherwise', () => {
    expect(envelopeFor('sdk')).toBe(sdkEnvelope);
    expect(envelopeFor('lending')).toBe(lendingEnvelope);
  });

  it('when the endpoint was deleted or is disabled, then nothing is sent and the attempt ends the delivery', async () => {
    const { sent, send } = sender({ status: 200 });
    const deleted = await deliver(claimFor('lending', null), options(send));
    const disabled = await deliver(claimFor('lending', { status: 'disabled' }), options(send));
    expect(deleted.outcome).toEqual({ succeeded: false, notSent: true, error: 'not sent: the endpoint was deleted' });
    expect(disabled.outcome).toEqual({ succeeded: false, notSent: true, error: 'not sent: the endpoint is disabled' });
    expect(sent).toHaveLength(0);
  });

  it('sends the lending envelope signed with the endpoint secret, with the delivery headers', async () => {
    const { sent, send } = sender({ status: 204 });
    const { outcome } = await deliver(claimFor('lending'), options(send));
    expect(outcome).toEqual({ status: 204, succeeded: true });
    const [request] = sent;
    expect(request!.url).toBe('https://receiver.example/hook');
    expect(request!.headers).toMatchObject({ [DELIVERY_HEADERS.eventId]: 'event-1', [DELIVERY_HEADERS.deliveryId]: 'delivery-1', [DELIVERY_HEADERS.attempt]: '2' });
    expect(verifyWebhook(request!.body, request!.headers, SIGNING_SECRET, { now: clock.now() })).toEqual({
      id: 'event-1', event: 'preapproval.received', timestamp: clock.now().toISOString(), data: { preapprovalId: 'p-1' }, mode: 'test', createdAt: '2026-03-01T09:59:00.000Z',
    });
  });

  it.each([302, 410, 500])('when the receiver answers %s, then the attempt did not succeed', async (status) => {
    const { send } = sender({ status, error: `HTTP ${status}` });
    expect((await deliver(claimFor('lending'), options(send))).outcome).toMatchObject({ status, succeeded: false });
  });

  it('when the envelope cannot sign (an sdk endpoint whose organisation has no API key pair), then nothing is sent and the error says the fix', async () => {
    const { sent, send } = sender({ status: 200 });
    const { outcome } = await deliver(claimFor('sdk'), options(send));
    expect(outcome).toEqual({ succeeded: false, error: 'not sent: the organisation has no API key pair that can sign (create a new key pair)' });
    expect(sent).toHaveLength(0);
  });
});
