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
export type RequestLogMode = 'each' | 'summary';

/**
 * Which request log a process writes: `LOG_REQUESTS` when set; else a summary where a person reads the logs (pretty
 * lines in the development profile: a terminal, where a line per poll of the demo would scroll the start-up links
 * away), one line per request everywhere else (JSON lines for collectors, and always in production).
 */
export function requestLogMode(config: { APP_ENV: string; LOG_FORMAT?: 'json' | 'pretty'; LOG_REQUESTS?: RequestLogMode }, stdoutIsTerminal = Boolean(process.stdout.isTTY)): RequestLogMode {
  if (config.LOG_REQUESTS) return config.LOG_REQUESTS;
  const pretty = (config.LOG_FORMAT ?? (stdoutIsTerminal ? 'pretty' : 'json')) === 'pretty';
  return pretty && config.APP_ENV !== 'production' ? 'summary' : 'each';
}

export function requestLogger(logger: Logger, options: { mode?: RequestLogMode; summaryEveryMs?: number } = {}) {
  const mode = options.mode ?? 'each';
  // Summary mode: requests that went right are counted and written as one line per interval (none when idle).
  let counted = 0;
  let slowestMs = 0;
  if (mode === 'summary') {
    const everyMs = options.summaryEveryMs ?? 60_000;
    setInterval(() => {
      if (counted === 0) return;
      logger.info({ requests: counted, slowestMs }, `${counted} ${counted === 1 ? 'request' : 'requests'} answered in the last ${Math.round(everyMs / 1000)} s (slowest ${slowestMs} ms); those that went wrong are logged one by one`);
      counted = 0;
      slowestMs = 0;
    }, everyMs).unref();
  }
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
      if (mode === 'summary') {
        // One readable line for what went wrong; the rest only in the count.
        const said = `${line.method} ${line.path} → ${line.status} (${line.ms} ms)`;
        if (res.statusCode >= 500) logger.error(line, `request failed: ${said}`);
        else if (res.statusCode >= 400) logger.warn(line, `request refused: ${said}`);
        else {
          counted += 1;
          slowestMs = Math.max(slowestMs, line.ms);
        }
        return;
      }
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}
