/**
 * The errors the client raises. Every answer that is not a 2xx becomes a `LendingApiError`; a request that never got
 * an answer (connection refused or reset, DNS, TLS) becomes a `LendingConnectionError` once its retries are spent; a
 * webhook that does not verify raises `WebhookVerificationError` (see webhooks.ts).
 */

/** The platform's error envelope: `{status, success: false, message, error, data?}` (`docUrl` when the answer carries one). */
interface ErrorEnvelope {
  status?: unknown;
  message?: unknown;
  error?: unknown;
  data?: unknown;
  docUrl?: unknown;
  requestId?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Raised for every non-2xx answer of the platform. Branch on `status` first and `code` second; `message` is for people. */
export class LendingApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The machine-readable error code (the answer's `error`, e.g. `invalid_loan_state`); `http_<status>` when the body had none. */
  readonly code: string;
  /** The request id (`X-Request-Id`): quote it to support. */
  readonly requestId: string | undefined;
  /** What the error carries to act on (e.g. the current offer after a stale reference), when the answer has `data`. */
  readonly data: unknown;
  /** Where the error code is documented, when the answer carries a `docUrl`. */
  readonly docUrl: string | undefined;
  /** Seconds the platform asked to wait before trying again (`Retry-After` of a 429 or 503), when given. */
  readonly retryAfterSeconds: number | undefined;
  /** The parsed body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(init: { status: number; code: string; message: string; requestId?: string; data?: unknown; docUrl?: string; retryAfterSeconds?: number; body?: unknown }) {
    super(init.message);
    this.name = 'LendingApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.data = init.data;
    this.docUrl = init.docUrl;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.body = init.body;
  }

  /** Builds the error from an answer and its parsed body. */
  static fromResponse(response: Response, body: unknown): LendingApiError {
    const envelope: ErrorEnvelope = typeof body === 'object' && body !== null ? (body as ErrorEnvelope) : {};
    const retryAfter = parseRetryAfterMs(response.headers.get('retry-after'), Date.now());
    return new LendingApiError({
      status: response.status,
      code: text(envelope.error) ?? `http_${response.status}`,
      message: text(envelope.message) ?? (typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `HTTP ${response.status}`),
      requestId: text(response.headers.get('x-request-id')) ?? text(envelope.requestId),
      data: envelope.data,
      docUrl: text(envelope.docUrl),
      retryAfterSeconds: retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
      body,
    });
  }
}

/** Raised when a request got no answer at all (after its retries, when it was safe to retry). `cause` is the fetch error. */
export class LendingConnectionError extends Error {
  /** How many attempts were made. */
  readonly attempts: number;

  constructor(message: string, options: { cause: unknown; attempts: number }) {
    super(message, { cause: options.cause });
    this.name = 'LendingConnectionError';
    this.attempts = options.attempts;
  }
}

/**
 * `Retry-After` as milliseconds from `nowMs`: delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`).
 * A date in the past means "now" (0); anything unreadable is `undefined`.
 */
export function parseRetryAfterMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
