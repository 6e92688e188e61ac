import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../server/platform/domain/errors';
import { errorBody } from '../../server/platform/http/envelope';
import type { Config } from '../../server/config';
import type { Platform } from '../../server/platform/platform';
import { DEMO_ACTIONS, DemoError, DemoRuns, type DemoAction } from './demo-runs';
import { DemoStepFailed, PlatformUnavailable } from './partner-api';
import { DEMO_PAGE_CSP, renderDemoPage } from './page';
import { SCENARIO_IDS, SCENARIOS } from './scenarios';
import { staticAssets } from '../../server/checkout/static-assets';

export interface DemoRouterOptions {
  platform: Platform;
  /** How the demo's partner backend reaches the platform's API (the process's own loopback address). */
  apiBaseUrl: string;
  /** The built demo bundle (`npm run build:demo`). */
  bundleFile?: string;
}

const DEFAULT_BUNDLE = path.resolve('dist/demo/demo.js');
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const hostName = (host: string) => host.replace(/:\d+$/, '');

const RunBody = z.object({ scenario: z.string() }).strict();
const EventsQuery = z.object({ after: z.uuid().optional() }).strict();

/** The demo is served only where the sandbox is: its organisation bootstrapped and its routes mounted. */
export const demoEnabled = (config: Pick<Config, 'SANDBOX_ROUTES_ENABLED' | 'BOOTSTRAP_SANDBOX'>) => config.SANDBOX_ROUTES_ENABLED && config.BOOTSTRAP_SANDBOX;

/**
 * Every refusal of the demo's routes is the platform's error envelope: a code of the error table and a `docUrl` to its
 * entry (`docs/errors.md`), on the docs base the platform chose for this response (its public URL or the request's origin).
 */
function fail(res: Response, status: number, code: ErrorCode, message: string): void {
  res.status(status).json(errorBody(res, status, code, message));
}

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

/**
 * The sales demo at `/demo`: the page (a Lit app, `demo/app/`) and the JSON routes it calls. The
 * routes play the partner with the sandbox organisation's key pair, held only here; see
 * `DemoRuns`. Mounted by the app only when the sandbox is bootstrapped and its routes are on.
 *
 * Routes (all JSON envelopes `{status, success, message, data | error, docUrl}`):
 * - `GET  /api/scenarios`                    the scenarios a run can play
 * - `POST /api/runs` `{scenario}`            starts a run (201), 400 `invalid_scenario`
 * - `GET  /api/runs/:runId`                  the run: borrower, pre-approval, loan, checkout link, next actions
 * - `GET  /api/runs/:runId/events?after=id`  the run's events from the platform's event log, in order
 * - `GET  /api/runs/:runId/sms`              the borrower's sandbox SMS inbox
 * - `POST /api/runs/:runId/actions/:action`  approve | reject | disburse | repay; 409 `action_not_available`
 */
export function createDemoRouter(options: DemoRouterOptions): express.Router {
  const { platform } = options;
  const runs = new DemoRuns(platform, options.apiBaseUrl.replace(/\/$/, ''));
  const bundleFile = options.bundleFile ?? DEFAULT_BUNDLE;
  const router = express.Router();

  router.get('/', (req, res) => {
    res.setHeader('Content-Security-Policy', DEMO_PAGE_CSP);
    // The links the platform hands out (the rail's page) point at PUBLIC_BASE_URL: the phone frame only
    // works on that origin, so a local alias (127.0.0.1 for localhost) is sent there.
    const publicUrl = new URL(platform.baseUrl);
    const host = req.get('host') ?? '';
    if (host !== publicUrl.host && LOOPBACK_HOSTS.has(hostName(host)) && LOOPBACK_HOSTS.has(publicUrl.hostname)) {
      res.redirect(307, `${publicUrl.origin}${req.baseUrl}`);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(renderDemoPage({ basePath: req.baseUrl }));
  });

  const assets = staticAssets(path.dirname(bundleFile));
  router.get('/assets/demo.js', (req, res) => {
    // Precompressed at build (brotli, gzip) when the build wrote them; always revalidated (a demo is rebuilt often).
    const hashed = assets.hashed(path.basename(bundleFile));
    if (hashed) return assets.send(req, res, hashed, 'revalidate');
    if (!fs.existsSync(bundleFile)) {
      res.status(404).type('application/javascript').send('// The demo is not built yet: npm run build:demo\n');
      return;
    }
    res.sendFile(bundleFile, { maxAge: 0, headers: { 'content-type': 'application/javascript; charset=utf-8' } });
  });

  const api = express.Router();
  api.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    // Every POST is JSON, even an empty `{}`: no other site's form can post here, and a cross-site fetch needs a preflight that is never granted.
    if (req.method === 'POST' && !req.is('application/json')) return fail(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  api.use(express.json({ limit: '4kb', strict: true }));

  const runId = (req: Request) => String(req.params.runId);

  api.get('/scenarios', (_req, res) => {
    res.json({ status: 200, success: true, message: 'Demo scenarios', data: SCENARIO_IDS.map((id) => SCENARIOS[id]) });
  });

  api.post('/runs', async (req, res) => {
    const body = RunBody.safeParse(req.body ?? {});
    const scenario = body.success ? body.data.scenario : undefined;
    if (!body.success || !(SCENARIO_IDS as readonly string[]).includes(scenario!)) {
      return fail(res, 400, 'invalid_scenario', `scenario: one of ${SCENARIO_IDS.join(', ')} (and no other fields).`);
    }
    const run = await runs.start(scenario as (typeof SCENARIO_IDS)[number]);
    res.status(201).json({ status: 201, success: true, message: 'Demo run started', data: run });
  });

  api.get('/runs/:runId', async (req, res) => {
    res.json({ status: 200, success: true, message: 'Demo run', data: await runs.read(runId(req)) });
  });

  api.get('/runs/:runId/events', async (req, res) => {
    const query = EventsQuery.safeParse(req.query);
    if (!query.success) return fail(res, 400, 'invalid_request', 'after: the id of the last event seen (a UUID), or nothing.');
    res.json({ status: 200, success: true, message: 'Run events', data: await runs.events(runId(req), query.data.after) });
  });

  api.get('/runs/:runId/sms', async (req, res) => {
    res.json({ status: 200, success: true, message: 'Sandbox SMS inbox (test mode only)', data: { messages: await runs.inbox(runId(req)) } });
  });

  api.post('/runs/:runId/actions/:action', async (req, res) => {
    const action = String(req.params.action);
    if (!(DEMO_ACTIONS as readonly string[]).includes(action)) return fail(res, 400, 'invalid_action', `action: one of ${DEMO_ACTIONS.join(', ')}.`);
    res.json({ status: 200, success: true, message: 'Done', data: await runs.act(runId(req), action as DemoAction) });
  });

  api.use((req: Request, res: Response) => fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`));
  api.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof DemoError) return fail(res, error.status, error.code, error.message);
    if (error instanceof DemoStepFailed) {
      const { status, body } = error.answer;
      // A refusal of the platform is the demo's refusal too; a platform failure is the demo's bad gateway.
      if (error.retryAfter) res.setHeader('Retry-After', error.retryAfter);
      // The platform's code is kept (and linked on this response's docs base, which the browser reached); a refusal
      // without a known code is the demo's `platform_refused`.
      if (status < 500) {
        return isErrorCode(body.error) ? fail(res, status, body.error, body.message) : fail(res, ERROR_STATUS.platform_refused, 'platform_refused', body.message || 'The lending platform refused this step.');
      }
      platform.logger.error({ status, error: body.error }, 'demo: the platform failed a step');
      return fail(res, 502, 'platform_error', 'The lending platform failed this step; it is safe to retry.');
    }
    if (error instanceof PlatformUnavailable) {
      platform.logger.error({ err: error }, 'demo: platform unreachable');
      return fail(res, 502, 'platform_unavailable', 'The lending platform could not be reached; it is safe to retry.');
    }
    if (error instanceof AppError && error.status < 500) return fail(res, error.status, error.code, error.message);
    const bodyError = error as { type?: string };
    if (bodyError?.type === 'entity.parse.failed') return fail(res, 400, 'INVALID_JSON', 'The body is not valid JSON (send a JSON object).');
    if (bodyError?.type === 'entity.too.large') return fail(res, 413, 'PAYLOAD_TOO_LARGE', 'Body too large.');
    platform.logger.error({ err: error }, 'demo: unhandled error');
    fail(res, 500, 'INTERNAL_ERROR', 'Something went wrong in the demo; it is safe to retry.');
  });
  router.use('/api', api);
  return router;
}
