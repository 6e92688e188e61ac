import { z } from 'zod';
import type {
  ChargeRequest,
  InitialiseAuthorisationRequest,
  PaymentRail,
  ProviderAuthorisationStatus,
  ProviderChargeStatus,
  RailName,
} from './payment-rail';
import { PaymentRailError } from './payment-rail-error';

const AuthorisationCreated = z.object({ authorizationUrl: z.string().min(1), providerReference: z.string().min(1) });
const Authorisation = z.object({
  status: z.enum(['pending', 'approved', 'active', 'refused', 'cancelled']),
  authorizationCode: z.string().nullable(),
});
const ChargeAccepted = z.object({ status: z.literal('processing'), chargeReference: z.string().min(1) });
const Charge = z.object({ status: z.enum(['processing', 'succeeded', 'failed']), failureReason: z.string().nullable() });
const FoundCharge = Charge.extend({ chargeReference: z.string().min(1) });
const ProviderFailure = z.object({ error: z.string(), message: z.string() });

export interface SandboxRailAdapterOptions {
  /** Per call; the provider is "another company" on the other side of a network. */
  timeoutMs?: number;
}

/**
 * The platform's side of a sandbox rail: the `PaymentRail` port spoken over HTTP to the provider
 * at `${baseUrl}/sandbox/rails/${name}`, exactly as an adapter for a real provider would. Provider
 * refusals, failures, timeouts and unreadable answers all become a `PaymentRailError`.
 */
export class SandboxRailAdapter implements PaymentRail {
  private readonly root: string;
  private readonly timeoutMs: number;

  constructor(
    readonly name: RailName,
    baseUrl: string,
    options: SandboxRailAdapterOptions = {},
  ) {
    this.root = `${baseUrl.replace(/\/+$/, '')}/sandbox/rails/${name}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async initialiseAuthorisation(request: InitialiseAuthorisationRequest): Promise<{ authorizationUrl: string; providerReference: string }> {
    const body = await this.call('start the authorisation', 'POST', '/authorisations', request, AuthorisationCreated);
    return { authorizationUrl: body.authorizationUrl, providerReference: body.providerReference };
  }

  async readAuthorisation(providerReference: string): Promise<{ status: ProviderAuthorisationStatus; authorizationCode: string | null }> {
    const body = await this.call('read the authorisation', 'GET', `/authorisations/${encodeURIComponent(providerReference)}`, undefined, Authorisation);
    return { status: body.status, authorizationCode: body.status === 'active' ? body.authorizationCode : null };
  }

  async charge(request: ChargeRequest): Promise<{ status: 'processing'; chargeReference: string }> {
    const body = await this.call('start the charge', 'POST', '/charges', request, ChargeAccepted);
    return { status: 'processing', chargeReference: body.chargeReference };
  }

  async readCharge(chargeReference: string): Promise<{ status: ProviderChargeStatus; failureReason: string | null }> {
    const body = await this.call('read the charge', 'GET', `/charges/${encodeURIComponent(chargeReference)}`, undefined, Charge);
    return { status: body.status, failureReason: body.status === 'failed' ? body.failureReason : null };
  }

  async findCharge(reference: string): Promise<{ chargeReference: string; status: ProviderChargeStatus; failureReason: string | null } | null> {
    try {
      const body = await this.call('look the charge up', 'GET', `/charges?reference=${encodeURIComponent(reference)}`, undefined, FoundCharge);
      return { chargeReference: body.chargeReference, status: body.status, failureReason: body.status === 'failed' ? body.failureReason : null };
    } catch (error) {
      if (error instanceof PaymentRailError && error.httpStatus === 404) return null;
      throw error;
    }
  }

  async cancel(providerReference: string): Promise<void> {
    await this.call('cancel the authorisation', 'POST', `/authorisations/${encodeURIComponent(providerReference)}/cancel`, undefined, Authorisation);
  }

  private async call<T>(action: string, method: 'GET' | 'POST', path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    // A write that timed out or failed on the provider's side may have taken effect.
    const mayHaveTakenEffect = (httpStatus: number | null) => method === 'POST' && (httpStatus === null || httpStatus >= 500);
    const fail = (code: string, detail: string, httpStatus: number | null, retryable: boolean, cause?: unknown, neverSent = false) =>
      new PaymentRailError(this.name, code, `${this.name}: could not ${action}: ${detail}`, httpStatus, retryable, {
        cause,
        outcomeUnknown: retryable && mayHaveTakenEffect(httpStatus) && !neverSent,
      });

    // Only a connection that was never made sent nothing; one reset or dropped after the request left (the
    // provider's process dying with the charge committed and the answer unsent) may have taken effect.
    const unreachable = (error: unknown) =>
      (error as Error)?.name === 'TimeoutError'
        ? fail('rail_timeout', `no answer within ${this.timeoutMs} ms (the outcome is unknown: read it back before retrying).`, null, true, error)
        : fail('rail_unreachable', `the provider could not be reached (${(error as Error)?.message ?? String(error)}).`, null, true, error, neverConnected(error));

    let res: Response;
    try {
      res = await fetch(`${this.root}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw unreachable(error);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      // The request reached the provider (it answered): a lost body leaves a write's outcome unknown.
      throw fail('rail_unreachable', `the answer was lost (${(error as Error)?.message ?? String(error)}).`, null, true, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw fail('rail_bad_response', `the provider answered ${res.status} with a body that is not JSON.`, res.status, res.status >= 500, error);
    }
    if (!res.ok) {
      const failure = ProviderFailure.safeParse(parsed);
      const code = failure.success ? failure.data.error : 'rail_bad_response';
      const message = failure.success ? failure.data.message : 'no error details';
      const retryable = res.status >= 500 || res.status === 429;
      throw fail(code, `the provider refused (${res.status} ${code}): ${message}`, res.status, retryable);
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      throw fail('rail_bad_response', `the provider's answer does not have the expected shape (${result.error.issues[0]?.message ?? 'invalid'}).`, res.status, false);
    }
    return result.data;
  }
}

/** Errors of a connection that was never made (so no request left): refused, or a name that does not resolve. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function neverConnected(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' && NEVER_CONNECTED.has(cause.code);
}
