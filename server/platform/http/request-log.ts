import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { maskSecrets } from '../log/mask-secrets';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdOf(res: Response): string {
  return String(res.locals.requestId ?? '');
}

/** The request's logger: every line it writes carries the request id. Created on first use. */
export function requestLog(res: Response, base: Logger): Logger {
  return (res.locals.log ??= base.child({ reqId: requestIdOf(res) }));
}

/**
 * Assigns the request id (keeps a sane `X-Request-Id` from the caller), echoes it, and writes one
 * line when the response finishes: method, path (no query string, and masked: checkout tokens,
 * meeting keys and rail references travel in paths), status, duration. Headers and bodies are never
 * logged: they carry keys and personal data.
 */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => {
      const line = {
        reqId: id,
        method: req.method,
        path: maskSecrets(req.originalUrl.split('?')[0]!),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}
