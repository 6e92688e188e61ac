import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../server/platform/domain/providers/provider';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';

let app: TestApp;
let tenant: Tenant;

const directory = [
  { code: 'L1', name: 'Alpha Labs', providerType: 'laboratory', state: 'Lagos', city: 'Ikeja', localGovernment: 'Ikeja' },
  { code: 'P1', name: 'Beta Pharmacy', providerType: 'pharmacy', state: 'FCT', city: 'Abuja', localGovernment: 'Wuse' },
  { code: 'LP1', name: 'Gamma Lab & Pharmacy', providerType: 'laboratory_pharmacy', state: 'Kano', city: 'Kano', address: '1 Lagos Street' },
  { code: 'L2', name: 'Delta 100% Labs', providerType: 'laboratory', state: 'Oyo', city: 'Ibadan' },
  { code: 'X1', name: 'Closed Labs', providerType: 'laboratory', state: 'Lagos', isActive: false },
] as const;

beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
  let t = Date.parse('2026-01-01T00:00:00Z');
  for (const p of directory) {
    await createProvider(app.platform.db, p, new Date((t += 60_000)));
  }
});
afterAll(() => app.stop());

const codes = (res: { body: { data: { providers: Array<{ code: string }> } } }) => res.body.data.providers.map((p) => p.code);

describe('GET /v1/providers', () => {
  it('lists active providers only, sorted by name by default, with pagination in data and meta', async () => {
    const res = await client(app, tenant.test).get('/v1/providers');
    expect(res.status).toBe(200);
    expect(codes(res)).toEqual(['L1', 'P1', 'L2', 'LP1']);
    expect(res.body.data.pagination).toEqual({ total: 4, page: 1, limit: 20, totalPages: 1, hasNext: false });
    expect(res.body.meta).toEqual({ total: 4, page: 1, limit: 20, hasNext: false });
  });

  it('returns the same rows to every partner', async () => {
    const other = await createTenant(app);
    const a = await client(app, tenant.test).get('/v1/providers');
    const b = await client(app, other.live).get('/v1/providers');
    expect(b.body.data).toEqual(a.body.data);
  });

  it('narrows with receiveTest=true to providers that receive tests, and ignores false', async () => {
    const api = client(app, tenant.test);
    expect(codes(await api.get('/v1/providers?receiveTest=true'))).toEqual(['L1', 'L2', 'LP1']);
    expect(codes(await api.get('/v1/providers?receiveTest=false'))).toHaveLength(4);
  });

  it('narrows with receiveDrug=true to providers that receive drugs', async () => {
    expect(codes(await client(app, tenant.test).get('/v1/providers?receiveDrug=true'))).toEqual(['P1', 'LP1']);
  });

  it('matches part of the name, case-insensitively, treating % and _ literally', async () => {
    const api = client(app, tenant.test);
    expect(codes(await api.get('/v1/providers?name=LAB'))).toEqual(['L1', 'L2', 'LP1']);
    expect(codes(await api.get(`/v1/providers?name=${encodeURIComponent('100%')}`))).toEqual(['L2']);
    expect(codes(await api.get(`/v1/providers?name=${encodeURIComponent('%')}`))).toEqual(['L2']);
  });

  it('matches location against state, LGA, city or address', async () => {
    const api = client(app, tenant.test);
    expect(codes(await api.get('/v1/providers?location=lagos'))).toEqual(['L1', 'LP1']);
    expect(codes(await api.get('/v1/providers?location=wuse'))).toEqual(['P1']);
    expect(codes(await api.get('/v1/providers?location=ibadan'))).toEqual(['L2']);
  });

  it('sorts by code, created_at and updated_at in both orders', async () => {
    const api = client(app, tenant.test);
    expect(codes(await api.get('/v1/providers?sort_by=code'))).toEqual(['L1', 'L2', 'LP1', 'P1']);
    expect(codes(await api.get('/v1/providers?sort_by=code&sort_order=desc'))).toEqual(['P1', 'LP1', 'L2', 'L1']);
    expect(codes(await api.get('/v1/providers?sort_by=created_at'))).toEqual(['L1', 'P1', 'LP1', 'L2']);
    expect(codes(await api.get('/v1/providers?sort_by=updated_at&sort_order=desc'))).toEqual(['L2', 'LP1', 'P1', 'L1']);
  });

  it('pages with page and limit and says whether there is a next page', async () => {
    const api = client(app, tenant.test);
    const first = await api.get('/v1/providers?sort_by=code&limit=3');
    const second = await api.get('/v1/providers?sort_by=code&limit=3&page=2');
    expect(codes(first)).toEqual(['L1', 'L2', 'LP1']);
    expect(first.body.meta).toEqual({ total: 4, page: 1, limit: 3, hasNext: true });
    expect(codes(second)).toEqual(['P1']);
    expect(second.body.data.pagination).toMatchObject({ page: 2, hasNext: false, totalPages: 2 });
  });

  it.each([
    ['limit above the ceiling', 'limit=101'],
    ['limit zero', 'limit=0'],
    ['page zero', 'page=0'],
    ['an unknown sort column', 'sort_by=secret'],
    ['an unknown sort order', 'sort_order=up'],
    ['a non-boolean flag', 'receiveTest=yes'],
    ['a repeated parameter', 'limit=1&limit=2'],
  ])('when the query has %s, then 400 invalid_request', async (_name, query) => {
    const res = await client(app, tenant.test).get(`/v1/providers?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});
