import crypto from 'node:crypto';
import http from 'node:http';
import { NIGERIAN_BANKS } from '../../../server/integrations/banks';
import { MONO_WEBHOOK_SECRET_HEADER } from '../../../server/integrations/mono/mono-webhook';
import { button, escapeHtml, fakePage, formOf, naira } from './fake-pages';
import { listen } from './fault-queue';

/**
 * A local Mono for tests: the Lookup credit-history endpoint and the Direct Debit endpoints the Mono adapters use,
 * with in-memory state, Mono's `{ status, message, data }` envelope and refusals, the `mono-sec-key` check, fault
 * injection, webhooks carrying the `mono-webhook-secret` header, and the hosted authorisation page `mono_url` points
 * to (drivable by plain fetch: GET the page, POST the Approve or Decline form, follow the 303 to `redirect_url`).
 *
 * Endpoints: POST /v3/lookup/credit-history/:provider; POST /v2/payments/initiate; GET /v3/payments/mandates?reference;
 * GET /v3/payments/mandates/:id; PATCH /v3/payments/mandates/:id/cancel; GET /v3/payments/mandates/:id/balance-inquiry;
 * POST /v3/payments/mandates/:id/debit; GET /v3/payments/mandates/:id/debits/:reference.
 * Pages: GET /authorise/:code, POST /authorise/:code/approve, POST /authorise/:code/decline; the control page GET /_fake
 * (a BVN's bureau report good, bad or absent; mandates with their balance; debits: fail the next one).
 *
 * Assumptions where the docs are silent (kept in one place so they are easy to revisit):
 * - the credit-history answer's facilities follow `server/integrations/mono/mono-credit-bureau.ts`; a BVN with no
 *   seeded history answers 404 "No credit record found for this BVN";
 * - the mandate list filters by our `reference` (`GET /v3/payments/mandates?reference=…` → `data: [mandate]`), which is
 *   how a mandate is found before its `mmc_` id is known; the mandate exists from the borrower's approval on;
 * - a mandate is `approved` (chargeable only once `ready_to_debit`), `rejected` or `cancelled`; approving sends
 *   `events.mandates.approved` and, once ready, `events.mandates.ready`;
 * - a debit answers `processing`; it settles (successful, or failed when the balance is short) when `settleDebit` is
 *   called or at once with `autoSettleDebits`, sending `events.mandates.debit.successful` / `.failed` with the mandate
 *   id and our reference; a reference used before is refused 400 "Duplicate reference";
 * - a debit is read back at `/v3/payments/mandates/:id/debits/:reference` (404 "Debit not found" when absent).
 * Listens on 127.0.0.1 only and posts webhooks only to a loopback URL.
 */

export interface FakeMonoOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where webhooks go (loopback only); may be set after start. */
  webhookUrl?: string;
  /** Approving on the page makes the mandate ready to debit at once (default), or only approved (then `makeReady`). */
  readyOnApprove?: boolean;
  /** Debits settle right after they are taken. */
  autoSettleDebits?: boolean;
  /** The balance of every new mandate's account, in kobo (default ₦10,000,000). */
  defaultBalanceKobo?: number;
}

export interface FakeMonoMandate {
  id: string | null;
  reference: string;
  authoriseCode: string;
  amount: number;
  customer: unknown;
  redirectUrl: string | null;
  accountNumber: string;
  bankCode: string;
  status: 'initiated' | 'approved' | 'rejected' | 'cancelled';
  readyToDebit: boolean;
  balanceKobo: number;
}

export interface FakeMonoDebit {
  mandateId: string;
  reference: string;
  amount: number;
  status: 'processing' | 'successful' | 'failed';
  message: string;
}

export interface FakeMonoState {
  mandates: Map<string, FakeMonoMandate>;
  debits: Map<string, FakeMonoDebit>;
  reports: Map<string, unknown>;
  /** Every API request that reached the fake (pages excluded), in order; the BVN is masked. */
  requests: { method: string; path: string; query: Record<string, string>; body: unknown }[];
  webhooks: { event: string; status: number | null }[];
}

export interface FakeMono {
  url: string;
  options: FakeMonoOptions;
  state: FakeMonoState;
  close(): Promise<void>;
  /** The credit history Mono answers for a BVN (`data` of the lookup, without `providers`). */
  seedCreditHistory(bvn: string, data: { credit_history: unknown[]; enquiries?: unknown[] }): void;
  /** The next `n` API requests (whose path matches `path`, when given) answer `status` (500 by default) without doing anything. */
  failNext(n: number, status?: number, path?: RegExp): void;
  /** The next API request (matching `path`) is carried out, then answered after `ms` (longer than the client's timeout: an unknown outcome). */
  delayNext(ms: number, path?: RegExp): void;
  malformedNext(): void;
  mandateByReference(reference: string): FakeMonoMandate;
  makeReady(reference: string): Promise<void>;
  setBalance(reference: string, kobo: number): void;
  settleDebit(reference: string): Promise<void>;
  sendWebhook(event: string, data: unknown, options?: { secret?: string | null }): Promise<number | null>;
  /** The next `n` debits settle as failed ("Debit failed"), whatever the balance. */
  failNextDebits(n: number): void;
}

const month = (now: Date, monthsAgo: number) => {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
  return `${String(at.getUTCMonth() + 1).padStart(2, '0')}-${at.getUTCFullYear()}`;
};
const isoMonthsAgo = (now: Date, monthsAgo: number) => new Date(now.getTime() - monthsAgo * 30 * 86_400_000).toISOString();
const schedule = (now: Date, statuses: string[]) => statuses.map((status, i) => ({ [month(now, statuses.length - i)]: status }));

/** A good file: a loan repaid on time and one open, current facility. */
export function goodCreditHistory(now = new Date()): { credit_history: unknown[]; enquiries: unknown[] } {
  return {
    credit_history: [
      {
        institution: 'FAIRMONEY MICROFINANCE BANK',
        history: [{ date_opened: isoMonthsAgo(now, 20), opening_balance: 30_000_000, loan_balance: 0, currency: 'NGN', performance_status: 'performing', loan_status: 'closed', closed_date: isoMonthsAgo(now, 8), tenor: 12, repayment_schedule: schedule(now, Array(12).fill('paid')) }],
      },
      {
        institution: 'ACCESS BANK PLC',
        history: [{ date_opened: isoMonthsAgo(now, 5), opening_balance: 12_000_000, loan_balance: 4_000_000, currency: 'NGN', performance_status: 'performing', loan_status: 'open', closed_date: null, tenor: 6, repayment_schedule: schedule(now, ['paid', 'paid', 'paid', 'paid']) }],
      },
    ],
    enquiries: [{ date: isoMonthsAgo(now, 2) }],
  };
}

/** A bad file: three months missed in a row on an open loan in the last year. */
export function badCreditHistory(now = new Date()): { credit_history: unknown[]; enquiries: unknown[] } {
  return {
    credit_history: [
      {
        institution: 'QUICKCASH MFB',
        history: [{ date_opened: isoMonthsAgo(now, 10), opening_balance: 20_000_000, loan_balance: 18_000_000, currency: 'NGN', performance_status: 'substandard', loan_status: 'open', closed_date: null, tenor: 12, repayment_schedule: schedule(now, ['paid', 'not-paid', 'not-paid', 'not-paid', 'paid']) }],
      },
    ],
    enquiries: [],
  };
}

type Fault = ({ kind: 'fail'; status: number } | { kind: 'delay'; ms: number } | { kind: 'malformed' }) & { path?: RegExp };
type Answer = { status: number; body: unknown } | { status: number; html: string } | { status: 303; location: string };

const random = (n: number) => crypto.randomBytes(n).toString('hex').slice(0, n * 2);
const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
const bankName = (code: string) => NIGERIAN_BANKS.find((bank) => bank.code === code)?.name ?? 'TEST BANK';

export async function startFakeMono(options: FakeMonoOptions): Promise<FakeMono> {
  const state: FakeMonoState = { mandates: new Map(), debits: new Map(), reports: new Map(), requests: [], webhooks: [] };
  const faults: Fault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let debitsToFail = 0;
  let url = '';

  const ok = (message: string, data: unknown): Answer => ({ status: 200, body: { status: 'successful', message, timestamp: new Date().toISOString(), data } });
  const refuse = (status: number, message: string): Answer => ({ status, body: { status: 'failed', message, timestamp: new Date().toISOString(), data: null } });

  const sendWebhook = async (event: string, data: unknown, sendOptions: { secret?: string | null } = {}): Promise<number | null> => {
    if (!options.webhookUrl) return null;
    if (!isLoopback(options.webhookUrl)) throw new Error('the fake Mono posts webhooks to loopback URLs only');
    const secret = sendOptions.secret === undefined ? options.webhookSecret : sendOptions.secret;
    let status: number | null = null;
    try {
      const res = await fetch(options.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [MONO_WEBHOOK_SECRET_HEADER]: secret }) },
        body: JSON.stringify({ event, data }),
        redirect: 'error',
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = null;
    }
    state.webhooks.push({ event, status });
    return status;
  };

  const mandateData = (m: FakeMonoMandate) => ({
    id: m.id,
    status: m.status,
    mandate_type: 'emandate',
    debit_type: 'variable',
    ready_to_debit: m.readyToDebit,
    approved: m.status === 'approved',
    reference: m.reference,
    account_name: 'TEST HOLDER',
    account_number: m.accountNumber,
    bank: bankName(m.bankCode),
    bank_code: m.bankCode,
    customer: typeof m.customer === 'object' && m.customer && 'id' in m.customer ? (m.customer as { id: string }).id : 'cus_fake',
    amount: m.amount,
    live_mode: false,
  });
  const debitData = (d: FakeMonoDebit) => ({ status: d.status, message: d.message, amount: d.amount, reference_number: d.reference, mandate: d.mandateId, date: new Date().toISOString() });

  const byReference = (reference: string) => {
    const mandate = state.mandates.get(reference);
    if (!mandate) throw new Error(`fake Mono: no mandate ${reference}`);
    return mandate;
  };
  const byId = (id: string) => [...state.mandates.values()].find((m) => m.id === id);

  const makeReady = async (mandate: FakeMonoMandate) => {
    if (mandate.status !== 'approved' || mandate.readyToDebit) return;
    mandate.readyToDebit = true;
    await sendWebhook('events.mandates.ready', mandateData(mandate));
  };
  const approve = async (mandate: FakeMonoMandate) => {
    if (mandate.status !== 'initiated') return;
    mandate.id = `mmc_${random(12)}`;
    mandate.status = 'approved';
    await sendWebhook('events.mandates.approved', mandateData(mandate));
    if (options.readyOnApprove !== false) await makeReady(mandate);
  };
  const settle = async (debit: FakeMonoDebit) => {
    if (debit.status !== 'processing') return;
    const mandate = byId(debit.mandateId)!;
    if (debitsToFail > 0) {
      debitsToFail -= 1;
      debit.status = 'failed';
      debit.message = 'Debit failed';
      await sendWebhook('events.mandates.debit.failed', debitData(debit));
    } else if (mandate.balanceKobo >= debit.amount) {
      mandate.balanceKobo -= debit.amount;
      debit.status = 'successful';
      debit.message = 'Account debited successfully';
      await sendWebhook('events.mandates.debit.successful', debitData(debit));
    } else {
      debit.status = 'failed';
      debit.message = 'Insufficient funds';
      await sendWebhook('events.mandates.debit.failed', debitData(debit));
    }
  };

  const api = async (method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): Promise<Answer> => {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && (match = path.match(/^\/v3\/lookup\/credit-history\/([^/]+)$/))) {
      const provider = match[1]!;
      if (!['crc', 'xds', 'all'].includes(provider)) return refuse(400, 'Invalid provider: use crc, xds or all');
      if (typeof body.bvn !== 'string' || !/^\d{11}$/.test(body.bvn)) return refuse(400, 'bvn must be 11 digits');
      const report = state.reports.get(body.bvn);
      if (!report) return refuse(404, 'No credit record found for this BVN');
      return ok('Report Fetched Successfully', { providers: provider === 'all' ? ['crc', 'xds'] : [provider], profile: { full_name: 'TEST PERSON', dob: '01-04-1990' }, ...(report as object) });
    }
    if (method === 'POST' && path === '/v2/payments/initiate') {
      if (body.type !== 'recurring-debit' || body.method !== 'mandate') return refuse(400, 'type must be recurring-debit and method mandate');
      if (!Number.isSafeInteger(body.amount) || (body.amount as number) <= 0) return refuse(400, 'amount must be a positive integer (kobo)');
      if (typeof body.reference !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(body.reference)) return refuse(400, 'reference must be letters, digits, - or _');
      if (state.mandates.has(body.reference)) return refuse(400, 'Duplicate reference');
      if (typeof body.start_date !== 'string' || typeof body.end_date !== 'string') return refuse(400, 'start_date and end_date are required');
      if (!body.customer || typeof body.customer !== 'object') return refuse(400, 'customer is required');
      const mandate: FakeMonoMandate = {
        id: null,
        reference: body.reference,
        authoriseCode: random(10),
        amount: body.amount as number,
        customer: body.customer,
        redirectUrl: typeof body.redirect_url === 'string' ? body.redirect_url : null,
        accountNumber: typeof body.account_number === 'string' ? body.account_number : '0123456789',
        bankCode: typeof body.bank_code === 'string' ? body.bank_code : '058',
        status: 'initiated',
        readyToDebit: false,
        balanceKobo: options.defaultBalanceKobo ?? 1_000_000_000,
      };
      state.mandates.set(mandate.reference, mandate);
      return ok('Payment Initiated Successfully', {
        mono_url: `${url}/authorise/${mandate.authoriseCode}`,
        type: 'recurring-debit',
        method: 'mandate',
        mandate_type: body.mandate_type ?? 'emandate',
        amount: mandate.amount,
        description: body.description ?? null,
        reference: mandate.reference,
        customer: body.customer,
        redirect_url: mandate.redirectUrl,
        start_date: body.start_date,
        end_date: body.end_date,
        created_at: new Date().toISOString(),
      });
    }
    if (method === 'GET' && path === '/v3/payments/mandates') {
      const reference = query.get('reference');
      const list = [...state.mandates.values()].filter((m) => m.id !== null && (!reference || m.reference === reference));
      return ok('Mandates retrieved successfully', list.map(mandateData));
    }
    if ((match = path.match(/^\/v3\/payments\/mandates\/(mmc_[a-z0-9]+)(\/.*)?$/))) {
      const mandate = byId(match[1]!);
      if (!mandate) return refuse(404, 'Mandate not found');
      const rest = match[2] ?? '';
      let debitMatch: RegExpMatchArray | null;
      if (method === 'GET' && rest === '') return ok('Mandate retrieved successfully', mandateData(mandate));
      if (method === 'PATCH' && rest === '/cancel') {
        if (mandate.status !== 'cancelled') {
          mandate.status = 'cancelled';
          mandate.readyToDebit = false;
          void sendWebhook('events.mandates.cancelled', mandateData(mandate));
        }
        return ok('Mandate cancelled successfully', mandateData(mandate));
      }
      if (method === 'GET' && rest === '/balance-inquiry') {
        if (mandate.status !== 'approved' || !mandate.readyToDebit) return refuse(400, 'Mandate is not ready for balance inquiry');
        const account = { bank_code: mandate.bankCode, account_name: 'TEST HOLDER', account_number: mandate.accountNumber, bank_name: bankName(mandate.bankCode) };
        const amount = query.get('amount');
        if (amount === null) return ok('Successfully enquired balance.', { id: mandate.id, balance: mandate.balanceKobo, account_details: account });
        if (!/^\d+$/.test(amount)) return refuse(400, 'amount must be whole kobo');
        return ok('Successfully enquired balance.', { id: mandate.id, has_sufficient_balance: mandate.balanceKobo >= Number(amount), account_details: account });
      }
      if (method === 'POST' && rest === '/debit') {
        if (!Number.isSafeInteger(body.amount) || (body.amount as number) <= 0) return refuse(400, 'amount must be a positive integer (kobo)');
        if (typeof body.reference !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(body.reference)) return refuse(400, 'reference must be letters, digits, - or _');
        if (typeof body.narration !== 'string' || body.narration === '') return refuse(400, 'narration is required');
        if (state.debits.has(body.reference)) return refuse(400, 'Duplicate reference');
        if (mandate.status !== 'approved' || !mandate.readyToDebit) return refuse(400, 'Mandate is not ready to debit');
        const debit: FakeMonoDebit = { mandateId: mandate.id!, reference: body.reference, amount: body.amount as number, status: 'processing', message: 'Debit is processing' };
        state.debits.set(debit.reference, debit);
        if (options.autoSettleDebits) setImmediate(() => void settle(debit));
        return ok('Debit request received', { success: true, ...debitData(debit) });
      }
      if (method === 'GET' && (debitMatch = rest.match(/^\/debits\/([^/]+)$/))) {
        const debit = state.debits.get(decodeURIComponent(debitMatch[1]!));
        if (!debit || debit.mandateId !== mandate.id) return refuse(404, 'Debit not found');
        return ok('Debit retrieved successfully', debitData(debit));
      }
    }
    return refuse(404, 'The requested resource was not found');
  };

  const page = async (method: string, path: string): Promise<Answer | null> => {
    const match = path.match(/^\/authorise\/([^/]+)(?:\/(approve|decline))?$/);
    if (!match) return null;
    const mandate = [...state.mandates.values()].find((m) => m.authoriseCode === match[1]);
    if (!mandate) return { status: 404, html: '<!doctype html><title>Not found</title><p>This authorisation link is not valid.</p>' };
    if (method === 'GET' && !match[2]) {
      return {
        status: 200,
        html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Authorise direct debit</title></head><body><main>
<h1>Authorise direct debit</h1><p>Allow this business to debit ${bankName(mandate.bankCode)} ••••${mandate.accountNumber.slice(-4)}.</p><p>Status: <span id="status">${mandate.status}</span></p>
<form method="post" action="/authorise/${mandate.authoriseCode}/approve"><button type="submit" name="decision" value="approve">Approve</button></form>
<form method="post" action="/authorise/${mandate.authoriseCode}/decline"><button type="submit" name="decision" value="decline">Decline</button></form>
</main></body></html>`,
      };
    }
    if (method === 'POST' && match[2]) {
      if (match[2] === 'approve') await approve(mandate);
      else if (mandate.status === 'initiated') {
        mandate.status = 'rejected';
        mandate.id = `mmc_${random(12)}`;
        await sendWebhook('events.mandates.rejected', mandateData(mandate));
      }
      if (!mandate.redirectUrl) return { status: 200, html: '<!doctype html><title>Done</title><p>You can close this page.</p>' };
      const location = new URL(mandate.redirectUrl);
      location.searchParams.set('reference', mandate.reference);
      location.searchParams.set('status', mandate.status);
      return { status: 303, location: location.toString() };
    }
    return { status: 405, html: '<!doctype html><title>Method not allowed</title>' };
  };

  /** The control page a person drives the fake with (`/_fake`); null for any other path. */
  const control = async (method: string, path: string, raw: string): Promise<Answer | null> => {
    if (path !== '/_fake' && !path.startsWith('/_fake/')) return null;
    const back: Answer = { status: 303, location: '/_fake' };
    const form = formOf(raw);
    if (method === 'GET' && path === '/_fake') return { status: 200, html: controlPage() };
    if (method !== 'POST') return { status: 405, html: fakePage('Method not allowed', '') };
    if (path === '/_fake/bureau') {
      const bvn = form.get('bvn') ?? '';
      const report = form.get('report');
      if (/^\d{11}$/.test(bvn)) {
        if (report === 'good') state.reports.set(bvn, goodCreditHistory());
        else if (report === 'bad') state.reports.set(bvn, badCreditHistory());
        else if (report === 'none') state.reports.delete(bvn);
      }
      return back;
    }
    if (path === '/_fake/fail-next-debit') {
      debitsToFail += 1;
      return back;
    }
    const balance = path.match(/^\/_fake\/mandates\/([^/]+)\/balance$/);
    if (balance) {
      const mandate = state.mandates.get(decodeURIComponent(balance[1]!));
      const amount = form.get('naira') ?? '';
      if (mandate && /^\d{1,12}(\.\d{1,2})?$/.test(amount)) {
        const [whole, part = ''] = amount.split('.');
        mandate.balanceKobo = Number(whole) * 100 + Number(part.padEnd(2, '0'));
      }
      return back;
    }
    return { status: 404, html: fakePage('Not found', '') };
  };

  const controlPage = () => {
    const reports = [...state.reports.entries()].map(([bvn, report]) => {
      const bad = JSON.stringify(report).includes('not-paid');
      return `<li class="card"><code>${escapeHtml(bvn)}</code> · ${bad ? 'bad report (missed payments)' : 'good report'}</li>`;
    }).join('');
    const mandates = [...state.mandates.values()].reverse().map((m) => `<li class="card"><code>${escapeHtml(m.reference)}</code> · <strong>${m.status}${m.readyToDebit ? ', ready to debit' : ''}</strong> · balance ${naira(m.balanceKobo)}${
      m.status === 'initiated' ? ` · <a href="/authorise/${m.authoriseCode}">open its authorisation page (approve or decline)</a>` : ''
    }<form method="post" action="/_fake/mandates/${encodeURIComponent(m.reference)}/balance"><label>Balance in naira<input name="naira" inputmode="decimal" value="${(m.balanceKobo / 100).toFixed(2)}"></label><button type="submit">Set balance</button></form></li>`).join('');
    const debits = [...state.debits.values()].reverse().map((d) => `<li class="card"><code>${escapeHtml(d.reference)}</code> · ${naira(d.amount)} · <strong>${d.status}</strong> · ${escapeHtml(d.message)}</li>`).join('');
    return fakePage(
      'Mono (local fake)',
      `<p class="note">The credit bureau (Lookup credit history) and direct debit (rail_b).${debitsToFail ? ` The next ${debitsToFail} debit(s) will fail.` : ''}</p>
<h2>Credit bureau</h2><p class="note">A BVN with no report is a thin file (no record at the bureaus).</p>
<form method="post" action="/_fake/bureau"><label>BVN<input name="bvn" inputmode="numeric" maxlength="11"></label><button type="submit" name="report" value="good">Good report</button><button type="submit" name="report" value="bad" class="secondary">Bad report</button><button type="submit" name="report" value="none" class="secondary">No record</button></form>
<ul>${reports}</ul>
<h2>Debits</h2>${button('/_fake/fail-next-debit', 'Fail the next debit')}<ul>${debits || '<li class="card">No debit yet.</li>'}</ul>
<h2>Mandates</h2><ul>${mandates || '<li class="card">No mandate yet.</li>'}</ul>`,
    );
  };

  const write = (res: http.ServerResponse, answer: Answer) => {
    if ('location' in answer) res.writeHead(303, { location: answer.location, 'content-length': '0' }).end();
    else if ('html' in answer) res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
    else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const target = new URL(req.url ?? '/', 'http://127.0.0.1');
        const method = req.method ?? 'GET';
        const raw = Buffer.concat(chunks).toString('utf8');
        const pageAnswer = (await control(method, target.pathname, raw)) ?? (await page(method, target.pathname));
        if (pageAnswer) return write(res, pageAnswer);
        let body: Record<string, unknown> = {};
        if (raw !== '') {
          try {
            body = JSON.parse(raw) as Record<string, unknown>;
          } catch {
            return write(res, refuse(400, 'Invalid JSON body'));
          }
        }
        state.requests.push({ method, path: target.pathname, query: Object.fromEntries(target.searchParams), body: typeof body.bvn === 'string' ? { ...body, bvn: '***********' } : body });
        const at = faults.findIndex((f) => !f.path || f.path.test(target.pathname));
        const fault = at >= 0 ? faults.splice(at, 1)[0] : undefined;
        if (fault?.kind === 'fail') return write(res, refuse(fault.status, fault.status >= 500 ? 'Internal server error' : 'Injected fault'));
        if (fault?.kind === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": "successful", "data": ');
        const key = req.headers['mono-sec-key'];
        if (!key) return write(res, refuse(401, 'No mono-sec-key header was found'));
        if (key !== options.secretKey) return write(res, refuse(401, 'Invalid secret key'));
        const answer = await api(method, target.pathname, target.searchParams, body);
        if (fault?.kind === 'delay') {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) write(res, answer);
          }, fault.ms);
          timers.add(timer);
          return;
        }
        write(res, answer);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      });
    });
  });

  url = await listen(server);

  return {
    url,
    options,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    seedCreditHistory: (bvn, data) => void state.reports.set(bvn, data),
    failNext: (n, status = 500, path) => {
      for (let i = 0; i < n; i++) faults.push({ kind: 'fail', status, path });
    },
    delayNext: (ms, path) => void faults.push({ kind: 'delay', ms, path }),
    malformedNext: () => void faults.push({ kind: 'malformed' }),
    mandateByReference: byReference,
    makeReady: (reference) => makeReady(byReference(reference)),
    setBalance: (reference, kobo) => void (byReference(reference).balanceKobo = kobo),
    settleDebit: async (reference) => {
      const debit = state.debits.get(reference);
      if (!debit) throw new Error(`fake Mono: no debit ${reference}`);
      await settle(debit);
    },
    sendWebhook,
    failNextDebits: (n) => {
      debitsToFail += n;
    },
  };
}
