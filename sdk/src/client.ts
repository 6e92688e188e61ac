import createClient, { mergeHeaders, type Client, type FetchResponse, type HeadersOptions, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './schema.js';
import { LendingApiError } from './errors.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import { pageOf, type PageItem } from './paginate.js';

export interface LendingClientOptions {
  /** The platform's origin, e.g. `https://lending.example.com` (no trailing path). */
  baseUrl: string;
  /** `pk_test_…` or `pk_live_…`. */
  publicKey: string;
  /** `sk_test_…` or `sk_live_…` of the same pair. Server side only: never ship it to a browser. */
  secretKey: string;
  /** Send a fresh `Idempotency-Key` (a random UUID) with every POST that has none (default true). */
  idempotencyKeys?: boolean;
  /** The retry policy, or `false` for a single attempt (see `RetryOptions`). */
  retry?: RetryOptions | false;
  /** The `fetch` to use (default `globalThis.fetch`). */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Options of one call, beside openapi-fetch's own (`params`, `body`, `headers`, `signal`, …). */
export interface CallOptions {
  /**
   * The `Idempotency-Key` of this call: a string to choose it (reuse it to repeat the call safely, e.g. after a
   * crash), `false` to send none. By default a POST gets a random UUID. All retries of one call send the same key.
   */
  idempotencyKey?: string | false;
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Media = `${string}/${string}`;
/** The paths that have an operation for `M`. */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
type Operation<P extends keyof paths, M extends Method> = paths[P][M] & Record<string | number, any>;
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** The second argument of a call: openapi-fetch's options for the operation plus `CallOptions`. */
export type CallInit<P extends keyof paths, M extends Method> = NonNullable<MaybeOptionalInit<paths[P], M>> & CallOptions;
type CallArgs<P extends keyof paths, M extends Method> = [RequiredKeysOf<CallInit<P, M>>] extends [never] ? [init?: CallInit<P, M>] : [init: CallInit<P, M>];
/** The body of the operation's success answer. */
export type ResponseBody<P extends keyof paths, M extends Method> = NonNullable<FetchResponse<Operation<P, M>, {}, Media>['data']>;
/** The GET paths whose answer holds a list (`paginate` accepts these). */
export type ListPath = { [P in PathsWith<'get'>]: [PageItem<ResponseBody<P, 'get'>>] extends [never] ? never : P }[PathsWith<'get'>];

/**
 * A typed client of the platform's APIs (lending `/v1`, patient financing `/api/v1/sdk`, telemedicine
 * `/api/v1/appointment…`): every path, parameter and body is checked against the OpenAPI document. A call resolves to
 * the answer's body or throws `LendingApiError` (any non-2xx) or `LendingConnectionError` (no answer).
 */
export class LendingClient {
  /** The underlying openapi-fetch client (same credentials and retries; answers are returned, not thrown). */
  readonly raw: Client<paths, Media>;
  private readonly idempotencyKeys: boolean;

  constructor(options: LendingClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. http://localhost:3000');
    if (!options.publicKey?.startsWith('pk_') || !options.secretKey?.startsWith('sk_')) {
      throw new TypeError('publicKey (pk_…) and secretKey (sk_…) are required: the key pair from the dashboard');
    }
    const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.raw = createClient<paths, Media>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: retryingFetch(baseFetch, options.retry),
      headers: { ...options.headers, 'X-API-Public-Key': options.publicKey, 'X-API-Secret-Key': options.secretKey },
    });
    this.idempotencyKeys = options.idempotencyKeys ?? true;
  }

  get<P extends PathsWith<'get'>>(path: P, ...init: CallArgs<P, 'get'>): Promise<ResponseBody<P, 'get'>> {
    return this.call('get', path, init[0]);
  }

  post<P extends PathsWith<'post'>>(path: P, ...init: CallArgs<P, 'post'>): Promise<ResponseBody<P, 'post'>> {
    return this.call('post', path, init[0]);
  }

  put<P extends PathsWith<'put'>>(path: P, ...init: CallArgs<P, 'put'>): Promise<ResponseBody<P, 'put'>> {
    return this.call('put', path, init[0]);
  }

  patch<P extends PathsWith<'patch'>>(path: P, ...init: CallArgs<P, 'patch'>): Promise<ResponseBody<P, 'patch'>> {
    return this.call('patch', path, init[0]);
  }

  delete<P extends PathsWith<'delete'>>(path: P, ...init: CallArgs<P, 'delete'>): Promise<ResponseBody<P, 'delete'>> {
    return this.call('delete', path, init[0]);
  }

  /**
   * Every item of a list, page after page: follows `page` while the answer says there is a next one (`meta.hasNext`,
   * `pagination.hasNext`, or `page` < `totalPages`), starting at `params.query.page` (default 1). A list without
   * paging (e.g. `/v1/loans`, newest first up to `limit`) is one page.
   */
  async *paginate<P extends ListPath>(path: P, ...init: CallArgs<P, 'get'>): AsyncGenerator<PageItem<ResponseBody<P, 'get'>>, void, undefined> {
    const first = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    let page = Number(first.params?.query?.page ?? 1);
    for (;;) {
      const params = { ...first.params, query: { ...first.params?.query, ...(page > 1 || first.params?.query?.page !== undefined ? { page } : {}) } };
      const body: unknown = await this.call('get', path, { ...first, params } as never);
      const { items, hasNext } = pageOf(body, page);
      yield* items as PageItem<ResponseBody<P, 'get'>>[];
      if (!hasNext || items.length === 0) return;
      page += 1;
    }
  }

  private async call(method: Method, path: string, init: (CallOptions & { headers?: HeadersOptions; params?: { header?: Record<string, unknown> } }) | undefined): Promise<never> {
    const { idempotencyKey, ...rest } = init ?? {};
    let headers = rest.headers;
    const given = mergeHeaders(rest.headers, rest.params?.header as HeadersOptions | undefined).get('idempotency-key');
    if (!given && idempotencyKey !== false) {
      const key = idempotencyKey ?? (method === 'post' && this.idempotencyKeys ? globalThis.crypto.randomUUID() : undefined);
      if (key) headers = mergeHeaders(rest.headers, { 'Idempotency-Key': key });
    }
    const { data, error, response } = await (this.raw.request as (m: string, p: string, i: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(
      method,
      path,
      { ...rest, headers },
    );
    if (!response.ok) throw LendingApiError.fromResponse(response, error);
    return data as never;
  }
}

export function createLendingClient(options: LendingClientOptions): LendingClient {
  return new LendingClient(options);
}
