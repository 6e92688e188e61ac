import http from 'node:http';
import { close, FaultQueue, listen, readBody, sendJson } from './fault-queue';
import { escapeHtml, fakePage, sendHtml } from './fake-pages';

/**
 * A local Termii Messaging API (https://developers.termii.com/messaging-api) on 127.0.0.1, port 0:
 * `POST /api/sms/send` with `{ api_key, to, from, sms, type, channel }` answers 200
 * `{ code: "ok", message_id, message_id_str, message: "Successfully Sent", balance, user }` and records the
 * message in `messages`. The refusals follow Termii's error page (https://developers.termii.com/error):
 * - wrong `api_key` → 401 `{ message: "Unauthorized" }`;
 * - a sender ID not registered → 404 `{ code: 404, message: "Invalid Sender Id" }`;
 * - no balance left → 400 `{ message: "Insufficient balance" }`;
 * - `channel: "dnd"` on an account without the DND route → 400 `{ message: "You are not set up on this route" }`;
 * - missing or malformed fields → 400 `{ message }`.
 * Each accepted message costs one unit of `balance`. GET /_fake (not counted) shows the accepted messages, newest first:
 * the phone a person would hold.
 */
export interface FakeTermiiMessage {
  to: string;
  from: string;
  sms: string;
  type: string;
  channel: string;
}

export interface FakeTermii {
  url: string;
  /** Messages Termii accepted (and would deliver). */
  messages: FakeTermiiMessage[];
  /** How many requests reached the fake, faults and refusals included. */
  readonly requestCount: number;
  setBalance(units: number): void;
  failNext(n: number, status?: number, body?: unknown): void;
  delayNext(ms: number): void;
  malformedNext(): void;
  close(): Promise<void>;
}

export async function startFakeTermii(options: { apiKey: string; senderIds?: string[]; balance?: number; dndRoute?: boolean }): Promise<FakeTermii> {
  const senderIds = new Set(options.senderIds ?? ['Clinic']);
  const dndRoute = options.dndRoute ?? true;
  let balance = options.balance ?? 100;
  let requestCount = 0;
  let nextId = 9_122_821_270_554_876_000n;
  const messages: FakeTermiiMessage[] = [];
  const faults = new FaultQueue();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/_fake') {
      const list = [...messages].reverse().map((m) => `<li class="card"><strong>to +${escapeHtml(m.to)}</strong> from ${escapeHtml(m.from)}<br>${escapeHtml(m.sms)}</li>`).join('');
      return sendHtml(res, 200, fakePage('Termii (local fake): texts sent', `<p class="note">Texts the platform sent (codes, links, receipts); balance ${balance} units.</p><ul>${list || '<li class="card">No text yet.</li>'}</ul>`));
    }
    requestCount++;
    if (await faults.apply(res)) return;
    if (req.method !== 'POST' || url.pathname !== '/api/sms/send') return sendJson(res, 404, { message: 'Not Found' });
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return sendJson(res, 400, { message: 'The request body is not valid JSON' });
    }
    if (body.api_key !== options.apiKey) return sendJson(res, 401, { message: 'Unauthorized' });
    const { to, from, sms, type, channel } = body;
    if (typeof to !== 'string' || !/^\d{10,15}$/.test(to)) return sendJson(res, 400, { message: 'to must be a phone number in international format' });
    if (typeof sms !== 'string' || sms === '') return sendJson(res, 400, { message: 'sms is required' });
    if (type !== 'plain') return sendJson(res, 400, { message: 'type must be plain' });
    if (channel !== 'dnd' && channel !== 'generic' && channel !== 'whatsapp') return sendJson(res, 400, { message: 'channel must be dnd, generic or whatsapp' });
    if (typeof from !== 'string' || !senderIds.has(from)) return sendJson(res, 404, { code: 404, message: 'Invalid Sender Id' });
    if (channel === 'dnd' && !dndRoute) return sendJson(res, 400, { message: 'You are not set up on this route' });
    if (balance < 1) return sendJson(res, 400, { message: 'Insufficient balance' });
    balance -= 1;
    messages.push({ to, from, sms, type, channel });
    const id = String(nextId++);
    sendJson(res, 200, { code: 'ok', message_id: id, message_id_str: id, message: 'Successfully Sent', balance, user: 'Fake Clinic' });
  });

  const url = await listen(server);
  return {
    url,
    messages,
    get requestCount() {
      return requestCount;
    },
    setBalance: (units) => {
      balance = units;
    },
    failNext: (n, status = 500, body) => faults.failNext(n, status, body ?? { message: status >= 500 ? 'Internal Server Error' : `Error ${status}` }),
    delayNext: (ms) => faults.delayNext(ms),
    malformedNext: () => faults.malformedNext(),
    close: () => close(server, faults),
  };
}
