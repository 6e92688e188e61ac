/**
 * The demo's partner backend talking to the platform: plain HTTP to the public API with the
 * sandbox organisation's key pair, exactly as a partner's server would. The keys stay in this
 * process; answers come back as status + envelope for the demo routes to pass on.
 */
export interface PartnerKeys {
  publicKey: string;
  secretKey: string;
}

export interface PlatformAnswer<T = Record<string, unknown>> {
  status: number;
  retryAfter?: string;
  body: { status: number; success: boolean; message: string; error?: string; data?: T };
}

/** The platform could not be reached or answered something that is not its envelope. */
export class PlatformUnavailable extends Error {}

export class PartnerApi {
  constructor(
    private readonly baseUrl: string,
    private readonly keys: () => Promise<PartnerKeys>,
  ) {}

  /** One call with the key pair. Never throws for a 4xx/5xx envelope; throws PlatformUnavailable otherwise. */
  async call<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<PlatformAnswer<T>> {
    const keys = await this.keys();
    const headers: Record<string, string> = { 'x-api-public-key': keys.publicKey, 'x-api-secret-key': keys.secretKey, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      throw new PlatformUnavailable(`${method} ${path}: ${(error as Error).message}`);
    }
    const text = await res.text();
    try {
      return { status: res.status, retryAfter: res.headers.get('retry-after') ?? undefined, body: JSON.parse(text) as PlatformAnswer<T>['body'] };
    } catch {
      throw new PlatformUnavailable(`${method} ${path}: ${res.status} with a body that is not JSON`);
    }
  }

  /** A call that must succeed with one of `expected`; anything else becomes a DemoStepFailed carrying the platform's answer. */
  async expect<T = Record<string, unknown>>(expected: number[], method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (!expected.includes(answer.status)) throw new DemoStepFailed(answer);
    return answer.body.data as T;
  }
}

/** The platform refused a step (a 4xx, e.g. 409 for a loan in the wrong state): passed on to the browser as it is. */
export class DemoStepFailed extends Error {
  readonly retryAfter: string | undefined;

  constructor(readonly answer: PlatformAnswer<unknown>) {
    super(answer.body.message);
    this.retryAfter = answer.retryAfter;
  }
}
