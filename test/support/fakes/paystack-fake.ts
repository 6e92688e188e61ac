import crypto from 'node:crypto';
import http from 'node:http';
import { NIGERIAN_BANKS } from '../../../server/integrations/banks';
import { PAYSTACK_SIGNATURE_HEADER, signPaystackPayload } from '../../../server/integrations/paystack/paystack-webhook';
import { button, escapeHtml, fakePage, formOf, naira } from './fake-pages';
import { listen } from './fault-queue';

/**
 * A local Paystack for tests: the endpoints the Paystack adapters use, with in-memory state, the
 * documented envelopes and refusals, the bearer-key check, fault injection, and the hosted
 * authorisation page the `redirect_url` points to (drivable by plain fetch: GET the page, POST the
 * Approve or Decline form, follow the 303 to the callback URL).
 *
 * Endpoints: POST /customer/authorization/initialize, GET /customer/authorization/verify/:reference,
 * POST /customer/authorization/deactivate, POST /transaction/charge_authorization,
 * GET /transaction/verify/:reference, GET /bank/resolve; pages GET /authorize/:code,
 * POST /authorize/:code/approve, POST /authorize/:code/decline; the control page GET /_fake (mandates with their
 * authorisation pages, charges: settle as paid or failed, fail the next charge, name an account).
 *
 * Assumptions where the docs are silent (kept in one place so they are easy to revisit):
 * - verify-authorisation answers carry `status` (`pending | active | revoked | declined`) beside the
 *   documented `active` flag, as the mandate list does;
 * - "not found" answers are 400 with Paystack's documented messages and no `code`;
 * - an unresolvable account is a 422 "Could not resolve account name. Check parameters or try again.",
 *   a bank code Paystack does not know a 400 "Unknown bank code: X";
 * - failed debits send no webhook (Paystack's event list has none); successful ones send `charge.success`.
 * Listens on 127.0.0.1 only and posts webhooks only to a loopback URL.
 */

export interface FakePaystackOptions {
  secretKey: string;
  /** Where signed webhooks go (loopback only). */
  webhookUrl?: string;
  /** Charges settle as success right after they are attempted, and `charge.success` is sent. */
  autoSettleCharges?: boolean;
  /** Approving on the page makes the mandate active at once (default), or only created (then `activateAuthorisation`). */
  activateOnApprove?: boolean;
  /** `${bankCode}:${accountNumber}` → account name; other valid numbers get a made-up name, serial 999999999 never resolves. */
  accounts?: Record<string, string>;
}

export type FakeMandateStatus = 'pending' | 'created' | 'active' | 'declined' | 'revoked';

export interface FakeAuthorisation {
  reference: string;
  accessCode: string;
  email: string;
  callbackUrl: string | null;
  account: { number: string; bank_code: string } | null;
  status: FakeMandateStatus;
  authorizationCode: string | null;
  customerCode: string;
}

export interface FakeTransaction {
  id: number;
  reference: string;
  amount: number;
  email: string;
  authorizationCode: string;
  status: 'processing' | 'ongoing' | 'queued' | 'pending' | 'success' | 'failed' | 'abandoned' | 'reversed';
  gatewayResponse: string;
  createdAt: string;
  paidAt: string | null;
}

export interface FakePaystackState {
  authorisations: Map<string, FakeAuthorisation>;
  transactions: Map<string, FakeTransaction>;
  /** Every API request that reached the fake (pages excluded), in order. */
  requests: { method: string; path: string; query: Record<string, string>; body: unknown }[];
  /** Every webhook sent, with the status the receiver answered (null: unreachable). */
  webhooks: { event: string; status: number | null }[];
}

export interface FakePaystack {
  url: string;
  state: FakePaystackState;
  close(): Promise<void>;
  /** The next `n` API requests answer `status` (500 by default) without doing anything. */
  failNext(n: number, status?: number): void;
  /** The next API request is carried out, then answered after `ms` (longer than the client's timeout: an unknown outcome). */
  delayNext(ms: number): void;
  /** The next API request answers 200 with a body that is not JSON, without doing anything. */
  malformedNext(): void;
  /** The hosted page of an authorisation (what `redirect_url` answered). */
  authorisationUrl(reference: string): string;
  approveAuthorisation(reference: string): Promise<void>;
  refuseAuthorisation(reference: string): Promise<void>;
  /** For `activateOnApprove: false`: the bank confirms a created mandate. */
  activateAuthorisation(reference: string): Promise<void>;
  settleCharge(reference: string, outcome: 'success' | 'failed'): Promise<void>;
  sendWebhook(event: string, data: unknown, options?: { badSignature?: boolean }): Promise<number | null>;
  /** The next `n` charges that settle by themselves (`autoSettleCharges`) settle as failed ("Insufficient Funds"). */
  failNextCharges(n: number): void;
}

type Fault = { kind: 'fail'; status: number } | { kind: 'delay'; ms: number } | { kind: 'malformed' };

const random = (length: number) => crypto.randomBytes(length).toString('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, length).toLowerCase().padEnd(length, '0');
const bankName = (code: string) => NIGERIAN_BANKS.find((bank) => bank.code === code)?.name ?? 'Test Bank';
const now = () => new Date().toISOString();

const isLoopback = (url: string) => {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
};

export async function startFakePaystack(options: FakePaystackOptions): Promise<FakePaystack> {
  if (options.webhookUrl && !isLoopback(options.webhookUrl)) throw new Error('the fake Paystack posts webhooks to loopback URLs only');
  const state: FakePaystackState = { authorisations: new Map(), transactions: new Map(), requests: [], webhooks: [] };
  const faults: Fault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let nextTransactionId = 5_000_000_000;
  let chargesToFail = 0;
  let url = '';
  const accounts: Record<string, string> = options.accounts ?? (options.accounts = {});

  const sendWebhook = async (event: string, data: unknown, sendOptions: { badSignature?: boolean } = {}): Promise<number | null> => {
    if (!options.webhookUrl) return null;
    const body = JSON.stringify({ event, data });
    const signature = signPaystackPayload(body, sendOptions.badSignature ? `${options.secretKey}-wrong` : options.secretKey);
    let status: number | null = null;
    try {
      const res = await fetch(options.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', [PAYSTACK_SIGNATURE_HEADER]: signature }, body, redirect: 'error' });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = null;
    }
    state.webhooks.push({ event, status });
    return status;
  };

  const authorisationEventData = (authorisation: FakeAuthorisation, withReference: boolean) => ({
    authorization_code: authorisation.authorizationCode,
    active: authorisation.status === 'active',
    last4: authorisation.account?.number.slice(-4) ?? null,
    channel: 'direct_debit',
    card_type: 'mandate',
    bank: bankName(authorisation.account?.bank_code ?? ''),
    country_code: 'NG',
    reusable: true,
    account_name: null,
    domain: 'test',
    ...(withReference ? { reference: authorisation.reference } : {}),
    customer: { code: authorisation.customerCode, email: authorisation.email, first_name: null, last_name: null, phone: '', metadata: null, risk_action: 'default' },
  });

  const transactionData = (transaction: FakeTransaction) => ({
    id: transaction.id,
    domain: 'test',
    status: transaction.status,
    reference: transaction.reference,
    amount: transaction.amount,
    message: null,
    gateway_response: transaction.gatewayResponse,
    paid_at: transaction.paidAt,
    created_at: transaction.createdAt,
    channel: 'direct_debit',
    currency: 'NGN',
    authorization: { authorization_code: transaction.authorizationCode, channel: 'direct_debit', reusable: true, country_code: 'NG' },
    customer: { email: transaction.email },
    requested_amount: transaction.amount,
  });

  const byReference = (reference: string) => {
    const authorisation = state.authorisations.get(reference);
    if (!authorisation) throw new Error(`fake Paystack: no authorisation ${reference}`);
    return authorisation;
  };

  const approve = async (authorisation: FakeAuthorisation) => {
    if (authorisation.status !== 'pending') return;
    authorisation.authorizationCode = `AUTH_${random(10)}`;
    if (options.activateOnApprove === false) {
      authorisation.status = 'created';
      await sendWebhook('direct_debit.authorization.created', authorisationEventData(authorisation, false));
    } else {
      authorisation.status = 'active';
      await sendWebhook('direct_debit.authorization.active', authorisationEventData(authorisation, true));
    }
  };

  const activate = async (authorisation: FakeAuthorisation) => {
    if (authorisation.status !== 'created') return;
    authorisation.status = 'active';
    await sendWebhook('direct_debit.authorization.active', authorisationEventData(authorisation, true));
  };

  const settle = async (transaction: FakeTransaction, outcome: 'success' | 'failed') => {
    if (transaction.status !== 'processing') return;
    transaction.status = outcome;
    transaction.gatewayResponse = outcome === 'success' ? 'Approved' : 'Insufficient Funds';
    if (outcome === 'success') {
      transaction.paidAt = now();
      await sendWebhook('charge.success', transactionData(transaction));
    }
  };

  type Answer = { status: number; body: unknown } | { status: number; html: string } | { status: 303; location: string };
  const refuse = (status: number, message: string, extra: Record<string, unknown> = {}): Answer => ({ status, body: { status: false, message, ...extra } });
  const ok = (message: string, data?: unknown): Answer => ({ status: 200, body: data === undefined ? { status: true, message } : { status: true, message, data } });

  const api = async (method: string, path: string, query: URLSearchParams, body: Record<string, unknown>): Promise<Answer> => {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/customer/authorization/initialize') {
      if (typeof body.email !== 'string' || !body.email.includes('@')) return refuse(400, 'Email Address is required', { type: 'validation_error', code: 'missing_params' });
      if (body.channel !== undefined && body.channel !== 'direct_debit') return refuse(400, 'Invalid channel', { type: 'validation_error' });
      const account = body.account as { number?: unknown; bank_code?: unknown } | undefined;
      if (account !== undefined && (typeof account.number !== 'string' || !/^\d{10}$/.test(account.number) || typeof account.bank_code !== 'string')) {
        return refuse(400, 'Invalid account details', { type: 'validation_error' });
      }
      const reference = random(30);
      const accessCode = random(15);
      state.authorisations.set(reference, {
        reference,
        accessCode,
        email: body.email,
        callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : null,
        account: account ? { number: account.number as string, bank_code: account.bank_code as string } : null,
        status: 'pending',
        authorizationCode: null,
        customerCode: `CUS_${random(15)}`,
      });
      return ok('Authorization initialized', { redirect_url: `${url}/authorize/${accessCode}`, access_code: accessCode, reference });
    }
    if (method === 'GET' && (match = path.match(/^\/customer\/authorization\/verify\/([^/]+)$/))) {
      const authorisation = state.authorisations.get(decodeURIComponent(match[1]!));
      if (!authorisation) return refuse(400, 'Authorization does not exist or does not belong to integration');
      return ok('Authorization retrieved successfully', {
        authorization_code: authorisation.authorizationCode,
        channel: 'direct_debit',
        bank: bankName(authorisation.account?.bank_code ?? ''),
        active: authorisation.status === 'active',
        status: authorisation.status === 'created' ? 'pending' : authorisation.status,
        customer: { code: authorisation.customerCode, email: authorisation.email },
      });
    }
    if (method === 'POST' && path === '/customer/authorization/deactivate') {
      const authorisation = [...state.authorisations.values()].find((one) => one.authorizationCode !== null && one.authorizationCode === body.authorization_code);
      if (!authorisation) return refuse(400, 'Authorization code is invalid', { type: 'validation_error' });
      authorisation.status = 'revoked';
      return ok('Authorization has been deactivated');
    }
    if (method === 'POST' && path === '/transaction/charge_authorization') {
      if (typeof body.email !== 'string' || body.email === '') return refuse(400, 'Email Address is required', { type: 'validation_error', code: 'missing_params' });
      const amount = typeof body.amount === 'number' ? body.amount : typeof body.amount === 'string' && /^\d+$/.test(body.amount) ? Number(body.amount) : NaN;
      if (!Number.isSafeInteger(amount) || amount <= 0) return refuse(400, 'Invalid Amount Sent', { type: 'validation_error' });
      if (typeof body.authorization_code !== 'string') return refuse(400, 'Authorization code is required', { type: 'validation_error', code: 'missing_params' });
      const reference = typeof body.reference === 'string' ? body.reference : random(15);
      if (!/^[A-Za-z0-9.=-]+$/.test(reference)) return refuse(400, 'Invalid transaction reference', { type: 'validation_error' });
      if (state.transactions.has(reference)) return refuse(400, 'Duplicate Transaction Reference', { type: 'validation_error' });
      const authorisation = [...state.authorisations.values()].find((one) => one.authorizationCode === body.authorization_code);
      if (!authorisation || authorisation.status !== 'active' || authorisation.email !== body.email) {
        return refuse(400, 'Email does not match Authorization code. Authorization may be inactive or belong to a different email. Please confirm.', { type: 'validation_error' });
      }
      const transaction: FakeTransaction = {
        id: nextTransactionId++,
        reference,
        amount,
        email: body.email,
        authorizationCode: body.authorization_code,
        status: 'processing',
        gatewayResponse: 'Transaction in progress',
        createdAt: now(),
        paidAt: null,
      };
      state.transactions.set(reference, transaction);
      if (options.autoSettleCharges) {
        const outcome = chargesToFail > 0 ? 'failed' : 'success';
        if (chargesToFail > 0) chargesToFail -= 1;
        setImmediate(() => void settle(transaction, outcome));
      }
      return ok('Charge attempted', { ...transactionData(transaction), transaction_date: transaction.createdAt });
    }
    if (method === 'GET' && (match = path.match(/^\/transaction\/verify\/([^/]+)$/))) {
      const transaction = state.transactions.get(decodeURIComponent(match[1]!));
      if (!transaction) return refuse(400, 'Transaction reference not found', { type: 'validation_error' });
      return ok('Verification successful', transactionData(transaction));
    }
    if (method === 'GET' && path === '/bank/resolve') {
      const accountNumber = query.get('account_number') ?? '';
      const bankCode = query.get('bank_code') ?? '';
      const unresolved = refuse(422, 'Could not resolve account name. Check parameters or try again.', { type: 'validation_error' });
      if (!NIGERIAN_BANKS.some((bank) => bank.code === bankCode)) return refuse(400, `Unknown bank code: ${bankCode}`, { type: 'validation_error' });
      if (!/^\d{10}$/.test(accountNumber)) return unresolved;
      const named = accounts[`${bankCode}:${accountNumber}`];
      if (!named && accountNumber.startsWith('999999999')) return unresolved;
      return ok('Account number resolved', { account_number: accountNumber, account_name: named ?? `TEST HOLDER ${accountNumber.slice(-4)}`, bank_id: 9 });
    }
    return refuse(404, 'The requested resource was not found');
  };

  const page = async (method: string, path: string): Promise<Answer | null> => {
    const match = path.match(/^\/authorize\/([^/]+)(?:\/(approve|decline))?$/);
    if (!match) return null;
    const authorisation = [...state.authorisations.values()].find((one) => one.accessCode === match[1]);
    if (!authorisation) return { status: 404, html: '<!doctype html><title>Not found</title><p>This authorisation link is not valid.</p>' };
    if (method === 'GET' && !match[2]) {
      const account = authorisation.account ? `${bankName(authorisation.account.bank_code)} ••••${authorisation.account.number.slice(-4)}` : 'the account you choose';
      return {
        status: 200,
        html: fakePage(
          'Authorise direct debit',
          `<p>Allow this business to debit ${escapeHtml(account)}.</p><p>Status: <span id="status">${authorisation.status}</span></p>
<form method="post" action="/authorize/${authorisation.accessCode}/approve"><button type="submit" name="decision" value="approve">Approve</button></form>
<form method="post" action="/authorize/${authorisation.accessCode}/decline"><button type="submit" name="decision" value="decline" class="secondary">Decline</button></form>
<p class="note">Paystack (local fake)</p>`,
        ),
      };
    }
    if (method === 'POST' && match[2]) {
      if (match[2] === 'approve') await approve(authorisation);
      else if (authorisation.status === 'pending') authorisation.status = 'declined';
      if (!authorisation.callbackUrl) return { status: 200, html: '<!doctype html><title>Done</title><p>You can close this page.</p>' };
      const location = new URL(authorisation.callbackUrl);
      location.searchParams.set('reference', authorisation.reference);
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
    if (path === '/_fake/fail-next-charge') {
      chargesToFail += 1;
      return back;
    }
    if (path === '/_fake/accounts') {
      const bankCode = form.get('bank_code') ?? '';
      const number = form.get('account_number') ?? '';
      const name = (form.get('account_name') ?? '').trim().toUpperCase();
      if (NIGERIAN_BANKS.some((bank) => bank.code === bankCode) && /^\d{10}$/.test(number) && name) accounts[`${bankCode}:${number}`] = name;
      return back;
    }
    const settleMatch = path.match(/^\/_fake\/charges\/([^/]+)\/(success|failed)$/);
    if (settleMatch) {
      const transaction = state.transactions.get(decodeURIComponent(settleMatch[1]!));
      if (transaction) await settle(transaction, settleMatch[2] as 'success' | 'failed');
      return back;
    }
    return { status: 404, html: fakePage('Not found', '') };
  };

  const controlPage = () => {
    const mandates = [...state.authorisations.values()].reverse().map((one) => `<li class="card"><code>${escapeHtml(one.reference)}</code> · ${escapeHtml(one.email)} · <strong>${one.status}</strong>${one.status === 'pending' ? ` · <a href="/authorize/${one.accessCode}">open its authorisation page (approve or decline)</a>` : ''}</li>`).join('');
    const charges = [...state.transactions.values()].reverse().map((one) => `<li class="card"><code>${escapeHtml(one.reference)}</code> · ${naira(one.amount)} · <strong>${one.status}</strong>${
      one.status === 'processing' ? ` ${button(`/_fake/charges/${encodeURIComponent(one.reference)}/success`, 'Settle as paid')}${button(`/_fake/charges/${encodeURIComponent(one.reference)}/failed`, 'Fail this debit', {}, true)}` : ''
    }</li>`).join('');
    const named = Object.entries(accounts).map(([key, name]) => `<li class="card"><code>${escapeHtml(key)}</code> · ${escapeHtml(name)}</li>`).join('');
    return fakePage(
      'Paystack (local fake)',
      `<p class="note">Direct debit (rail_a) and bank-account names. Charges ${options.autoSettleCharges ? 'settle by themselves as paid' : 'wait for a person'}${chargesToFail ? `; the next ${chargesToFail} will fail` : ''}.</p>
<h2>Debits</h2>${button('/_fake/fail-next-charge', 'Fail the next debit')}<ul>${charges || '<li class="card">No debit yet.</li>'}</ul>
<h2>Mandates</h2><ul>${mandates || '<li class="card">No mandate yet.</li>'}</ul>
<h2>Account names</h2><p class="note">Any other valid number resolves to TEST HOLDER and its last four digits; numbers starting 999999999 never resolve.</p><ul>${named}</ul>
<form method="post" action="/_fake/accounts"><label>Bank code<input name="bank_code" value="058" inputmode="numeric"></label><label>Account number<input name="account_number" inputmode="numeric"></label><label>Name<input name="account_name"></label><button type="submit">Name this account</button></form>`,
    );
  };

  const write = (res: http.ServerResponse, answer: Answer) => {
    if ('location' in answer) {
      res.writeHead(303, { location: answer.location, 'content-length': '0' }).end();
    } else if ('html' in answer) {
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
    } else {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    }
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
            state.requests.push({ method, path: target.pathname, query: Object.fromEntries(target.searchParams), body: raw });
            return write(res, refuse(400, 'Invalid JSON body'));
          }
        }
        state.requests.push({ method, path: target.pathname, query: Object.fromEntries(target.searchParams), body });

        const fault = faults.shift();
        if (fault?.kind === 'fail') return write(res, refuse(fault.status, fault.status >= 500 ? 'An error occurred while processing your request' : 'Injected fault', { type: 'api_error' }));
        if (fault?.kind === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status": true, "data": ');

        const authorization = req.headers.authorization;
        if (!authorization) return write(res, refuse(401, 'No Authorization Header was found'));
        if (authorization !== `Bearer ${options.secretKey}`) return write(res, refuse(401, 'Invalid key'));

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
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    failNext: (n, status = 500) => {
      for (let i = 0; i < n; i++) faults.push({ kind: 'fail', status });
    },
    delayNext: (ms) => void faults.push({ kind: 'delay', ms }),
    malformedNext: () => void faults.push({ kind: 'malformed' }),
    authorisationUrl: (reference) => `${url}/authorize/${byReference(reference).accessCode}`,
    approveAuthorisation: (reference) => approve(byReference(reference)),
    refuseAuthorisation: async (reference) => {
      const authorisation = byReference(reference);
      if (authorisation.status === 'pending') authorisation.status = 'declined';
    },
    activateAuthorisation: (reference) => activate(byReference(reference)),
    settleCharge: async (reference, outcome) => {
      const transaction = state.transactions.get(reference);
      if (!transaction) throw new Error(`fake Paystack: no transaction ${reference}`);
      await settle(transaction, outcome);
    },
    sendWebhook,
    failNextCharges: (n) => {
      chargesToFail += n;
    },
  };
}
