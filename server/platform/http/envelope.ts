import type { Request, Response } from 'express';
import type { ErrorCode } from '../domain/errors';
import { errorDocUrl } from './error-docs';

export interface PageMeta {
  total: number;
  page: number;
  limit: number;
  hasNext: boolean;
}

/** The body of every JSON response: the status echoed, a human message, then `data` or `error`. */
export interface Envelope {
  status: number;
  success: boolean;
  message: string;
  data?: unknown;
  error?: string;
  /** Error answers: the code's entry in the error reference (`<base>/docs/errors#<code>`). */
  docUrl?: string;
  meta?: PageMeta;
}

export function successBody(status: number, message: string, data?: unknown, meta?: PageMeta): Envelope {
  const body: Envelope = { status, success: true, message };
  if (data !== undefined) body.data = data;
  if (meta) body.meta = meta;
  return body;
}

/**
 * An error answer; `data` only when the error carries something to act on (e.g. the current offer with a stale reference).
 * `docUrl` links the code's entry of the error reference, on the docs base of this response (`docsBaseMiddleware`).
 */
export function errorBody(res: Response, status: number, code: ErrorCode, message: string, data?: unknown): Envelope {
  const body: Envelope = { status, success: false, message, error: code, docUrl: errorDocUrl(docsBaseOf(res), code) };
  if (data !== undefined) body.data = data;
  return body;
}

export function sendError(res: Response, status: number, code: ErrorCode, message: string, data?: unknown): void {
  res.status(status).json(errorBody(res, status, code, message, data));
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Sets the base of this response's `docUrl` links: `publicBaseUrl` (PUBLIC_BASE_URL) when configured, else the origin the
 * request was sent to (so a link works from wherever the caller reached this server), else `fallback` for a `Host` that
 * is not a plain host name.
 */
export function docsBaseMiddleware(publicBaseUrl: string | undefined, fallback: () => string) {
  const fixed = publicBaseUrl?.replace(/\/$/, '');
  return (req: Request, res: Response, next: () => void) => {
    res.locals.docsBase = fixed ?? requestOrigin(req) ?? fallback();
    next();
  };
}

/** `http(s)://host[:port]` of the request, when its `Host` header is a plain host name (never a path or credentials). */
export function requestOrigin(req: Request): string | undefined {
  const host = req.headers.host;
  return host && HOST.test(host) ? `${req.protocol}://${host.toLowerCase()}` : undefined;
}

function docsBaseOf(res: Response): string {
  return typeof res.locals.docsBase === 'string' ? res.locals.docsBase : '';
}
