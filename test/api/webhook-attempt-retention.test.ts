import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrderedId } from '../../server/platform/domain/ids';
import { orderedIdFloor, purgeWebhookAttemptLog } from '../../server/platform/domain/webhooks/purge-attempt-log';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant } from '../support/lifecycle';
import { makeDelivery } from '../support/webhooks';

/**
 * The webhook attempt log is kept for its retention (30 days by default) and swept after, in batches, by any number
 * of workers at once; the deliveries (the event log partners read) stay.
 */
let app: TestApp;
let deliveryId: string;
let organisationId: string;
const DAY = 86_400_000;
beforeAll(async () => {
  app = await startTestApp();
  const tenant = await lendingTenant(app);
  organisationId = tenant.organisationId;
  deliveryId = await makeDelivery(app, tenant);
});
afterAll(() => app.stop());

/** An attempt row as if written `daysAgo` days before `now` (its id made then, as `newOrderedId` would have). */
function attemptAt(now: Date, daysAgo: number) {
  const at = new Date(now.getTime() - daysAgo * DAY);
  const floor = orderedIdFloor(at);
  const id = `${floor.slice(0, 19)}${crypto.randomBytes(2).toString('hex').replace(/^./, '8')}-${crypto.randomBytes(6).toString('hex')}`;
  return {
    id, deliveryId, organisationId, mode: 'test' as const, endpointId: null, attempt: 1, event: 'preapproval.received', url: 'https://partner.example/h',
    requestBody: '{}', requestHeaders: null, responseStatus: 500, responseBody: 'no', durationMs: 5, error: null, succeeded: (app.platform.dialect === 'sqlite' ? 0 : false) as never, at: at.toISOString(),
  };
}

const countAttempts = async () => Number((await app.platform.db.selectFrom('webhookDeliveryAttempts').select((eb) => eb.fn.countAll().as('n')).where('deliveryId', '=', deliveryId).executeTakeFirstOrThrow()).n);

describe('the webhook attempt log’s retention', () => {
  it('the floor of a millisecond sorts below every id made in it or after, above every id made before', () => {
    const now = new Date();
    const floor = orderedIdFloor(now);
    expect(newOrderedId() >= floor).toBe(true);
    expect(orderedIdFloor(new Date(now.getTime() - 1)) < floor).toBe(true);
  });

  it('keeps 30 days, deletes what is older in batches from two sweepers at once, and the delivery stays', async () => {
    const now = new Date();
    await app.platform.db.deleteFrom('webhookDeliveryAttempts').where('deliveryId', '=', deliveryId).execute();
    const old = Array.from({ length: 2_300 }, (_, i) => attemptAt(now, 31 + (i % 60)));
    const recent = Array.from({ length: 40 }, (_, i) => attemptAt(now, i % 29));
    for (let i = 0; i < old.length; i += 500) await app.platform.db.insertInto('webhookDeliveryAttempts').values(old.slice(i, i + 500)).execute();
    await app.platform.db.insertInto('webhookDeliveryAttempts').values(recent).execute();
    expect(await countAttempts()).toBe(2_340);

    const [a, b] = await Promise.all([
      purgeWebhookAttemptLog(app.platform.db, { now, retentionDays: 30 }),
      purgeWebhookAttemptLog(app.platform.db, { now, retentionDays: 30 }),
    ]);
    expect(a + b).toBe(2_300);
    expect(await countAttempts()).toBe(40);
    const kept = await app.platform.db.selectFrom('webhookDeliveryAttempts').select('id').where('deliveryId', '=', deliveryId).execute();
    expect(new Set(kept.map((r) => r.id))).toEqual(new Set(recent.map((r) => r.id)));
    expect(await app.platform.db.selectFrom('webhookDeliveries').select('id').where('id', '=', deliveryId).executeTakeFirst()).toBeTruthy();
    expect(await purgeWebhookAttemptLog(app.platform.db, { now, retentionDays: 30 })).toBe(0);
  });
});
