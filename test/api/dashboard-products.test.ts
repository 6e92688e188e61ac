import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { productInput } from '../support/factories';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';

/** Products on the dashboard: the CLI's validation, the partner API shows them, the role matrix, CSRF, tenancy. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

async function setRole(member: { organisationId: string }, role: 'analyst' | 'developer') {
  await app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', member.organisationId).execute();
}

async function partnerApi(organisationId: string, mode: 'test' | 'live' = 'test') {
  const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId, mode, now: app.platform.clock.now() });
  return client(app, { publicKey: key.publicKey, secretKey: key.secretKey });
}

const auditActions = async (organisationId: string) =>
  (await app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target']).where('organisationId', '=', organisationId).orderBy('at').execute()).map((r) => r.action);

const productCount = async (organisationId: string) =>
  Number((await app.platform.db.selectFrom('loanProducts').select((eb) => eb.fn.countAll().as('n')).where('organisationId', '=', organisationId).executeTakeFirstOrThrow()).n);

describe('dashboard products', () => {
  let owner: DashboardClient & { organisationId: string };
  beforeAll(async () => {
    owner = await signedInOwner(app);
  });

  it('when the owner defines a product, then it is listed, GET /v1/products shows it at once, and the audit log has product_created', async () => {
    const input = productInput({ code: 'DASH_FLAT', name: 'Clinic flat', processingFeeFlatKobo: 150_050 });
    const created = await owner.post('/products', input);
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({ code: 'DASH_FLAT', isActive: true, processingFeeFlatKobo: 150_050, organisationId: owner.organisationId });

    const listed = await owner.get('/products');
    expect(listed.json.data.map((p: any) => p.code)).toContain('DASH_FLAT');
    expect(listed.json.nextCursor).toBeNull();

    const api = await partnerApi(owner.organisationId);
    const fromApi = await api.get('/v1/products');
    expect(fromApi.status).toBe(200);
    expect(fromApi.body.data.find((p: any) => p.code === 'DASH_FLAT')).toMatchObject({ id: created.json.data.id, processingFeeFlatKobo: 150_050 });
    expect(await auditActions(owner.organisationId)).toContain('product_created');
  });

  it('when the input breaks a CLI rule, then 400 invalid_request names the field and nothing is stored', async () => {
    const before = await productCount(owner.organisationId);
    const cases: [unknown, string][] = [
      [productInput({ minAmountKobo: 500, maxAmountKobo: 100 }), 'minAmountKobo'],
      [productInput({ interestRateBps: 12.5 }), 'interestRateBps'],
      [{ ...productInput(), unknownField: 1 }, 'input'],
      [productInput({ settlementCatalogEnabled: true }), 'settlementCatalogEnabled'],
      [productInput({ recoveryEnabled: true }), 'recoveryDefaultAfterDaysOverdue'],
      [productInput({ capitalPoolCode: 'no spaces' }), 'capitalPoolCode'],
    ];
    for (const [body, field] of cases) {
      const answer = await owner.post('/products', body);
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
      if (field !== 'input') expect(answer.json.message).toContain(field);
    }
    const duplicate = await owner.post('/products', productInput({ code: 'DASH_FLAT' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.error).toBe('ALREADY_EXISTS');
    expect(await productCount(owner.organisationId)).toBe(before);
  });

  it('when a product code has a space or another sign, then 400 names the code field with the rule (define and edit, the CLI schema); spaces pasted around it are trimmed', async () => {
    const before = await productCount(owner.organisationId);
    for (const code of ['SALARY 30', 'SALARY/30', 'ÉCOLE', 'X'.repeat(51)]) {
      const answer = await owner.post('/products', productInput({ code }));
      expect(answer.status, code).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_request', data: { field: 'code' } });
      expect(answer.json.message).toBe('code: use letters, digits, _ and - only (no spaces), at most 50, e.g. SALARY_30');
    }
    expect(await productCount(owner.organisationId)).toBe(before);
    const trimmed = await owner.post('/products', productInput({ code: '  SALARY-30_B  ' }));
    expect(trimmed.status).toBe(201);
    expect(trimmed.json.data.code).toBe('SALARY-30_B');
    const edit = await owner.send('PATCH', `/products/${trimmed.json.data.id}`, { code: 'SALARY 30' });
    expect(edit.status).toBe(400);
    expect(edit.json.data).toEqual({ field: 'code' });
    expect((await owner.get(`/products/${trimmed.json.data.id}`)).json.data.code).toBe('SALARY-30_B');
  });

  it('when a product is edited, then the whole product is validated again, unknown fields are refused, and the API shows the change', async () => {
    const created = (await owner.post('/products', productInput({ code: 'DASH_EDIT', interestRateBps: 3600 }))).json.data;
    const refused = await owner.send('PATCH', `/products/${created.id}`, { maxAmountKobo: created.minAmountKobo - 1 });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain('minAmountKobo');
    expect(refused.json.data).toEqual({ field: 'minAmountKobo' });
    expect((await owner.send('PATCH', `/products/${created.id}`, { id: 'x' })).status).toBe(400);
    expect((await owner.get(`/products/${created.id}`)).json.data.maxAmountKobo).toBe(created.maxAmountKobo);

    const edited = await owner.send('PATCH', `/products/${created.id}`, { interestRateBps: 4200, name: 'Renamed' });
    expect(edited.status).toBe(200);
    expect(edited.json.data).toMatchObject({ interestRateBps: 4200, name: 'Renamed', code: 'DASH_EDIT' });
    const api = await partnerApi(owner.organisationId);
    expect((await api.get(`/v1/products/${created.id}`)).body.data).toMatchObject({ interestRateBps: 4200, name: 'Renamed' });
    expect(await auditActions(owner.organisationId)).toContain('product_updated');
  });

  it('when a product is deactivated, then it stays listed as inactive (status filter), the API shows isActive false, and a repeat changes nothing', async () => {
    const created = (await owner.post('/products', productInput({ code: 'DASH_OFF' }))).json.data;
    const off = await owner.post(`/products/${created.id}/deactivate`, {});
    expect(off.status).toBe(200);
    expect(off.json.data.isActive).toBe(false);
    const inactive = await owner.get('/products?status=inactive');
    expect(inactive.json.data.map((p: any) => p.code)).toEqual(['DASH_OFF']);
    expect((await owner.get('/products?status=active')).json.data.map((p: any) => p.code)).not.toContain('DASH_OFF');
    const api = await partnerApi(owner.organisationId);
    expect((await api.get(`/v1/products/${created.id}`)).body.data.isActive).toBe(false);
    const audits = (await auditActions(owner.organisationId)).filter((a) => a === 'product_deactivated').length;
    expect((await owner.post(`/products/${created.id}/deactivate`, {})).status).toBe(200);
    expect((await auditActions(owner.organisationId)).filter((a) => a === 'product_deactivated').length).toBe(audits);
  });

  it('lists page by keyset: limit 2 then the cursor, no row twice; a forged cursor is 400', async () => {
    const first = await owner.get('/products?limit=2');
    expect(first.json.data).toHaveLength(2);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await owner.get(`/products?limit=2&cursor=${first.json.nextCursor}`);
    const ids = [...first.json.data, ...second.json.data].map((p: any) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await owner.get('/products?cursor=nonsense')).status).toBe(400);
  });

  it('another organisation sees none of them and its ids answer 404; analysts and developers read but cannot change', async () => {
    const other = await signedInOwner(app);
    const mine = (await owner.get('/products')).json.data[0];
    expect((await other.get('/products')).json.data).toEqual([]);
    expect((await other.get(`/products/${mine.id}`)).status).toBe(404);
    expect((await other.send('PATCH', `/products/${mine.id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await other.post(`/products/${mine.id}/deactivate`, {})).status).toBe(404);
    expect((await owner.get(`/products/${mine.id}`)).json.data.name).toBe(mine.name);

    for (const role of ['analyst', 'developer'] as const) {
      await setRole(other, role);
      expect((await other.get('/products')).status).toBe(200);
      const create = await other.post('/products', productInput());
      expect(create.status).toBe(403);
      expect(create.json.error).toBe('dashboard_permission_denied');
      expect((await other.send('PATCH', `/products/${mine.id}`, { name: 'x' })).json.error).toBe('dashboard_permission_denied');
      expect((await other.post(`/products/${mine.id}/deactivate`, {})).json.error).toBe('dashboard_permission_denied');
    }
    expect(await productCount(other.organisationId)).toBe(0);
  });

  it('a state change without the CSRF header is 403 csrf_token_invalid and stores nothing; live needs live enabled', async () => {
    const before = await productCount(owner.organisationId);
    const noCsrf = await owner.post('/products', productInput(), { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_token_invalid');
    expect(await productCount(owner.organisationId)).toBe(before);

    const live = await owner.get('/products', { 'x-dashboard-mode': 'live' });
    expect(live.status).toBe(403);
    expect(live.json.error).toBe('LIVE_MODE_NOT_ENABLED');
    // Products belong to the organisation, not a mode: the live API lists the same catalogue once live is on.
    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, app.platform.clock.now());
    const liveList = await owner.get('/products', { 'x-dashboard-mode': 'live' });
    expect(liveList.json.data.length).toBe(before);
    const liveApi = await partnerApi(owner.organisationId, 'live');
    expect((await liveApi.get('/v1/products')).body.data.length).toBe(before);
  });
});
