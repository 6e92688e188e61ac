import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { Db, Executor, Tx } from '../db/database';
import { AppError, type ErrorCode } from '../domain/errors';
import type { Platform } from '../platform';
import { authOf, type AuthContext } from './authenticate';
import { errorBody, successBody, type PageMeta } from './envelope';
import { inUnitOfWork } from '../domain/unit-of-work';
import {
  IDEMPOTENCY_KEY_PATTERN,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency';
import { isDatabaseUnavailable } from '../db/database';
import type { ApiScope } from '../../shared/api-key-scopes';
import { checkScope, requiredScope } from './route-scopes';

/**
 * Who may call a route:
 * - `tenant`: any key of an enabled organisation with the Loan Tenant permission;
 * - `preapproval`: additionally Pre-Approved Lending and the tenant's pre-approval switch;
 * - `sandbox`: a tenant route that only test keys may call (`/v1/test/*`);
 * - `checkoutSession`: a borrower-session route (`/v1/checkout/*`) that only a checkout-session token
 *   may call, for its one loan. Every other route refuses a session token, and these refuse API keys
 *   (403 `credential_not_allowed`);
 * - `organisation`: any key of an enabled organisation, no lending permission needed (the telemedicine API).
 * - `financing`: a patient-financing route (`/api/v1/sdk/*`): any key of an enabled organisation. A clinic, pharmacy
 *   or lab initiates financing without being a lender, so the Loan Tenant permission is not required.
 */
/** `expiredCheckoutSession`: a checkout-session token whose session has expired (never revoked or unknown), for the "text me a new link" routes only. */
/** `borrowerSession`: a borrower's own route (`/v1/borrower/*`) that only a borrower-session token may call, for its phone's loans at its lender. */
export type Access = 'tenant' | 'preapproval' | 'sandbox' | 'checkoutSession' | 'expiredCheckoutSession' | 'borrowerSession' | 'organisation' | 'financing';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface HandlerContext<P, Q, B, D extends Executor = Executor> {
  /**
   * The root handle on reads and `transactional: false` routes (`Db`); the request's transaction on other writes (`Tx`:
   * events and idempotency commit with it). See `HandlerDb`.
   */
  db: D;
  auth: AuthContext;
  params: P;
  query: Q;
  body: B;
  platform: Platform;
  now: Date;
  req: Request;
  /** Runs `work` once the request's writes have committed (not on a rollback, not on an idempotent replay); failures are logged. */
  afterCommit(work: (services: Platform) => Promise<void>): void;
}

export interface HandlerResult {
  status?: number;
  message: string;
  data?: unknown;
  meta?: PageMeta;
  /**
   * `data` already serialised, instead of `data`: for a cached, never-mutated value whose JSON is kept
   * with it (the product list), so a hot read does not serialise the same objects on every call.
   */
  dataJson?: string;
  /** A non-JSON representation (e.g. CSV) sent as is instead of the envelope. */
  file?: { contentType: string; body: string; filename: string };
}

/**
 * The handler's `db`: a GET reads on the root handle; a write route runs in the request's unit of work (a
 * transaction, so it may write events), unless it is `transactional: false` and opens its own with `inUnitOfWork`.
 */
export type HandlerDb<M extends Method, T extends boolean> = M extends 'get' ? Db : T extends false ? Db : Tx;

export interface RouteSpec<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  M extends Method = Method,
  T extends boolean = boolean,
> {
  method: M;
  /** OpenAPI-style path, e.g. `/v1/products/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /**
   * The scope a restricted API key needs for this route, when the rule of `route-scopes.ts` (the path's area; `read`
   * for GET, `write` otherwise) would give the wrong one.
   */
  scope?: ApiScope;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * `bare`: the handler's `data` is the whole JSON body, not wrapped in the envelope (the telemedicine
   * API, whose spec gives its own response shapes; its errors still use the error envelope).
   */
  response: { status: number; description: string; data?: z.ZodType; paginated?: boolean; contentType?: 'text/csv'; bare?: boolean };
  /**
   * false for write routes that call an outside provider: the handler runs on the root handle and
   * opens its own transactions (a provider call must never hold a database transaction open), and
   * the idempotent response is stored after the handler's writes rather than with them.
   */
  transactional?: T;
  /** Error codes this route can answer with beyond the ones every route shares. */
  errors?: ErrorCode[];
  handle(ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, HandlerDb<M, T>>): Promise<HandlerResult>;
}

/** Identity function that keeps the handler's parameter types tied to the route's schemas. */
export function defineRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, M extends Method, T extends boolean = true>(
  spec: RouteSpec<P, Q, B, M, T>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = [where, ...issue.path.map(String)].join('.');
  return `${field}: ${issue.message}`;
}

export function checkAccess(access: Access, auth: AuthContext): void {
  const borrowerRoute = access === 'borrowerSession';
  if (borrowerRoute !== Boolean(auth.borrowerSession)) {
    throw new AppError(
      'credential_not_allowed',
      borrowerRoute ? 'Borrower routes take a borrower-session token (Authorization: BorrowerSession <token>).' : 'A borrower-session token only reaches the /v1/borrower routes.',
    );
  }
  const sessionRoute = access === 'checkoutSession' || access === 'expiredCheckoutSession';
  if (sessionRoute && !auth.checkoutSession) {
    throw new AppError('credential_not_allowed', 'Checkout routes take a checkout-session token (Authorization: CheckoutSession <token>), not an API key.');
  }
  if (!sessionRoute && auth.checkoutSession) {
    throw new AppError('credential_not_allowed', 'A checkout-session token only reaches the /v1/checkout routes; use an API key here.');
  }
  // An expired session reaches only the routes made for ended sessions; a live one not those.
  if (auth.checkoutSessionExpired && access !== 'expiredCheckoutSession') {
    throw new AppError('checkout_session_expired', 'This checkout link has expired. Ask the lender for a new one.');
  }
  if (access === 'expiredCheckoutSession' && !auth.checkoutSessionExpired) {
    throw new AppError('checkout_session_not_expired', 'This checkout link still works: reload the page to carry on.');
  }
  const org = auth.organisation;
  if (org.disabled) throw new AppError('ORGANISATION_DISABLED', 'This organisation is disabled.');
  if (auth.mode === 'live' && !org.liveEnabled) {
    throw new AppError('LIVE_MODE_NOT_ENABLED', 'Live mode is not enabled for this organisation yet (an operator enables it after its checks); use the test keys meanwhile.');
  }
  if (access === 'financing' || (sessionRoute && auth.checkoutSession?.financing)) return;
  if (!org.loanTenant && access !== 'organisation') {
    throw new AppError('LOAN_TENANT_PERMISSION_DENIED', 'This organisation does not have the Loan Tenant permission.');
  }
  if (access === 'preapproval') {
    if (!org.preapprovedLending) {
      throw new AppError(
        'PREAPPROVED_LENDING_PERMISSION_DENIED',
        'This organisation does not have the Pre-Approved Lending permission.',
      );
    }
    if (!org.preapprovalsEnabled) throw new AppError('FEATURE_DISABLED', 'Pre-approvals are switched off for this organisation.');
  }
  if (access === 'sandbox' && auth.mode !== 'test') {
    throw new AppError('SANDBOX_ONLY', 'Sandbox routes accept test keys only (pk_test_/sk_test_).');
  }
}

function parseInput(route: RouteSpec, req: Request) {
  const params = route.params ? route.params.safeParse(req.params) : { success: true as const, data: {} };
  if (!params.success) throw new AppError('INVALID_ID', describeIssue('path', params.error));
  const query = route.query ? route.query.safeParse(req.query) : { success: true as const, data: {} };
  if (!query.success) throw new AppError('invalid_request', describeIssue('query', query.error));
  let body: unknown;
  if (!route.body && Array.isArray(req.body)) {
    // A route without a body takes nothing or an object (ignored); an array is a caller mistake, not something to ignore.
    throw new AppError('invalid_request', 'body: this route takes no body (send nothing or {}).');
  }
  if (route.body) {
    const parsed = route.body.safeParse(req.body ?? {});
    if (!parsed.success) throw new AppError('invalid_request', describeIssue('body', parsed.error));
    body = parsed.data;
  }
  return { params: params.data, query: query.data, body };
}

function send(res: Response, status: number, body: string, replayed = false): void {
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(status).type('application/json').send(body);
}

async function runRoute(route: RouteSpec, scope: ApiScope | undefined, platform: Platform, req: Request, res: Response): Promise<void> {
  const auth = authOf(res);
  checkAccess(route.access, auth);
  checkScope(scope, auth);
  const input = parseInput(route, req);
  const now = platform.clock.now();
  const committed: Array<(services: Platform) => Promise<void>> = [];
  const ctx = { ...input, auth, platform, now, req, afterCommit: (work: (services: Platform) => Promise<void>) => void committed.push(work) };
  // Not awaited: the answer does not wait on an SMS provider.
  const runCommitted = () => {
    for (const work of committed.splice(0)) {
      void work(platform).catch((error: unknown) => platform.logger.error({ err: error, route: route.operationId }, 'after-commit work failed'));
    }
  };
  const render = (result: HandlerResult) => {
    const status = result.status ?? route.response.status;
    if (result.dataJson !== undefined && !route.response.bare) {
      // The envelope's own fields, then the ready `data` (successBody's key order: status, success, message, data, meta).
      const head = JSON.stringify(successBody(status, result.message));
      const meta = result.meta ? `,"meta":${JSON.stringify(result.meta)}` : '';
      return { status, body: `${head.slice(0, -1)},"data":${result.dataJson}${meta}}` };
    }
    return { status, body: JSON.stringify(route.response.bare ? result.data : successBody(status, result.message, result.data, result.meta)) };
  };

  if (route.method === 'get') {
    const result = await route.handle({ ...ctx, db: platform.db });
    if (result.file) {
      res.setHeader('Content-Disposition', `attachment; filename="${result.file.filename}"`);
      res.status(result.status ?? 200).type(result.file.contentType).send(result.file.body);
      return;
    }
    const out = render(result);
    return send(res, out.status, out.body);
  }

  const inTransaction = async <T>(work: (db: Executor) => Promise<T>): Promise<T> => {
    let result: T;
    try {
      // The unit of work rings the outbox after commit; a non-transactional handler's own units of work ring theirs.
      result = route.transactional === false ? await work(platform.db) : await inUnitOfWork(platform.db, work);
    } catch (error) {
      committed.length = 0;
      throw error;
    }
    runCommitted();
    return result;
  };
  const key = req.get('idempotency-key');
  if (key === undefined) {
    const out = await inTransaction(async (db) => render(await route.handle({ ...ctx, db })));
    return send(res, out.status, out.body);
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError('invalid_request', 'header.Idempotency-Key: 1 to 255 printable ASCII characters');
  }
  const claim = await claimIdempotencyKey(platform.db, platform.secrets, {
    apiKeyId: auth.apiKeyId,
    key,
    method: req.method,
    path: req.baseUrl + req.path,
    body: req.body ?? null,
    now,
    ttlHours: platform.config.IDEMPOTENCY_TTL_HOURS,
    lockTimeoutSeconds: platform.config.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS,
  });
  if (claim.kind === 'replay') return send(res, claim.status, claim.body, true);
  try {
    const out = await inTransaction(async (db) => {
      const rendered = render(await route.handle({ ...ctx, db }));
      await completeIdempotencyKey(db, platform.secrets, claim.id, rendered.status, rendered.body);
      return rendered;
    });
    return send(res, out.status, out.body);
  } catch (error) {
    try {
      if (error instanceof AppError && error.status < 500) {
        // A refusal is an outcome: the same request with the same key gets the same answer.
        const body = JSON.stringify(errorBody(res, error.status, error.code, error.message, error.data));
        await completeIdempotencyKey(platform.db, platform.secrets, claim.id, error.status, body);
      } else {
        await releaseIdempotencyKey(platform.db, claim.id);
      }
    } catch (storeError) {
      // The database went away between the handler and here: the claim stays in flight until
      // IDEMPOTENCY_LOCK_TIMEOUT_SECONDS, then a retry runs the request again (nothing committed).
      platform.logger.warn({ err: storeError, idempotencyKeyId: claim.id }, 'could not record the idempotent outcome');
      throw isDatabaseUnavailable(storeError) ? storeError : error;
    }
    throw error;
  }
}

/** Mounts routes on a router that is itself mounted at `prefix` (their paths include it). */
export function mountRoutes(router: Router, prefix: string, routes: RouteSpec[], platform: Platform): void {
  for (const route of routes) {
    if (!route.path.startsWith(`${prefix}/`)) throw new Error(`route ${route.path} is not under ${prefix}`);
    const local = expressPath(route.path.slice(prefix.length));
    const scope = requiredScope(route);
    // A key route with no scope would be reachable by no restricted key, or by all of them: neither is a choice to make by accident.
    if (!scope && route.access !== 'checkoutSession' && route.access !== 'expiredCheckoutSession' && route.access !== 'borrowerSession') {
      throw new Error(`route ${route.method.toUpperCase()} ${route.path} has no API-key scope: add its area to route-scopes.ts or give it a scope`);
    }
    router[route.method](local, (req, res) => runRoute(route, scope, platform, req, res));
  }
}
