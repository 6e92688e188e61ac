import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { RailName } from './payment-rail';
import { RailProviderError } from './sandbox-rail-errors';
import { authorisationPage, messagePage, returnUrl, type Page } from './sandbox-rail-page';
import { contentSecurityPolicy } from '../../shared/page-shell';
import { SandboxRailProvider, type SandboxRailProviderOptions } from './sandbox-rail-provider';
import { isRailName, type AuthorisationRecord, type ChargeRecord } from './sandbox-rail-records';

/**
 * The sandbox rail provider's HTTP surface, mounted at `/sandbox/rails`: the provider API (JSON)
 * and the borrower's authorisation page (HTML). Behaviour and contract: sandbox-rail-provider.ts.
 * Routes parse, call the provider and render; nothing else.
 */

const Reference = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:=-]+$/, 'may only contain letters, digits and . _ : = -');
const Kobo = z.int().positive();

const AuthorisationBody = z.object({
  reference: Reference,
  email: z.email().max(254),
  accountNumber: z.string().regex(/^\d{10}$/, 'must be a 10-digit NUBAN').nullish(),
  bankCode: z.string().regex(/^\d{3,6}$/, 'must be 3 to 6 digits').nullish(),
  amountKobo: Kobo,
  callbackUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048).nullish(),
});

const ChargeBody = z.object({
  authorizationCode: z.string().min(1).max(100),
  amountKobo: Kobo,
  reference: Reference,
});

const DecisionBody = z.object({ decision: z.enum(['approve', 'refuse']) });

/** Path references longer than anything the provider issues are simply not found. */
const PathReference = z.string().min(1).max(100);

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new RailProviderError('invalid_request', field ? `${field}: ${issue.message}` : issue.message);
}

function railOf(req: Request): RailName {
  const rail = String(req.params.rail);
  if (!isRailName(rail)) throw new RailProviderError('not_found', 'No such rail; the sandbox has rail_a and rail_b.');
  return rail;
}

function referenceOf(req: Request, name: string, what: string): string {
  const result = PathReference.safeParse(req.params[name]);
  if (!result.success) throw new RailProviderError('not_found', `No ${what} on this rail.`);
  return result.data;
}

const authorisationJson = (a: AuthorisationRecord, authorizationUrl: string) => ({
  providerReference: a.providerReference,
  rail: a.rail,
  reference: a.reference,
  status: a.status,
  authorizationCode: a.authorizationCode,
  authorizationUrl,
  amountKobo: a.amountKobo,
  email: a.email,
  accountNumberMasked: a.accountNumberMasked,
  bankCode: a.bankCode,
  callbackUrl: a.callbackUrl,
  approvedAt: a.approvedAt,
  confirmedAt: a.confirmedAt,
  refusedAt: a.refusedAt,
  cancelledAt: a.cancelledAt,
  createdAt: a.createdAt,
});

const chargeJson = (c: ChargeRecord) => ({
  chargeReference: c.chargeReference,
  rail: c.rail,
  reference: c.reference,
  providerReference: c.providerReference,
  amountKobo: c.amountKobo,
  status: c.status,
  failureReason: c.failureReason,
  completedAt: c.completedAt,
  createdAt: c.createdAt,
});

function sendPage(res: Response, status: number, page: Page, frameAncestors?: string[]): void {
  // The pages refuse framing unless the app allows its own origin (the sales demo shows the checkout in a phone frame).
  res.status(status).setHeader('Content-Security-Policy', contentSecurityPolicy({ ...page.policy, frameAncestors }));
  res.type('html').send(page.html);
}

/** Body-parser and validation failures become the provider's own 4xx; anything else is a bug. */
function asProviderError(error: unknown): RailProviderError | undefined {
  if (error instanceof RailProviderError) return error;
  const e = error as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') return new RailProviderError('invalid_json', 'The body is not valid JSON (send a JSON object).');
  if (e?.type === 'entity.too.large') return new RailProviderError('payload_too_large', 'The body is too large.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new RailProviderError('unsupported_media_type', 'Send the body as UTF-8.');
  }
  if (e?.status && e.status >= 400 && e.status < 500) return new RailProviderError('invalid_request', 'The request could not be read.');
  return undefined;
}

const isPageRequest = (req: Request) => /^\/[^/]+\/authorise\//.test(req.path);

/** The sandbox rail provider's HTTP surface (authorisation pages, provider API). */
/** What the sandbox provider runs with: its state's database and clock, its lags, and the public origin its pages are linked from. */
export interface SandboxRailHost extends SandboxRailProviderOptions {
  /** Read at call time: the origin is known only once the server listens. */
  baseUrl: () => string;
}

export function createSandboxRailRouter(host: SandboxRailHost, options: { frameAncestors?: string[] } = {}): express.Router {
  const provider = new SandboxRailProvider({
    db: host.db,
    clock: host.clock,
    confirmationLagMs: host.confirmationLagMs,
    chargeLagMs: host.chargeLagMs,
  });
  const authorizationUrl = (rail: RailName, providerReference: string) =>
    `${host.baseUrl()}/sandbox/rails/${rail}/authorise/${encodeURIComponent(providerReference)}`;

  const requireJson = (req: Request, _res: Response, next: NextFunction) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) throw new RailProviderError('unsupported_media_type', 'Send the body as application/json.');
    next();
  };
  const jsonParser = express.json({ limit: '16kb', strict: true });
  const form = express.urlencoded({ extended: false, limit: '2kb' });

  const router = express.Router();
  // Authorisation codes and personal data pass through here: nothing is cached anywhere.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.post('/:rail/authorisations', requireJson, jsonParser, async (req, res) => {
    const rail = railOf(req);
    const { authorisation, created } = await provider.createAuthorisation(rail, parse(AuthorisationBody, req.body));
    res.status(created ? 201 : 200).json(authorisationJson(authorisation, authorizationUrl(rail, authorisation.providerReference)));
  });

  router.get('/:rail/authorisations/:providerReference', async (req, res) => {
    const rail = railOf(req);
    const authorisation = await provider.readAuthorisation(rail, referenceOf(req, 'providerReference', 'authorisation'));
    res.json(authorisationJson(authorisation, authorizationUrl(rail, authorisation.providerReference)));
  });

  router.post('/:rail/authorisations/:providerReference/cancel', async (req, res) => {
    const rail = railOf(req);
    const authorisation = await provider.cancel(rail, referenceOf(req, 'providerReference', 'authorisation'));
    res.json(authorisationJson(authorisation, authorizationUrl(rail, authorisation.providerReference)));
  });

  router.get('/:rail/authorise/:providerReference', async (req, res) => {
    const rail = railOf(req);
    const authorisation = await provider.readAuthorisation(rail, referenceOf(req, 'providerReference', 'authorisation'));
    sendPage(res, 200, authorisationPage(authorisation, `${req.baseUrl}/${rail}/authorise/${encodeURIComponent(authorisation.providerReference)}`), options.frameAncestors);
  });

  router.post('/:rail/authorise/:providerReference', form, async (req, res) => {
    const rail = railOf(req);
    const providerReference = referenceOf(req, 'providerReference', 'authorisation');
    const { decision } = parse(DecisionBody, req.body);
    const authorisation = await provider.decide(rail, providerReference, decision);
    const status = decision === 'approve' ? 'approved' : 'refused';
    // Only the opaque reference and the outcome travel in the URL; nothing personal.
    const back = returnUrl(authorisation);
    if (back) {
      res.redirect(303, back);
      return;
    }
    const message =
      status === 'approved'
        ? 'You approved the direct debit. Your bank will confirm it shortly. You can close this page.'
        : 'You refused the direct debit. Nothing will be taken from your account. You can close this page.';
    sendPage(res, 200, messagePage(rail, status === 'approved' ? 'Direct debit approved' : 'Direct debit refused', message), options.frameAncestors);
  });

  router.post('/:rail/charges', requireJson, jsonParser, async (req, res) => {
    const rail = railOf(req);
    const { charge } = await provider.createCharge(rail, parse(ChargeBody, req.body));
    // An acknowledgement, also on a replay: the result is read from GET …/charges/{chargeReference}.
    res.status(202).json({ status: 'processing', chargeReference: charge.chargeReference });
  });

  // Looks a charge up by the platform's reference (`?reference=`): 404 when the provider never took it.
  router.get('/:rail/charges', async (req, res) => {
    const rail = railOf(req);
    const reference = typeof req.query.reference === 'string' ? req.query.reference : '';
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(reference)) throw new RailProviderError('invalid_request', 'Give ?reference= (the platform\'s charge reference).');
    const charge = await provider.findCharge(rail, reference);
    if (!charge) throw new RailProviderError('not_found', 'No charge has this reference.');
    res.json(chargeJson(charge));
  });

  router.get('/:rail/charges/:chargeReference', async (req, res) => {
    const rail = railOf(req);
    res.json(chargeJson(await provider.readCharge(rail, referenceOf(req, 'chargeReference', 'charge'))));
  });

  router.use((req) => {
    throw new RailProviderError('not_found', `No route ${req.method} ${req.baseUrl}${req.path}.`);
  });

  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    const failure = asProviderError(error);
    if (!failure) return next(error);
    if (isPageRequest(req)) {
      const rail = String(req.params.rail ?? req.path.split('/')[1]);
      const title = failure.status === 404 ? 'Link not found' : 'This request could not be completed';
      const message =
        failure.status === 404
          ? 'This authorisation link is not valid. Ask the lender for a new one.'
          : failure.code === 'invalid_request'
            ? 'Choose Approve or Refuse on the authorisation page.'
            : failure.message;
      sendPage(res, failure.status, messagePage(isRailName(rail) ? rail : null, title, message), options.frameAncestors);
      return;
    }
    res.status(failure.status).json({ error: failure.code, message: failure.message });
  });
  return router;
}
