import { z } from 'zod';
import { envelopeData, ProviderError, ProviderHttp, type ProviderHttpOptions } from '../provider-http';

/**
 * Mono over the shared provider client: base URL, the `mono-sec-key` header (the app's secret key), and Mono's
 * envelope `{ status, message, timestamp?, data }` (docs.mono.co: every answer carries `status` — `successful`, or
 * `failed` with a `message` — and the resource in `data`; 4xx refusals carry the same envelope).
 *
 * The secret key is only ever put in the header: never in an error message or a log.
 */

export const MONO_PROVIDER = 'mono';
export const MONO_BASE_URL = 'https://api.withmono.com';
export const MONO_KEY_HEADER = 'mono-sec-key';

export interface MonoHttpOptions extends Omit<ProviderHttpOptions, 'provider' | 'baseUrl' | 'headers'> {
  /** `live_sk_…` or `test_sk_…`; a function when the key may rotate while the process runs. */
  secretKey: string | (() => string);
  /** Defaults to https://api.withmono.com; the local fake in tests. */
  baseUrl?: string;
}

export interface MonoRequest<T> {
  action: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The shape of `data` inside the envelope. */
  data: z.ZodType<T>;
  idempotent: boolean;
}

const ErrorBody = z.object({ message: z.string().optional(), response_code: z.string().optional(), code: z.string().optional() }).passthrough();

/** Mono's error body → a code and message: its own `response_code`/`code` when it sends one, else one derived from the HTTP status. */
export const monoErrorOf = (status: number, body: unknown): { code: string; message: string } => {
  const parsed = ErrorBody.safeParse(body);
  const message = (parsed.success ? parsed.data.message : undefined) ?? 'no error details';
  const own = parsed.success ? (parsed.data.response_code ?? parsed.data.code) : undefined;
  if (own && /^[a-z][a-z0-9_]*$/i.test(own)) return { code: `mono_${own.toLowerCase()}`, message };
  const byStatus: Record<number, string> = { 400: 'mono_bad_request', 401: 'mono_unauthorized', 403: 'mono_forbidden', 404: 'mono_not_found', 409: 'mono_conflict', 422: 'mono_unprocessable', 429: 'mono_rate_limited' };
  return { code: byStatus[status] ?? `mono_http_${status}`, message };
};

const Envelope = z.object({ status: z.string(), message: z.string().optional(), data: z.unknown().optional() }).passthrough();

/** One Mono app (one secret key): its adapters share it, and with it one circuit breaker. */
export class MonoHttp {
  private readonly http: ProviderHttp;

  constructor(options: MonoHttpOptions) {
    const { secretKey, baseUrl, ...rest } = options;
    const key = typeof secretKey === 'function' ? secretKey : () => secretKey;
    this.http = new ProviderHttp({ ...rest, provider: MONO_PROVIDER, baseUrl: baseUrl ?? MONO_BASE_URL, headers: () => ({ [MONO_KEY_HEADER]: key() }) });
  }

  get circuitState() {
    return this.http.circuitState;
  }

  /** Sends the request and answers the envelope's `data`; a `failed` envelope (even with a 200) is a refusal. */
  async request<T>(request: MonoRequest<T>): Promise<T> {
    const envelope = await this.http.request({
      action: request.action,
      method: request.method,
      path: request.path,
      query: request.query,
      body: request.body,
      schema: Envelope,
      idempotent: request.idempotent,
      errorOf: monoErrorOf,
    });
    if (/^(failed|error)$/i.test(envelope.status)) {
      throw new ProviderError(MONO_PROVIDER, 'mono_refused', `${MONO_PROVIDER}: could not ${request.action}: the provider refused (200): ${envelope.message ?? 'no error details'}`, 200, false, false);
    }
    return envelopeData(MONO_PROVIDER, request.action, request.data, envelope.data);
  }
}
