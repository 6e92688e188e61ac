import express, { type NextFunction, type Request, type Response } from 'express';
import type { Platform } from '../platform';
import { AppError } from '../domain/errors';
import { authenticateMiddleware } from './authenticate';
import { mountRoutes, type RouteSpec } from './route';

/**
 * The partner-credential chain (key pair → usage → rate limit → JSON body) for the telemedicine
 * routes under `/api/v1/appointment…`. It only claims paths of its own resource, so other `/api/v1`
 * routers (patient financing) mounted beside it keep theirs and a request is metered once.
 */
export function telemedicineApi(platform: Platform, routes: RouteSpec[]) {
  const api = express.Router();
  api.use(authenticateMiddleware(platform.authenticator));
  api.use((_req, res, next) => {
    const auth = res.locals.auth;
    res.on('finish', () => platform.usage.record(auth.organisationId, auth.mode, res.statusCode));
    next();
  });
  api.use(platform.rateLimits.middleware());
  api.use((req, _res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  api.use(express.json({ limit: platform.config.BODY_LIMIT_BYTES, strict: true }));
  mountRoutes(api, '/api/v1', routes.filter((r) => r.path.startsWith('/api/v1/appointment')), platform);
  api.use((req) => {
    throw new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`);
  });
  const ownPath = /^\/appointment(\/|$)/;
  return (req: Request, res: Response, next: NextFunction) => (ownPath.test(req.path) ? api(req, res, next) : next());
}
