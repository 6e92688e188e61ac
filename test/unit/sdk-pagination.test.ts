import { afterEach, describe, expect, it } from 'vitest';
import { createLendingClient } from '../../sdk/src/index';
import { json, startLoopbackServer, type LoopbackServer } from '../support/loopback-server';

const KEYS = { publicKey: 'pk_test_pages', secretKey: 'sk_test_pages' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const provider = (n: number) => ({ id: `p${n}`, name: `Provider ${n}` });

/** `/v1/providers` as the platform pages it: `page`/`limit`, `meta.hasNext`, `data.pagination`. */
function providersPage(url: string, total: number) {
  const query = new URL(url, 'http://127.0.0.1').searchParams;
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 20);
  const items = Array.from({ length: total }, (_, i) => provider(i + 1)).slice((page - 1) * limit, page * limit);
  const hasNext = page * limit < total;
  const totalPages = Math.ceil(total / limit);
  return {
    status: 200,
    success: true,
    message: 'Providers retrieved',
    data: { providers: items, pagination: { total, page, limit, totalPages, hasNext } },
    meta: { total, page, limit, hasNext },
  };
}

describe('client pagination', () => {
  it('when a list spans several pages, then the iterator yields every item in order, one request per page', async () => {
    server = await startLoopbackServer((req, res) => json(res, 200, providersPage(req.url, 7)));
    const lending = createLendingClient({ baseUrl: server.url, ...KEYS });

    const names: string[] = [];
    for await (const item of lending.paginate('/v1/providers', { params: { query: { limit: 3, name: 'Provider' } } })) names.push(item.name);

    expect(names).toEqual(['Provider 1', 'Provider 2', 'Provider 3', 'Provider 4', 'Provider 5', 'Provider 6', 'Provider 7']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/providers?limit=3&name=Provider',
      '/v1/providers?limit=3&name=Provider&page=2',
      '/v1/providers?limit=3&name=Provider&page=3',
    ]);
  });

  it('starts at the page asked for, and stops when the caller breaks out', async () => {
    server = await startLoopbackServer((req, res) => json(res, 200, providersPage(req.url, 10)));
    const lending = createLendingClient({ baseUrl: server.url, ...KEYS });

    const ids: string[] = [];
    for await (const item of lending.paginate('/v1/providers', { params: { query: { page: 2, limit: 2 } } })) {
      ids.push(item.id);
      if (ids.length === 3) break;
    }

    expect(ids).toEqual(['p3', 'p4', 'p5']);
    expect(server.requests).toHaveLength(2);
  });

  it('follows page < totalPages on a bare body (telemedicine appointments)', async () => {
    server = await startLoopbackServer((req, res) => {
      const page = Number(new URL(req.url, 'http://127.0.0.1').searchParams.get('page') ?? 1);
      json(res, 200, { success: true, appointments: [{ _id: `a${page}` }], total: 2, page, limit: 1, totalPages: 2 });
    });
    const lending = createLendingClient({ baseUrl: server.url, ...KEYS });

    const ids: string[] = [];
    for await (const appointment of lending.paginate('/api/v1/appointment/organisation', { params: { query: { limit: 1 } } })) ids.push(appointment._id);

    expect(ids).toEqual(['a1', 'a2']);
  });

  it('when the list has no paging (loans: newest first up to limit), then it is one page', async () => {
    server = await startLoopbackServer((_req, res) => json(res, 200, { status: 200, success: true, message: 'Loans retrieved', data: [{ id: 'l1' }, { id: 'l2' }] }));
    const lending = createLendingClient({ baseUrl: server.url, ...KEYS });

    const ids: string[] = [];
    for await (const loan of lending.paginate('/v1/loans', { params: { query: { status: 'awaiting_acceptance' } } })) ids.push(loan.id);

    expect(ids).toEqual(['l1', 'l2']);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/loans?status=awaiting_acceptance']);
  });
});
