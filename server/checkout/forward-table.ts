import express, { type Request, type Response } from 'express';
import ipaddr from 'ipaddr.js';
import { fail } from './api-middleware';
import type { PlatformAnswer, PlatformCall } from './platform-client';
import { fromThisMachine } from './sandbox-inbox';
import { localeOfTag } from '../shared/locales';

/** A refusal by the checkout server before the platform is called: status, error code, message. */
export type Refusal = [status: number, error: string, message: string];

/**
 * One JSON endpoint of the checkout server that forwards to one platform route with the session
 * token. Only what a row names goes on: the query parameters in `query`, the body fields in `pick`;
 * the platform's answer (status, envelope, `Retry-After`) comes back as it is.
 */
export interface ForwardRow {
  method: 'GET' | 'POST';
  /** Under the checkout server's `/api`. */
  path: string;
  platformPath: string;
  /** GET: the query parameters passed on (single values only). */
  query?: readonly string[];
  /** POST: the body fields passed on. A POST always sends a JSON body, `{}` at least. */
  pick?: readonly string[];
  /**
   * POST: signing evidence first — the signer's name, email and document reference from the body,
   * then the IP address and user agent as this server saw the browser (never taken from the body).
   */
  evidence?: boolean;
  /** POST: fields this server adds after the picked ones (its own URL, a verified passkey), or a refusal. */
  shape?: (req: Request, res: Response, context: ForwardContext) => Promise<Record<string, unknown> | Refusal> | Record<string, unknown> | Refusal;
  /** What this server adds to the platform's answer before it goes to the browser (fields only this server can know). */
  annotate?: (req: Request, answer: PlatformAnswer, context: ForwardContext) => Promise<void>;
}

/** What a row's `shape` may ask of the router it runs in. */
export interface ForwardContext {
  /** The verified passkey part of an acceptance (`{}` without one), or a refusal (`passkeys.ts`). */
  acceptancePasskey(req: Request, res: Response): Promise<Record<string, unknown> | Refusal>;
  /** The router's public URL (`publicUrl`, else as the request reached it). */
  mountUrl(req: Request, res: Response): string;
  /** The platform's sandbox inbox when it serves this server (`sandbox-inbox.ts`), else null. */
  sandboxInbox(): Promise<string | null>;
}

/** The checkout server's forwarded endpoints, in the widget's order of use. */
export const FORWARD_TABLE: readonly ForwardRow[] = [
  // Test mode: `sandboxInbox`, where the code is read, only for a browser on the platform's own machine and only when the platform serves the inbox here.
  {
    method: 'GET',
    path: '/state',
    platformPath: '/v1/checkout/session',
    annotate: async (req, answer, context) => {
      const state = answer.body.data as { mode?: unknown; sandboxInbox?: string | null } | undefined;
      if (answer.status === 200 && state?.mode === 'test') state.sandboxInbox = fromThisMachine(req) ? await context.sandboxInbox() : null;
    },
  },
  { method: 'POST', path: '/session/refresh', platformPath: '/v1/checkout/session/refresh' },
  // An expired link: the lender's contact, and "text me a new link" (to the phone on record only; the platform rate-limits it).
  { method: 'GET', path: '/session/renewal', platformPath: '/v1/checkout/session/renewal' },
  { method: 'POST', path: '/session/renew', platformPath: '/v1/checkout/session/renew' },
  // The partner's `locale` may be a tag (`yo-NG`): the shipped language it names goes on; anything else as sent (the platform refuses it).
  {
    method: 'POST',
    path: '/language',
    platformPath: '/v1/checkout/language',
    pick: ['locale', 'chosenBy'],
    shape: (req) => {
      const tag = (req.body as { locale?: unknown })?.locale;
      const locale = typeof tag === 'string' ? localeOfTag(tag) : undefined;
      return locale ? { locale } : {};
    },
  },
  { method: 'POST', path: '/otp/send', platformPath: '/v1/checkout/otp/send' },
  { method: 'POST', path: '/otp/verify', platformPath: '/v1/checkout/otp/verify', pick: ['code'] },
  { method: 'GET', path: '/banks', platformPath: '/v1/checkout/banks' },
  { method: 'POST', path: '/bank-account/resolve', platformPath: '/v1/checkout/bank-account/resolve', pick: ['bankCode', 'accountNumber'] },
  { method: 'POST', path: '/bank-account', platformPath: '/v1/checkout/bank-account', pick: ['bankCode', 'accountNumber', 'confirmNameMismatch'] },
  { method: 'POST', path: '/guarantors', platformPath: '/v1/checkout/guarantors', pick: ['fullName', 'phone', 'relationship'] },
  { method: 'POST', path: '/guarantors/resend', platformPath: '/v1/checkout/guarantors/resend', pick: ['guarantorId'] },
  { method: 'POST', path: '/guarantors/verify', platformPath: '/v1/checkout/guarantors/verify', pick: ['guarantorId', 'code'] },
  { method: 'GET', path: '/merchants', platformPath: '/v1/checkout/merchants', query: ['q', 'page', 'limit'] },
  { method: 'POST', path: '/merchant', platformPath: '/v1/checkout/merchant', pick: ['providerId'] },
  { method: 'POST', path: '/kyc', platformPath: '/v1/checkout/kyc', pick: ['bvn', 'nin', 'dateOfBirth', 'address'] },
  {
    method: 'POST',
    path: '/offer/accept',
    platformPath: '/v1/checkout/accept',
    evidence: true,
    pick: ['confirmSignatureName'],
    // The box ticked; then optionally a passkey over this offer, verified here (relying party) and again by the platform.
    shape: (req, res, context) => {
      if ((req.body as { agreed?: unknown })?.agreed !== true) return [400, 'agreement_required', 'Tick the box to agree to the offer before signing.'];
      return context.acceptancePasskey(req, res);
    },
  },
  { method: 'POST', path: '/offer/decline', platformPath: '/v1/checkout/decline', evidence: true, pick: ['reason'] },
  // The rail sends the borrower back to this router's own page.
  { method: 'POST', path: '/mandate', platformPath: '/v1/checkout/mandate', pick: ['email'], shape: (req, res, context) => ({ callbackUrl: `${context.mountUrl(req, res)}/?return=mandate` }) },
  { method: 'POST', path: '/mandate/activate', platformPath: '/v1/checkout/mandate/activate' },
  // Patient financing: identity (then the service's decision) and the tenor choice.
  { method: 'POST', path: '/financing/identity', platformPath: '/v1/checkout/financing/identity', pick: ['fullName', 'bvn', 'dateOfBirth', 'declaredMonthlyIncomeKobo', 'email'] },
  { method: 'POST', path: '/financing/tenor', platformPath: '/v1/checkout/financing/tenor', pick: ['tenorMonths'] },
];

/** The client IP as Express derived it under this router's trust rules; IPv4-mapped IPv6 shown as IPv4. */
export function clientIp(req: Request): string {
  const raw = req.ip ?? req.socket.remoteAddress ?? '';
  if (!ipaddr.isValid(raw)) return '0.0.0.0';
  const parsed = ipaddr.parse(raw);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address().toString() : parsed.toString();
}

const pick = (body: unknown, keys: readonly string[]) => {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
};

const EVIDENCE_FIELDS = ['signatureFullName', 'signatureEmail', 'documentReference'];

const evidence = (req: Request) => ({
  ...pick(req.body, EVIDENCE_FIELDS),
  ipAddress: clientIp(req),
  userAgent: (req.get('user-agent') ?? 'unknown').slice(0, 400),
});

function platformPathOf(row: ForwardRow, req: Request): string {
  if (!row.query) return row.platformPath;
  const params = new URLSearchParams();
  for (const key of row.query) if (typeof req.query[key] === 'string') params.set(key, req.query[key] as string);
  return `${row.platformPath}${params.size ? `?${params}` : ''}`;
}

/** The interpreter: one route per row, each calling the platform with the session token in `res.locals.token`. */
export function forwardRoutes(rows: readonly ForwardRow[], platform: PlatformCall, context: ForwardContext): express.Router {
  const router = express.Router();
  for (const row of rows) {
    const handler = async (req: Request, res: Response) => {
      let body: Record<string, unknown> | undefined;
      if (row.method === 'POST') {
        const shaped = row.shape ? await row.shape(req, res, context) : {};
        if (Array.isArray(shaped)) return fail(res, ...shaped);
        body = { ...(row.evidence ? evidence(req) : {}), ...pick(req.body, row.pick ?? []), ...shaped };
      }
      const answer = await platform(row.method, platformPathOf(row, req), res.locals.token as string, body, req.get('idempotency-key') ?? undefined, req.get('accept-language') ?? undefined);
      if (row.annotate) await row.annotate(req, answer, context);
      if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
      res.status(answer.status).json(answer.body);
    };
    if (row.method === 'GET') router.get(row.path, handler);
    else router.post(row.path, handler);
  }
  return router;
}
