import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors';
import { ERROR_DOCS } from '../domain/error-docs';
import { errorDocUrl } from './error-docs';
import { addOperationExamples } from './openapi-examples';
import type { RouteSpec } from './route';
import { EVENT_CATALOGUE } from '../domain/events/catalogue';
import { WEBHOOK_DELIVERY_DESCRIPTION, WebhookEnvelopeSchema } from './event-schemas';
import { SDK_EVENT_CATALOGUE } from '../domain/financing/sdk-catalogue';
import { SdkWebhookEnvelopeSchema } from './sdk-event-schemas';
import { requiredScope } from './route-scopes';
import { API_SCOPE_AREAS, API_SCOPE_AREA_LABELS } from '../../shared/api-key-scopes';

const TAG_DESCRIPTIONS: Record<string, string> = {
  Products: 'Loan products: read-only over the API.',
  Borrowers: 'Borrowers created from pushed decisions.',
  Providers: 'The public directory of healthcare providers (the same for every partner).',
  Pools: 'Ring-fenced capital pools that fund disbursements.',
  Usage: 'Metering of authenticated API calls.',
  'Pre-approvals': 'Credit decisions pushed by the partner and the offers issued from them.',
  Loans: 'The loan lifecycle: approval, KYC, offer acceptance, disbursement, schedule, repayments.',
  Settlements: 'Statements of the fee and interest swept to the organisation wallet.',
  Reviews:
    'Loans waiting for a person: a review opens when an automatic check cannot pass a loan (no AML screen in live mode without a provider, a screen hit). ' +
    'You are the lender, so you decide: clear it (the loan goes on as an automatic pass would have) or reject it (the loan is rejected), each with a reason. ' +
    '`review.opened` and `review.closed` tell your webhooks.',
  Mandates: 'Direct-debit mandates on payment rails.',
  Payouts: 'Payouts of a borrower\'s ledger balance to a bank account, reserved at request time and settled off-platform.',
  Sandbox: 'Test-mode helpers (test keys only).',
  'Checkout sessions': 'Checkout sessions the partner mints for a loan (the borrower\'s restricted credential for the hosted checkout).',
  Checkout:
    'Borrower-session routes, called by the checkout server with `Authorization: CheckoutSession <token>` (never an API key; a session token reaches ' +
    'nothing else). Each acts on the session\'s one loan: there are no ids in the paths. Every step but the state needs the phone verified by OTP first ' +
    '(403 `checkout_otp_required`). An expired session answers 401 `checkout_session_expired`, a revoked one 401 `checkout_session_revoked`.',
  Appointments:
    'Telemedicine (under `/api/v1`): appointments with a real audio/video meeting per participant link. These routes answer their own ' +
    'bodies (not the `{status, success, message, data}` envelope), each with `success`; errors use the error envelope. Appointment events ' +
    '(`appointment.*`) are delivered through the same webhooks.',
  Webhooks: `Webhook endpoints, their signing secrets, and the delivery log (event log).\n\n${WEBHOOK_DELIVERY_DESCRIPTION}`,
  'Patient financing':
    'Patient financing, under `/api/v1/sdk` (same key pair and tenancy rules; the Loan Tenant permission is not needed). The service is the lender: the partner ' +
    'initiates, sends the patient to `applicationUrl` (phone OTP → full name, BVN, date of birth and declared income → bureau check → decision and tenor ' +
    'choice → offer signature → bank account and direct debit) and follows progress by webhooks. The loan is funded from the service\'s own pool and ' +
    'disbursed (the treatment amount settles to your organisation wallet, `loan.disbursed`) only once the direct debit is live at the provider.\n\n' +
    '**Money:** `treatmentAmount` and every amount are integer kobo; sending naira finances a hundredth of the amount.\n\n' +
    '**Errors:** the platform envelope `{status, success: false, message, error}`; `error` is machine-readable. Another organisation\'s loan answers 404.\n\n' +
    '**Webhooks:** register with `POST /api/v1/sdk/webhook-endpoints`. Body `SdkWebhookEnvelope` `{event, timestamp, data}`; headers `X-Service-Event`, ' +
    '`X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with your API secret key `sk_…`; compare in constant time), ' +
    '`X-Service-Event-Id` (stable: de-duplicate on it). Events: ' +
    Object.keys(SDK_EVENT_CATALOGUE).map((n) => `\`${n}\``).join(', ') +
    ' (each `data` is a schema named `SdkEvent…`). Retries and their schedule are the lending API\'s (13 attempts over about 2.8 days). ' +
    '**Sandbox:** BVN `00000000000` is unknown to the identity registry and a last name `Mismatch` does not match it; the bureau decides by the BVN\'s ' +
    'last digit: `9` delinquent (declined), `1` thin file (risk band C), `3`, `5`, `7` good (band B), any other good (band A).',
};

const API_DESCRIPTION = `
The lending partner API: push credit decisions, issue offers, run loans on the service's rails.

**Envelope.** Every JSON response is \`{status, success, message, data?, error?, docUrl?, meta?}\`. Read the HTTP status first and
\`error\` (a machine-readable code) second; \`message\` is for people.

**Authentication.** Send the key pair as \`X-API-Public-Key\` + \`X-API-Secret-Key\`, or as \`Authorization: ApiKey <public>:<secret>\`.
The key prefix sets the mode: \`pk_test_\`/\`sk_test_\` reach the sandbox, \`pk_live_\`/\`sk_live_\` the live stack. Test and live
records never see each other. The organisation always comes from the credential: another organisation's record answers 404.

**Restricted keys (scopes).** A key pair is either full access (the default, and every key made before scopes existed) or
restricted to scopes, one per area and level: \`<area>:read\` reaches the area's GET operations, \`<area>:write\` every operation
of the area (write includes read). The scopes belong to the pair: the public key is never a credential on its own, so both halves
carry the same ones. Each operation names its scope in \`x-required-scope\` and in its description; a restricted key without it
gets 403 \`insufficient_scope\` with \`data.requiredScope\`, before anything is read or changed (an \`Idempotency-Key\` sent with it is
not used up). Keys and their scopes are made on the dashboard, where a member may grant only the scopes their role may act on.
The Checkout routes take a checkout-session token, never a key, and need no scope. Areas: ${API_SCOPE_AREAS.map((area) => `\`${area}\` (${API_SCOPE_AREA_LABELS[area]})`).join(', ')}.

**Checkout sessions.** \`POST /v1/loans/{id}/checkout-sessions\` mints a restricted borrower credential for one loan
(\`cs_test_…\`/\`cs_live_…\`, shown once); one is also minted whenever an offer issues (the loan's \`applicationUrl\`). The checkout
server sends it as \`Authorization: CheckoutSession <token>\` to the Checkout routes (\`/v1/checkout/…\`), which act on that loan only
and take no API key; every other route refuses a session token with 403 \`credential_not_allowed\`.

**Money.** Every amount is an integer number of kobo (int64). Naira floats such as \`balanceNaira\` are display-only.

**Idempotency.** Every POST accepts \`Idempotency-Key\` (1-255 printable ASCII characters). The first request executes and its
response (success or 4xx) is stored for at least 24 hours, per key and credential; a replay returns it with
\`Idempotent-Replayed: true\`. Reusing a key with another method, path or body answers 409 \`IDEMPOTENCY_KEY_CONFLICT\`; a
replay while the first request is still running answers 409 \`IDEMPOTENCY_KEY_IN_USE\`. 5xx answers are never stored.
Stored responses are encrypted at rest (they can hold a signing secret or a checkout token) and the body fingerprint is a keyed hash;
a replay returns the stored response byte for byte.

**Rate limits.** Per API key, over a rolling window that starts at the key's first request, with separate budgets for reads
(GET) and writes, plus a burst allowance. Every response carries \`RateLimit-Policy\` and \`RateLimit\`
(draft-ietf-httpapi-ratelimit-headers); a 429 carries \`Retry-After\` in seconds.

**Pricing conventions.** All amounts are integer kobo, rounded half-to-even to the kobo on every computed amount; equal
splits put the residue on the last part (flooring the equal parts instead when rounding would make the last negative), so
schedule rows always sum exactly to the totals. The rate is annual nominal (the pushed rate for \`partner_pushed\` loans,
otherwise the product's), pro-rated on a 365-day year over actual days. Instalments follow the repayment frequency
(daily 1 day, weekly 7, biweekly 14, monthly 30; monthly when none): count = ceil(tenorDays / periodDays), the last period
ending at tenorDays; due dates count from disbursement (from approval until then). \`flat\`: interest = principal × rate ×
tenorDays / 365, split equally; principal split equally. \`reducing_balance\`: equal instalments (annuity at the regular
period's rate = rate × periodDays / 365), each period's interest on the outstanding principal for its actual days, the last
instalment clearing the principal. Processing fee = principal × processingFeeBps / 10,000 + processingFeeFlatKobo; a
borrower-borne insurance premium = principal × insurancePremiumBps / 10,000; both are spread equally over the instalments.
A late fee of lateFeeBps on an instalment's unpaid amount is added once when it becomes overdue. outstandingKobo =
principal + cost of credit − paid. APR is the effective annual rate of the borrower's cash flows. Each issued offer freezes
an immutable pricing snapshot with its own \`documentReference\`.

**Sandbox (test keys).** KYC: BVN 22222222222 verifies, 00000000000 fails, 11111111111 is pending once then verifies,
any other BVN verifies. AML: a borrower whose last name is \`Sanctioned\` (any case) screens as a hit. Bank lookup: account
names derive from bank code and number; first nine digits 999999999 are not found, 888888888 make the lookup unavailable.
OTP messages land in the inbox at \`GET /sandbox/sms?phone=…\`. Live mode never honours these values.

**Names.** Every name the API accepts (borrowers, participants, guarantors, signatures, account and bank names) refuses
control characters (C0/C1, NUL included) and bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
U+2066–U+2069): 400 \`invalid_request\` whose message starts with the field's path (\`body.borrower.firstName: …\`).

**Errors.** Every error answer is \`{status, success: false, message, error, docUrl, data?}\`: \`docUrl\` links the code's entry in the error
reference at [/docs/errors](/docs/errors), which says what it means and what to do. The codes: ${Object.entries(ERROR_STATUS)
  .map(([code, status]) => `\`${code}\` (${status})`)
  .join(', ')}.
`.trim();

const ErrorEnvelope = z
  .object({
    status: z.number().int(),
    success: z.literal(false),
    message: z.string().meta({ description: 'For people; not for parsing.' }),
    error: z.string().meta({ description: 'Machine-readable error code; every code is listed at `/docs/errors`.' }),
    docUrl: z
      .string()
      .meta({
        format: 'uri',
        description: 'The code\'s entry in the error reference: `<base>/docs/errors#<code>`, the base being PUBLIC_BASE_URL or else the origin the request was sent to.',
        example: 'https://api.example.com/docs/errors#NOT_FOUND',
      }),
    data: z.object({}).optional().meta({ additionalProperties: true, description: 'Only for errors that carry something to act on (named in the error reference).' }),
  })
  .meta({ id: 'ErrorEnvelope', description: 'An error answer: read the status, then `error`; `docUrl` says what it means and what to do.' });

const PageMetaSchema = z
  .object({ total: z.number().int(), page: z.number().int(), limit: z.number().int(), hasNext: z.boolean() })
  .meta({ id: 'PageMeta' });

const COMMON_ERRORS: ErrorCode[] = ['invalid_request', 'UNAUTHENTICATED', 'LOAN_TENANT_PERMISSION_DENIED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

const SESSION_ERRORS: ErrorCode[] = ['checkout_session_expired', 'checkout_otp_required'];
/** The example code of a status no route-specific code covers. */
const FALLBACK_ERRORS: ErrorCode[] = ['NOT_FOUND', 'IDEMPOTENCY_KEY_CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'unprocessable', 'SANDBOX_ONLY', 'rail_unavailable'];

/** An error answer as the API sends it, for the document's examples. */
function errorExample(code: ErrorCode, serverUrl: string) {
  return { status: ERROR_STATUS[code], success: false, message: ERROR_DOCS[code].meaning, error: code, docUrl: errorDocUrl(serverUrl, code) };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed input; `message` names the field.',
  401: 'Missing, unknown or revoked key pair (checkout routes: unknown, expired or revoked session token).',
  403: 'Permission missing, organisation disabled, feature switched off, a live key on a sandbox route, the wrong kind of credential for the route, or a restricted key without the route\'s scope (`insufficient_scope`, `data.requiredScope`).',
  404: 'No such record for this organisation and mode.',
  409: 'Conflict with the current state, or an idempotency conflict.',
  413: 'Body too large.',
  415: 'Body is not application/json.',
  422: 'Well-formed but unusable input; `error` names the problem.',
  429: 'Rate limited; honour Retry-After.',
  500: 'A bug on our side; safe to retry, never cached by idempotency.',
  503: 'The database is unavailable for a moment (`data.reason: database_unavailable`, Retry-After: 1): nothing was changed; send the same request again, with the same Idempotency-Key.',
};

function successEnvelope(route: RouteSpec) {
  if (route.response.bare && route.response.data) return route.response.data;
  const shape: Record<string, z.ZodType> = {
    status: z.literal(route.response.status),
    success: z.literal(true),
    message: z.string(),
  };
  if (route.response.data) shape.data = route.response.data;
  if (route.response.paginated) shape.meta = PageMetaSchema;
  return z.object(shape);
}

export function buildOpenApiDocument(routes: RouteSpec[], serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const publicKey = registry.registerComponent('securitySchemes', 'PublicKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Public-Key',
    description: 'Public key (pk_test_… or pk_live_…); send with X-API-Secret-Key.',
  });
  const secretKey = registry.registerComponent('securitySchemes', 'SecretKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Secret-Key',
    description: 'Secret key (sk_…); server side only, never in a browser.',
  });
  const combined = registry.registerComponent('securitySchemes', 'ApiKeyAuthorization', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Alternative form: `ApiKey <public>:<secret>`.',
  });
  const checkoutSession = registry.registerComponent('securitySchemes', 'CheckoutSession', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      '`CheckoutSession <token>` (`cs_test_…`/`cs_live_…`): a borrower-session token minted for one loan. Accepted only on the Checkout routes; refused (403 `credential_not_allowed`) everywhere else.',
  });

  const borrowerSession = registry.registerComponent('securitySchemes', 'BorrowerSession', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      '`BorrowerSession <token>` (`bs_test_…`/`bs_live_…`): a borrower\'s own credential for their loans with one lender, minted by the partner (`POST /v1/loans/{id}/borrower-sessions`) or by signing in with the phone (`POST /v1/borrower/sign-in/send`, `/verify`: no credential). Accepted only on the Borrower routes.',
  });

  // Webhook bodies are not requests to this API; their schemas are published as components.
  for (const schema of [WebhookEnvelopeSchema, ...Object.values(EVENT_CATALOGUE), SdkWebhookEnvelopeSchema, ...Object.values(SDK_EVENT_CATALOGUE)]) {
    const json = JSON.stringify(z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'output' })).replaceAll('#/definitions/', '#/components/schemas/');
    const { definitions } = JSON.parse(json) as { definitions: Record<string, object> };
    for (const [name, definition] of Object.entries(definitions)) registry.registerComponent('schemas', name, definition as never);
  }

  for (const route of routes) {
    const statuses = new Set(
      [...COMMON_ERRORS, ...(route.errors ?? []), ...(route.method !== 'get' ? (['IDEMPOTENCY_KEY_CONFLICT'] as ErrorCode[]) : [])].map(
        (code) => ERROR_STATUS[code],
      ),
    );
    const sessionRoute = route.access === 'checkoutSession' || route.access === 'expiredCheckoutSession';
    const scope = requiredScope(route);
    if (route.access === 'preapproval' || route.access === 'sandbox' || sessionRoute || route.access === 'borrowerSession' || scope) statuses.add(403);
    if (sessionRoute || route.access === 'borrowerSession') statuses.add(401);
    if (route.body) statuses.add(413).add(415);
    const candidates: ErrorCode[] = [...(route.errors ?? []), ...(sessionRoute ? SESSION_ERRORS : []), ...(scope ? (['insufficient_scope'] as ErrorCode[]) : []), ...COMMON_ERRORS, ...FALLBACK_ERRORS];
    const errorResponses = Object.fromEntries(
      [...statuses]
        .sort()
        .map((status) => {
          const code = candidates.find((candidate) => ERROR_STATUS[candidate] === status);
          return [
            String(status),
            {
              description: STATUS_TEXT[status] ?? 'Error.',
              content: { 'application/json': { schema: ErrorEnvelope, ...(code ? { example: errorExample(code, serverUrl) } : {}) } },
            },
          ];
        }),
    );
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: scope ? `${route.description ? `${route.description}\n\n` : ''}**Scope:** \`${scope}\` (a restricted key without it: 403 \`insufficient_scope\`).` : route.description,
      ...(scope ? { 'x-required-scope': scope } : {}),
      security:
        sessionRoute
          ? [{ [checkoutSession.name]: [] }]
          : route.access === 'borrowerSession'
            ? [{ [borrowerSession.name]: [] }]
            : [{ [publicKey.name]: [], [secretKey.name]: [] }, { [combined.name]: [] }],
      request: {
        params: route.params as never,
        query: route.query as never,
        headers:
          route.method === 'get'
            ? undefined
            : z.object({
                'Idempotency-Key': z
                  .string()
                  .min(1)
                  .max(255)
                  .optional()
                  .meta({ description: 'Makes a retry safe: the first response is stored and replayed for 24 hours.' }),
              }),
        // A body that an empty object satisfies (every field optional) may be left out: the route reads a missing body as `{}`.
        body: route.body ? { required: !route.body.safeParse({}).success, content: { 'application/json': { schema: route.body } } } : undefined,
      },
      responses: {
        [String(route.response.status)]: {
          description: route.response.description,
          content: route.response.contentType
            ? { [route.response.contentType]: { schema: z.string() } }
            : { 'application/json': { schema: successEnvelope(route) } },
        },
        ...errorResponses,
      },
    });
  }

  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Lending Partner API',
      version: '1.0.0',
      description: API_DESCRIPTION,
      license: { name: 'Proprietary', url: `${serverUrl}/api-docs` },
      contact: { name: 'Partner support', email: 'partners@example.com' },
    },
    servers: [{ url: serverUrl, description: 'This deployment' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
  });
  addOperationExamples(document as never);
  return document;
}
