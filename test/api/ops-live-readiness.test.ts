import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint } from '../../server/platform/domain/webhooks/endpoint';
import { signedInOwner } from '../support/dashboard';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant } from '../support/lifecycle';
import { staffMember, type OpsClient } from '../support/ops';

/**
 * Organisations that may go live: not live yet, with a verified owner, each with a checklist read from the data;
 * "refuse" records the reason (and refuses an open live_enable proposal); "enable" is the four-eyes proposal.
 */
let app: TestApp;
let admin: OpsClient;
let support: OpsClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = await staffMember(app, 'admin');
  support = await staffMember(app, 'support');
});
afterAll(() => app.stop());

type Item = { id: string; checklist: Record<string, boolean>; ready: boolean; proposalId: string | null };
const list = async (): Promise<Item[]> => {
  const page = await support.send('GET', '/live-readiness?limit=100');
  expect(page.status).toBe(200);
  return page.json.data;
};

describe('organisations asking for live mode', () => {
  it('a freshly signed-up organisation with a verified owner is listed with what it still lacks; one without a verified owner is not', async () => {
    const owner = await signedInOwner(app);
    const item = (await list()).find((row) => row.id === owner.organisationId);
    expect(item).toMatchObject({ checklist: { verifiedEmail: true, product: false, fundedPool: false, webhookEndpoint: false, branding: false }, ready: false, proposalId: null });
    // A tenant made by the operator (no dashboard owner) is not listed.
    const tenant = await lendingTenant(app);
    expect((await list()).some((row) => row.id === tenant.organisationId)).toBe(false);
    expect((await support.send('GET', '/overview')).json.data.counts.liveReadiness).toBeGreaterThanOrEqual(1);

    // Its data fills the checklist: a product and a funded pool (as the tenant's), a webhook endpoint, branding.
    const now = new Date();
    const products = await app.platform.db.selectFrom('loanProducts').selectAll().where('organisationId', '=', tenant.organisationId).execute();
    await app.platform.db.insertInto('loanProducts').values(products.map((p) => ({ ...p, id: crypto.randomUUID(), code: `${p.code}-x`, organisationId: owner.organisationId }))).execute();
    const pools = await app.platform.db.selectFrom('ledgerAccounts').selectAll().where('organisationId', '=', tenant.organisationId).where('kind', '=', 'capital_pool').execute();
    expect(pools.some((p) => Number(p.balanceKobo) !== 0)).toBe(true);
    await app.platform.db.insertInto('ledgerAccounts').values(pools.map((p) => ({ ...p, id: crypto.randomUUID(), organisationId: owner.organisationId }))).execute();
    await createEndpoint(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'test' }, { url: 'https://hooks.example/lending' }, now, { allowLoopback: true });
    const filled = (await list()).find((row) => row.id === owner.organisationId)!;
    expect(filled.checklist).toMatchObject({ product: true, fundedPool: true, webhookEndpoint: true, branding: false });
    expect(filled.ready).toBe(false);
    const at = now.toISOString();
    await app.platform.db
      .insertInto('checkoutSettings')
      .values({ organisationId: owner.organisationId, mode: 'test', allowedOrigins: JSON.stringify([]), returnUrl: null, displayName: 'Ikeja Clinic', logoUrl: null, brandColor: null, supportEmail: null, supportPhone: null, supportUrl: null, privacyUrl: null, termsUrl: null, createdAt: at, updatedAt: at } as never)
      .execute();
    expect((await list()).find((row) => row.id === owner.organisationId)).toMatchObject({ checklist: { branding: true }, ready: true });
  });

  it('refuse records the reason and refuses the open proposal; enable goes through four eyes; a live organisation leaves the list', async () => {
    const owner = await signedInOwner(app);
    const proposed = await admin.send('POST', `/organisations/${owner.organisationId}/enable-live`, { reason: 'checks done' });
    expect(proposed.status).toBe(202);
    expect((await list()).find((row) => row.id === owner.organisationId)?.proposalId).toBe(proposed.json.data.proposal.id);

    const liveRefusal = async () => (await owner.get('/overview')).json.data.organisation.liveRefusal;
    expect(await liveRefusal()).toBeNull();
    const denied = await support.send('POST', `/organisations/${owner.organisationId}/refuse-live`, { reason: 'no KYB yet' });
    expect([denied.status, denied.json.error]).toEqual([403, 'staff_permission_denied']);
    const short = await admin.send('POST', `/organisations/${owner.organisationId}/refuse-live`, { reason: 'x' });
    expect([short.status, short.json.error]).toEqual([400, 'invalid_request']);
    // Refusals that did not happen leave the partner's home as it was.
    expect(await liveRefusal()).toBeNull();
    const refused = await admin.send('POST', `/organisations/${owner.organisationId}/refuse-live`, { reason: 'no KYB documents yet' });
    expect(refused.status).toBe(200);
    expect(refused.json.data).toMatchObject({ organisationId: owner.organisationId, liveEnabled: false, proposalRefused: proposed.json.data.proposal.id });
    expect((await list()).find((row) => row.id === owner.organisationId)?.proposalId).toBeNull();
    const audit = (await admin.send('GET', '/audit?limit=100')).json.data as Array<{ action: string; target: string }>;
    expect(audit.some((row) => row.action === 'live_refused' && row.target.includes('no KYB documents yet'))).toBe(true);
    // The partner sees the reason on its dashboard's home, where it waits for live mode.
    expect(await liveRefusal()).toEqual({ reason: 'no KYB documents yet', at: expect.any(String) });
    await admin.send('POST', `/organisations/${owner.organisationId}/refuse-live`, { reason: 'KYB documents unreadable: send them again' });
    expect((await liveRefusal()).reason).toBe('KYB documents unreadable: send them again');

    const again = await admin.send('POST', `/organisations/${owner.organisationId}/enable-live`, { reason: 'KYB received' });
    const second = await staffMember(app, 'admin');
    const approved = await second.send('POST', `/proposals/${again.json.data.proposal.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect((await list()).some((row) => row.id === owner.organisationId)).toBe(false);
    // Live now: the old refusal is not shown.
    expect(await liveRefusal()).toBeNull();
    expect((await admin.send('POST', '/organisations/00000000-0000-4000-8000-000000000000/refuse-live', { reason: 'no such' })).status).toBe(404);
  });
});
