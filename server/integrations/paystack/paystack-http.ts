import { z } from 'zod';
import { envelopeData, ProviderError, ProviderHttp, type ProviderHttpOptions } from '../provider-http';

/**
 * Paystack over the shared provider client: base URL, `Authorization: Bearer <secret key>`, and
 * Paystack's envelope `{ status, message, data }` (docs: https://paystack.com/docs/api/ — "Errors":
 * every answer carries `status` and `message`; errors may add `type` (api_error, validation_error,
 * processor_error) and a machine-readable `code`; 200 on any charge or verify request that was
 * processed, 400 validation, 401 bad key, 404 unknown resource, 5xx Paystack's fault).
 *
 * The secret key is only ever put in the Authorization header: never in an error message or a log.
 */

export const PAYSTACK_PROVIDER = 'paystack';
export const PAYSTACK_BASE_URL = 'https://api.paystack.co';

export interface PaystackHttpOptions extends Omit<ProviderHttpOptions, 'provider' | 'baseUrl' | 'headers'> {
  /** `sk_live_…` or `sk_test_…`; a function when the key may rotate while the process runs. */
  secretKey: string | (() => string);
  /** Defaults to https://api.paystack.co; the local fake in tests. */
  baseUrl?: string;
}

export interface PaystackRequest<T> {
  action: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The shape of `data` inside the envelope (answers with no `data`, like deactivate, parse `undefined`). */
  data: z.ZodType<T>;
  idempotent: boolean;
}

const ErrorBody = z.object({ message: z.string().optional(), code: z.string().optional(), type: z.string().optional() }).passthrough();

/**
 * Paystack's error body → a code and message: its own `code` when it sends one (the newer error
 * format), otherwise one derived from the HTTP status, so that callers can still tell a bad key
 * from an unknown resource from a validation refusal.
 */
export const paystackErrorOf = (status: number, body: unknown): { code: string; message: string } => {
  const parsed = ErrorBody.safeParse(body);
  const message = (parsed.success ? parsed.data.message : undefined) ?? 'no error details';
  const own = parsed.success ? parsed.data.code : undefined;
  if (own) return { code: own, message };
  const byStatus: Record<number, string> = { 400: 'paystack_bad_request', 401: 'paystack_unauthorized', 404: 'paystack_not_found', 422: 'paystack_unprocessable', 429: 'paystack_rate_limited' };
  return { code: byStatus[status] ?? `paystack_http_${status}`, message };
};

const Envelope = z.object({ status: z.boolean(), message: z.string().optional(), data: z.unknown().optional(), code: z.string().optional() });

/** One Paystack integration (one secret key): every Paystack adapter shares it, and with it one circuit breaker. */
export class PaystackHttp {
  private readonly http: ProviderHttp;

  constructor(options: PaystackHttpOptions) {
    const { secretKey, baseUrl, ...rest } = options;
    const key = typeof secretKey === 'function' ? secretKey : () => secretKey;
    this.http = new ProviderHttp({
      ...rest,
      provider: PAYSTACK_PROVIDER,
      baseUrl: baseUrl ?? PAYSTACK_BASE_URL,
      headers: () => ({ authorization: `Bearer ${key()}` }),
    });
  }

  get circuitState() {
    return this.http.circuitState;
  }

  /** Sends the request and answers the envelope's `data`; a `status: false` envelope (even with a 200) is a refusal. */
  async request<T>(request: PaystackRequest<T>): Promise<T> {
    const envelope = await this.http.request({
      action: request.action,
      method: request.method,
      path: request.path,
      query: request.query,
      body: request.body,
      schema: Envelope,
      idempotent: request.idempotent,
      errorOf: paystackErrorOf,
    });
    if (!envelope.status) {
      const code = envelope.code ?? 'paystack_refused';
      throw new ProviderError(PAYSTACK_PROVIDER, code, `${PAYSTACK_PROVIDER}: could not ${request.action}: the provider refused (200 ${code}): ${envelope.message ?? 'no error details'}`, 200, false, false);
    }
    return envelopeData(PAYSTACK_PROVIDER, request.action, request.data, envelope.data);
  }
}

/** `0123456789` → `******6789`: account numbers never appear whole in messages or logs. */
export const maskAccountNumber = (accountNumber: string) => `${'*'.repeat(Math.max(0, accountNumber.length - 4))}${accountNumber.slice(-4)}`;
