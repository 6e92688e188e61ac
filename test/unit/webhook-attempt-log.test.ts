import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import type { Db } from '../../server/platform/db/database';
import type { Database } from '../../server/platform/db/schema';
import type { WebhookRequest } from '../../server/platform/domain/ports';
import { Secrets } from '../../server/platform/domain/secrets';
import type { ClaimedDelivery } from '../../server/platform/domain/webhooks/claim';
import { deliver, LOGGED_BODY_CHARS, REDACTED, sdkEnvelope } from '../../server/platform/domain/webhooks/deliver';

/** What the dashboard's attempt log keeps of a request: the body as sent, bounded, without a credential; the signing headers. */
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

function claim(payload: unknown): ClaimedDelivery {
  const at = '2026-03-01T09:59:00.000Z';
  return {
    delivery: {
      id: 'delivery-1', organisationId: 'org-1', mode: 'test', eventId: 'event-1', endpointId: 'endpoint-1', event: 'loan.approved',
      targetUrl: 'https://receiver.example/hook', status: 'delivering', attemptCount: 1, maxAttempts: 13, nextAttemptAt: at,
      deliveredAt: null, responseStatus: null, lastError: null, createdAt: at, updatedAt: at,
    },
    attempt: 1,
    eventCreatedAt: at,
    payload,
    endpoint: {
      id: 'endpoint-1', organisationId: 'org-1', mode: 'test', url: 'https://receiver.example/hook', description: null, events: null,
      status: 'active', consecutiveFails: 0, lastFailureAt: null, lastSuccessAt: null, secretSealed: secrets.encrypt('webhook-signing-secret', 'whsec_unit'),
      previousSecretSealed: null, previousSecretExpiresAt: null, failingSince: null, api: 'lending', createdAt: at, updatedAt: at,
    },
  };
}

const options = (sent: WebhookRequest[]) => ({
  db: noRows,
  secrets,
  clock,
  allowLoopback: false,
  timeoutMs: 1000,
  send: async (request: WebhookRequest) => (sent.push(request), { status: 200, bodyExcerpt: 'thanks' }),
});

describe('the attempt log of a delivery', () => {
  it('keeps the body as sent, the identifying and signing headers, the answer and a duration', async () => {
    const sent: WebhookRequest[] = [];
    const result = await deliver(claim({ loanId: 'l-1' }), options(sent));
    expect(result.request!.body).toBe(sent[0]!.body);
    expect(result.request!.headers).toMatchObject({ 'X-Service-Event-Id': 'event-1', 'X-Service-Delivery-Attempt': '1', 'X-Service-Signature': sent[0]!.headers['X-Service-Signature'] });
    expect(result.request!.headers).not.toHaveProperty('user-agent');
    expect(result.outcome.bodyExcerpt).toBe('thanks');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('cuts a huge body and says so', async () => {
    const sent: WebhookRequest[] = [];
    const result = await deliver(claim({ blob: 'x'.repeat(LOGGED_BODY_CHARS * 2) }), options(sent));
    expect(sent[0]!.body.length).toBeGreaterThan(LOGGED_BODY_CHARS * 2);
    expect(result.request!.body.length).toBeLessThan(LOGGED_BODY_CHARS + 100);
    expect(result.request!.body).toMatch(/\[cut at 65536 characters\]$/);
  });

  it('redacts the patient-financing application URL (a credential) and leaves other bodies as they are', () => {
    const body = JSON.stringify({ event: 'loan.initiated', timestamp: 't', data: { sdkReference: 's-1', applicationUrl: 'https://pay.example/apply?token=secret' } });
    const logged = sdkEnvelope.logBody!(body);
    expect(logged).not.toContain('token=secret');
    expect(JSON.parse(logged)).toEqual({ event: 'loan.initiated', timestamp: 't', data: { sdkReference: 's-1', applicationUrl: REDACTED } });
    const plain = JSON.stringify({ event: 'loan.approved', timestamp: 't', data: { sdkReference: 's-1' } });
    expect(sdkEnvelope.logBody!(plain)).toBe(plain);
  });
});
