import type { Response } from 'express';
import type { ErrorCode } from '../domain/errors';

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
  meta?: PageMeta;
}

export function successBody(status: number, message: string, data?: unknown, meta?: PageMeta): Envelope {
  const body: Envelope = { status, success: true, message };
  if (data !== undefined) body.data = data;
  if (meta) body.meta = meta;
  return body;
}

/** An error answer; `data` only when the error carries something to act on (e.g. the current offer with a stale reference). */
export function errorBody(status: number, code: ErrorCode | string, message: string, data?: unknown): Envelope {
  const body: Envelope = { status, success: false, message, error: code };
  if (data !== undefined) body.data = data;
  return body;
}

export function sendError(res: Response, status: number, code: ErrorCode, message: string, data?: unknown): void {
  res.status(status).json(errorBody(status, code, message, data));
}
