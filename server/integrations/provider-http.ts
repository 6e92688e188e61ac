import {
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  type RetryPolicy,
} from 'cockatiel';
import type { z } from 'zod';

/**
 * Raised by every real provider adapter: the provider refused (a 4xx with its own code), failed
 * (5xx), answered something unreadable, could not be reached, or is behind an open circuit.
 * - `retryable`: the same call may succeed later (network trouble, 5xx, 429, circuit open);
 * - `outcomeUnknown`: the request may have reached the provider and taken effect (timeout, 5xx,
 *   a dropped connection after sending). A money-moving caller must read the outcome back
 *   before doing anything else; it must never assume the call failed.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly provider: string,
    readonly code: string,
    message: string,
    readonly httpStatus: number | null,
    readonly retryable: boolean,
    readonly outcomeUnknown: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ProviderHttpOptions {
  /** Provider name for errors and logs (`paystack`, `termii`, …). */
  provider: string;
  baseUrl: string;
  /** Headers sent with every request (credentials); read at call time. */
  headers?: () => Record<string, string>;
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts for idempotent calls (1 = no retry). */
  maxAttempts?: number;
  /** First backoff delay; doubles (with jitter) up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Consecutive failures that open the circuit, and how long it stays open before one trial call. */
  breakerThreshold?: number;
  halfOpenAfterMs?: number;
}

export interface ProviderRequest<T> {
  /** What the call does, in words, for error messages ("resolve the account"). */
  action: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
  schema: z.ZodType<T>;
  /** Safe to send twice (a read, or a write the provider deduplicates): retried with backoff. Money-moving calls that are not say false. */
  idempotent: boolean;
  /** The provider's error body → its code and message (defaults to `message`/`error`/`code` fields). */
  errorOf?: (status: number, body: unknown) => { code: string; message: string };
}

const defaultErrorOf = (status: number, body: unknown): { code: string; message: string } => {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
  return { code: text('code') ?? text('error') ?? `http_${status}`, message: text('message') ?? text('error') ?? 'no error details' };
};

/**
 * One provider's HTTP client: JSON over fetch with a per-attempt timeout, retries with exponential
 * backoff for idempotent calls, and a circuit breaker (cockatiel) that stops calling a provider
 * that keeps failing and answers `provider_circuit_open` at once until a trial call succeeds.
 * Only faults count against the circuit (network, timeout, 5xx, 429, 424); a refusal (other 4xx) is an answer.
 */
export class ProviderHttp {
  private readonly root: string;
  private readonly timeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly breaker: CircuitBreakerPolicy;

  constructor(private readonly options: ProviderHttpOptions) {
    this.root = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const isFault = handleWhen((error) => error instanceof ProviderError && error.retryable && error.code !== 'provider_circuit_open');
    this.breaker = circuitBreaker(isFault, {
      halfOpenAfter: options.halfOpenAfterMs ?? 30_000,
      breaker: new ConsecutiveBreaker(options.breakerThreshold ?? 5),
    });
    this.retryPolicy = retry(isFault, {
      maxAttempts: Math.max(0, (options.maxAttempts ?? 3) - 1),
      backoff: new ExponentialBackoff({ initialDelay: options.initialDelayMs ?? 200, maxDelay: options.maxDelayMs ?? 5_000 }),
    });
  }

  /** `open` while the provider is being left alone after repeated faults. */
  get circuitState(): 'closed' | 'open' | 'half-open' | 'isolated' {
    const state = this.breaker.state;
    return (['closed', 'open', 'half-open', 'isolated'] as const)[state] ?? 'closed';
  }

  async request<T>(request: ProviderRequest<T>): Promise<T> {
    const once = () => this.breaker.execute(() => this.send(request));
    try {
      return request.idempotent ? await this.retryPolicy.execute(once) : await once();
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new ProviderError(
          this.options.provider,
          'provider_circuit_open',
          `${this.options.provider}: could not ${request.action}: the provider failed repeatedly and is being left alone for a while (nothing was sent).`,
          null,
          true,
          false,
          { cause: error },
        );
      }
      throw error;
    }
  }

  private async send<T>(request: ProviderRequest<T>): Promise<T> {
    const { provider } = this.options;
    const fail = (code: string, detail: string, httpStatus: number | null, retryable: boolean, outcomeUnknown: boolean, cause?: unknown) =>
      new ProviderError(provider, code, `${provider}: could not ${request.action}: ${detail}`, httpStatus, retryable, outcomeUnknown, { cause });
    const url = new URL(`${this.root}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    let res: Response;
    try {
      res = await fetch(url, {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...this.options.headers?.(),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') {
        throw fail('provider_timeout', `no answer within ${this.timeoutMs} ms (the outcome is unknown: read it back before retrying).`, null, true, true, error);
      }
      // Refused or reset before an answer: a refused connection sent nothing, a reset may have; treat both as unknown for writes.
      throw fail('provider_unreachable', `the provider could not be reached (${(error as Error)?.message ?? String(error)}).`, null, true, request.method !== 'GET', error);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      throw fail('provider_timeout', `the answer did not arrive within ${this.timeoutMs} ms.`, res.status, true, true, error);
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      const fault = res.status >= 500 || res.status === 429;
      throw fail('provider_bad_response', `the provider answered ${res.status} with a body that is not JSON.`, res.status, fault, res.status >= 500, error);
    }
    if (!res.ok) {
      const { code, message } = (request.errorOf ?? defaultErrorOf)(res.status, parsed);
      // 424 Failed Dependency: the provider's own upstream (a registry) failed — an outage, not an answer.
      const fault = res.status >= 500 || res.status === 429 || res.status === 424;
      throw fail(code, `the provider refused (${res.status} ${code}): ${message}`, res.status, fault, res.status >= 500);
    }
    const result = request.schema.safeParse(parsed);
    if (!result.success) {
      throw fail('provider_bad_response', `the answer does not have the expected shape (${result.error.issues[0]?.path.join('.') ?? ''} ${result.error.issues[0]?.message ?? 'invalid'}).`, res.status, false, false);
    }
    return result.data;
  }
}

/**
 * The resource inside a provider's envelope (`data`, once the envelope itself has been read as a success), checked
 * against its expected shape; any other shape is `provider_bad_response` (not retried: asking again gets the same).
 */
export function envelopeData<T>(provider: string, action: string, schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ProviderError(
    provider,
    'provider_bad_response',
    `${provider}: could not ${action}: the answer's data does not have the expected shape (${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}).`,
    200,
    false,
    false,
  );
}
