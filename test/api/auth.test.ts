import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { client, createTenant, startTestApp, type TestApp } from '../support/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('authentication', () => {
  it('accepts the two-header form and the Authorization form alike', async () => {
    const tenant = await createTenant(app);
    const viaHeaders = await client(app, tenant.test).get('/v1/products');
    const viaAuthorization = await client(app).get('/v1/products', {
      Authorization: `ApiKey ${tenant.test.publicKey}:${tenant.test.secretKey}`,
    });
    expect(viaHeaders.status).toBe(200);
    expect(viaAuthorization.status).toBe(200);
    expect(viaAuthorization.body).toEqual(viaHeaders.body);
  });

  it.each([
    ['no credential', {}],
    ['only the public key', { 'X-API-Public-Key': 'pk_test_aaaaaaaaaaaaaaaaaaaaaaaa' }],
    ['an unknown key pair', { 'X-API-Public-Key': 'pk_test_aaaaaaaaaaaaaaaaaaaaaaaa', 'X-API-Secret-Key': 'sk_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
    ['a malformed Authorization header', { Authorization: 'Bearer something' }],
    ['keys of two modes', { 'X-API-Public-Key': 'pk_test_aaaaaaaaaaaaaaaaaaaaaaaa', 'X-API-Secret-Key': 'sk_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
  ])('when the request carries %s, then 401 UNAUTHENTICATED', async (_name, headers) => {
    const res = await client(app).get('/v1/products', headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, success: false, error: 'UNAUTHENTICATED' });
  });

  it('when the secret does not match the public key, then 401', async () => {
    const a = await createTenant(app);
    const b = await createTenant(app);
    const res = await client(app, { publicKey: a.test.publicKey, secretKey: b.test.secretKey }).get('/v1/products');
    expect(res.status).toBe(401);
  });

  it('when a key is revoked, then it answers 401 while the other keys keep working', async () => {
    const tenant = await createTenant(app);
    await revokeApiKey(app.platform.db, tenant.test.publicKey, new Date());
    app.platform.authenticator.invalidate();
    expect((await client(app, tenant.test).get('/v1/products')).status).toBe(401);
    expect((await client(app, tenant.live).get('/v1/products')).status).toBe(200);
  });
});

describe('permissions', () => {
  it('when the organisation lacks Loan Tenant, then every route answers 403', async () => {
    const tenant = await createTenant(app, { loanTenant: false });
    const res = await client(app, tenant.test).get('/v1/products');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('LOAN_TENANT_PERMISSION_DENIED');
  });

  it('when the organisation lacks Pre-Approved Lending, then pre-approval routes answer 403 PREAPPROVED_LENDING_PERMISSION_DENIED and others work', async () => {
    const tenant = await createTenant(app, { preapprovedLending: false });
    const api = client(app, tenant.test);
    const push = await api.post('/v1/preapprovals', {});
    expect(push.status).toBe(403);
    expect(push.body.error).toBe('PREAPPROVED_LENDING_PERMISSION_DENIED');
    expect((await api.get('/v1/preapprovals')).body.error).toBe('PREAPPROVED_LENDING_PERMISSION_DENIED');
    expect((await api.get('/v1/products')).status).toBe(200);
  });

  it('when the pre-approval switch is off, then pre-approval routes answer 403 FEATURE_DISABLED', async () => {
    const tenant = await createTenant(app, { settings: { preapprovalsEnabled: false } });
    const res = await client(app, tenant.test).get('/v1/preapprovals');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('FEATURE_DISABLED');
  });

  it('when the organisation is disabled, then its keys answer 403 ORGANISATION_DISABLED', async () => {
    const tenant = await createTenant(app);
    await configureOrganisation(app.platform.db, tenant.organisationId, { disabled: true }, new Date());
    app.platform.authenticator.invalidate();
    const res = await client(app, tenant.live).get('/v1/products');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ORGANISATION_DISABLED');
  });

  it('takes the mode from the key prefix: test and live keys see their own pools', async () => {
    const tenant = await createTenant(app);
    const { fundPool } = await import('../../server/platform/domain/pools/pool');
    await app.platform.db.transaction().execute((trx) =>
      fundPool(trx, { organisationId: tenant.organisationId, mode: 'test', code: 'MAIN', amountKobo: 1_000, now: new Date() }),
    );
    const testView = await client(app, tenant.test).get('/v1/pools/balance');
    const liveView = await client(app, tenant.live).get('/v1/pools/balance');
    expect(testView.body.data.pools).toEqual([{ code: 'MAIN', currency: 'NGN', balanceKobo: 1000, balanceNaira: 10 }]);
    expect(liveView.body.data.pools).toEqual([]);
  });
});
