import http from 'node:http';
import { close, FaultQueue, listen, readBody, sendJson } from './fault-queue';
import { escapeHtml, fakePage, formOf, redirect, sendHtml } from './fake-pages';

/**
 * A local Dojah (https://docs.dojah.io) on 127.0.0.1, port 0, for the adapters' tests. It implements the
 * documented shapes of the three calls the adapters make, over records the test seeds:
 * - `GET /api/v1/kyc/bvn?bvn&first_name&last_name&dob` (Validate BVN): `{ entity: { bvn: { value, status },
 *   first_name?: { confidence_value, status }, last_name?: …, date_of_birth?: { status } } }`, a verdict only for
 *   the fields sent; unknown BVN → 400 `{ error: "BVN not found" }`; not 11 digits → 400 `{ error: "Invalid BVN" }`.
 * - `GET /api/v1/kyc/nin?nin` (Lookup NIN): the whole record (as Dojah does, so tests can check that none of it
 *   leaks); unknown → 404 `{ error: "NIN not found" }`.
 * - `POST /api/v1/aml/v2/screening` (AML v2): a result per seeded list entry whose name is similar enough to
 *   `properties.names` (the request's `match_threshold`); no `schema`/`properties.names` → 400.
 * Every call needs `AppId` and `Authorization: <secret key>`, else 401 `{ error }`. Unknown routes → 404.
 * The control page GET /_fake (not recorded in `requests`) lists the BVNs and watch-list names and adds either.
 *
 * Name confidence is a Levenshtein similarity (0–100); the fake's own `status` verdict is `confidence >= 80`,
 * deliberately laxer than the adapter's 90 so tests can tell the two apart.
 */
export interface FakeDojahRecord {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dob: string;
}

export interface FakeDojahRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

export interface FakeDojah {
  url: string;
  /** Every request that reached the fake, faults included, in arrival order. */
  requests: FakeDojahRequest[];
  seedBvn(bvn: string, record: FakeDojahRecord): void;
  seedNin(nin: string, record: FakeDojahRecord): void;
  /** A watch-list entry; `sourceType` is Dojah's `source_type` (SANCTION, PEP, …). */
  seedSanction(name: string, sourceType?: string): void;
  /** The next `n` requests answer `status` with Dojah's `{ error }` body (or `body`). */
  failNext(n: number, status?: number, body?: unknown): void;
  /** The next request is answered after `ms` (use more than the client's timeout). */
  delayNext(ms: number): void;
  /** The next request is answered 200 with a body that is not JSON. */
  malformedNext(): void;
  close(): Promise<void>;
}

const NAME_STATUS_THRESHOLD = 80;

export async function startFakeDojah(options: { appId: string; secretKey: string }): Promise<FakeDojah> {
  const bvns = new Map<string, FakeDojahRecord>();
  const nins = new Map<string, FakeDojahRecord>();
  const watchList: Array<{ name: string; sourceType: string; id: string }> = [];
  const requests: FakeDojahRequest[] = [];
  const faults = new FaultQueue();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    if (url.pathname === '/_fake' || url.pathname.startsWith('/_fake/')) return control(req.method ?? 'GET', url.pathname, raw, res);
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: req.headers });
    if (await faults.apply(res)) return;

    if (req.headers.appid !== options.appId || req.headers.authorization !== options.secretKey) {
      return sendJson(res, 401, { error: 'Unauthorized: invalid AppId or secret key' });
    }
    const q = url.searchParams;
    if (req.method === 'GET' && url.pathname === '/api/v1/kyc/bvn') return validateBvn(res, q);
    if (req.method === 'GET' && url.pathname === '/api/v1/kyc/nin') return lookupNin(res, q);
    if (req.method === 'POST' && url.pathname === '/api/v1/aml/v2/screening') return screen(res, body);
    sendJson(res, 404, { error: 'Route not found' });
  });

  function control(method: string, path: string, raw: string, res: http.ServerResponse): void {
    const form = formOf(raw);
    if (method === 'POST' && path === '/_fake/bvn') {
      const bvn = form.get('bvn') ?? '';
      const record = { firstName: (form.get('first_name') ?? '').trim(), lastName: (form.get('last_name') ?? '').trim(), dob: form.get('dob') ?? '' };
      if (/^\d{11}$/.test(bvn) && record.firstName && record.lastName && /^\d{4}-\d{2}-\d{2}$/.test(record.dob)) bvns.set(bvn, record);
      return redirect(res, '/_fake');
    }
    if (method === 'POST' && path === '/_fake/sanction') {
      const name = (form.get('name') ?? '').trim();
      if (name) watchList.push({ name, sourceType: 'SANCTION', id: `WL${watchList.length + 1}` });
      return redirect(res, '/_fake');
    }
    if (method !== 'GET' || path !== '/_fake') return sendHtml(res, 404, fakePage('Not found', ''));
    const records = [...bvns.entries()].map(([bvn, r]) => `<li class="card"><code>${escapeHtml(bvn)}</code> · ${escapeHtml(r.firstName)} ${escapeHtml(r.lastName)} · born ${escapeHtml(r.dob)}</li>`).join('');
    const listed = watchList.map((entry) => `<li class="card">${escapeHtml(entry.name)} · ${escapeHtml(entry.sourceType)}</li>`).join('');
    sendHtml(
      res,
      200,
      fakePage(
        'Dojah (local fake)',
        `<p class="note">Identity (BVN, NIN) and AML screening. A borrower whose name is on the watch list is held for a person's review.</p>
<h2>BVN records</h2><ul>${records || '<li class="card">None yet.</li>'}</ul>
<form method="post" action="/_fake/bvn"><label>BVN<input name="bvn" inputmode="numeric" maxlength="11"></label><label>First name<input name="first_name"></label><label>Last name<input name="last_name"></label><label>Date of birth<input name="dob" type="date"></label><button type="submit">Add this BVN</button></form>
<h2>Watch list</h2><ul>${listed || '<li class="card">Empty: every screen is clear.</li>'}</ul>
<form method="post" action="/_fake/sanction"><label>Name<input name="name"></label><button type="submit">Add to the watch list</button></form>`,
      ),
    );
  }

  function validateBvn(res: http.ServerResponse, q: URLSearchParams): void {
    const bvn = q.get('bvn') ?? '';
    if (!/^\d{11}$/.test(bvn)) return sendJson(res, 400, { error: 'Invalid BVN' });
    const record = bvns.get(bvn);
    if (!record) return sendJson(res, 400, { error: 'BVN not found' });
    const entity: Record<string, unknown> = { bvn: { value: bvn, status: true } };
    const firstName = q.get('first_name');
    const lastName = q.get('last_name');
    const dob = q.get('dob');
    if (firstName !== null) entity.first_name = nameVerdict(firstName, record.firstName);
    if (lastName !== null) entity.last_name = nameVerdict(lastName, record.lastName);
    if (dob !== null) entity.date_of_birth = { status: dob === record.dob };
    sendJson(res, 200, { entity });
  }

  function lookupNin(res: http.ServerResponse, q: URLSearchParams): void {
    const nin = q.get('nin') ?? '';
    const record = nins.get(nin);
    if (!record) return sendJson(res, 404, { error: 'NIN not found' });
    sendJson(res, 200, {
      entity: {
        first_name: record.firstName,
        last_name: record.lastName,
        middle_name: 'FAKEMIDDLE',
        gender: 'F',
        image: '/9j/FAKEPHOTO',
        phone_number: '08031112222',
        date_of_birth: record.dob,
        nin,
      },
    });
  }

  function screen(res: http.ServerResponse, body: unknown): void {
    const request = (body && typeof body === 'object' ? body : {}) as {
      schema?: unknown;
      properties?: { names?: unknown };
      screening_options?: { match_threshold?: unknown };
    };
    const names = request.properties?.names;
    if ((request.schema !== 'individual' && request.schema !== 'organization') || typeof names !== 'string' || names.trim() === '') {
      return sendJson(res, 400, { error: 'schema and properties.names are required' });
    }
    const threshold = typeof request.screening_options?.match_threshold === 'number' ? request.screening_options.match_threshold : 0.85;
    const results = watchList
      .filter((entry) => similarity(entry.name, names) / 100 >= threshold)
      .map((entry) => ({ name: entry.name, source_type: entry.sourceType, source_id: entry.id, titles: [], countries: ['NG'] }));
    sendJson(res, 200, {
      entity: {
        entity_type: request.schema,
        entity_id: `fake-${requests.length}`,
        date: new Date().toISOString(),
        total_results: results.length,
        search_query: names,
        risk_level: results.length > 0 ? 'High' : 'Low',
        match_status: results.length > 0 ? 'Potential Match' : 'No Match',
        results,
      },
    });
  }

  const url = await listen(server);
  return {
    url,
    requests,
    seedBvn: (bvn, record) => void bvns.set(bvn, record),
    seedNin: (nin, record) => void nins.set(nin, record),
    seedSanction: (name, sourceType = 'SANCTION') => void watchList.push({ name, sourceType, id: `WL${watchList.length + 1}` }),
    failNext: (n, status = 500, body) => faults.failNext(n, status, body ?? { error: status >= 500 ? 'Internal server error' : `Error ${status}` }),
    delayNext: (ms) => faults.delayNext(ms),
    malformedNext: () => faults.malformedNext(),
    close: () => close(server, faults),
  };
}

function nameVerdict(sent: string, recorded: string): { confidence_value: number; status: boolean } {
  const confidence = similarity(sent, recorded);
  return { confidence_value: confidence, status: confidence >= NAME_STATUS_THRESHOLD };
}

/** 0–100: 100 minus the Levenshtein distance as a share of the longer name (case and outer spaces ignored). */
function similarity(a: string, b: string): number {
  const x = a.trim().toUpperCase();
  const y = b.trim().toUpperCase();
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 100;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return Math.round(100 * (1 - previous[y.length]! / longest));
}
