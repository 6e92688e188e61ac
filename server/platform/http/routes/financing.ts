import { z } from 'zod';
import { FINANCING_STATUSES } from '../../domain/financing/financing-application';
import { initiateFinancing } from '../../domain/financing/initiate-financing';
import { FINANCING_MANDATE_RAILS, MANDATE_STAGES, pollFinancingMandate, setUpFinancingMandate } from '../../domain/financing/financing-mandate';
import { listSdkDeliveries, redeliverSdk, SDK_DELIVERY_STATUSES } from '../../domain/financing/sdk-event-log';
import { SDK_EVENT_NAMES } from '../../domain/financing/financing-events';
import { createEndpoint, listEndpoints } from '../../domain/webhooks/endpoint';
import { cancelFinancing, getFinancingStatus } from '../../domain/financing/financing-status';
import { defineRoute } from '../route';
import { webhookAddressPolicy } from '../../../shared/address-policy';
import { IdParams, Timestamp, Uuid, safeName } from '../schemas';

const TAG = 'Patient financing';

const LoanParams = z.object({ loanId: Uuid.meta({ description: 'The `sdkReference` of the initiation.' }) });

const InitiationSchema = z
  .object({
    sdkReference: Uuid.meta({ description: 'The service\'s id of this initiation and of its loan (`loanId` in the other routes).' }),
    clientReference: z.string(),
    applicationUrl: z.string().meta({ format: 'uri', description: 'The hosted application: send the patient there (browser or webview). It is a credential: do not log it.' }),
    status: z.enum(FINANCING_STATUSES).meta({
      description:
        'The application\'s status: `initiated` → `application_submitted` (identity matched) → `approved` | ' +
        '`rejected` → `offer_accepted` | `offer_rejected` → `disbursed` (mandate live, amount settled to the partner) → `completed` | `defaulted`; ' +
        '`cancelled` and `expired` end an application before disbursement.',
    }),
    expiresAt: Timestamp.meta({ description: 'When the hosted application closes if the patient has not signed (`FINANCING_APPLICATION_TTL_HOURS`, 72 h).' }),
  })
  .meta({ id: 'SdkLoanInitiation' });

const AMOUNT_DESCRIPTION =
  '**Integer kobo (naira × 100), not naira.** ₦150,000.00 is `15000000`. Sending naira finances a hundredth of the amount: `150000` means ₦1,500.00. ' +
  'Fractions, strings, zero and negatives are refused (400); an amount outside the credit policy\'s range (₦5,000 to ₦2,000,000 by default) answers ' +
  '422 `treatment_amount_outside_policy`, whose message shows the naira value and, when × 100 would fit, the amount you probably meant.';

const InitiateBody = z
  .object({
    clientReference: z.string().trim().min(1).max(255).meta({ description: 'Unique per organisation (and mode): the idempotency key of the initiation.' }),
    invoiceReference: z.string().trim().min(1).max(255).nullable().optional().meta({ description: 'The invoice financed; may repeat across initiations.' }),
    firstName: safeName({ max: 100 }).meta({ description: 'The patient\'s first name (it must match the identity the patient proves).' }),
    phoneNumber: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .meta({ description: 'A Nigerian mobile number: `08012345678`, `2348012345678` or `+2348012345678` (spaces allowed); stored as E.164. The OTP goes here.' }),
    treatment: z.string().trim().min(1).max(500).meta({ description: 'What is financed.' }),
    treatmentAmount: z
      .number({ error: 'must be a number of kobo (naira × 100)' })
      .int({ error: 'must be a whole number of kobo (naira × 100): fractions of a kobo are refused' })
      .positive({ error: 'must be above zero (kobo)' })
      .max(Number.MAX_SAFE_INTEGER)
      .meta({ format: 'int64', description: AMOUNT_DESCRIPTION }),
  })
  .strict();

const MandateProgressSchema = z
  .object({
    sdkReference: Uuid,
    applicationStatus: z.enum(FINANCING_STATUSES),
    stage: z.enum(MANDATE_STAGES).meta({
      description:
        '`awaiting_offer` (not signed yet), `awaiting_bank_account` (signed, no account to debit), `ready` (an account is known; POST creates the authorisation), ' +
        '`awaiting_authorisation` (the patient has not approved at the provider), `awaiting_confirmation` (approved, the provider has not confirmed: this lags), ' +
        '`active` (live: the loan is disbursed to you), `failed` (refused, cancelled or expired: POST again), `closed` (the application ended unsigned).',
    }),
    authorizationUrl: z.string().nullable().meta({ format: 'uri', description: 'The provider\'s page where the patient authorises the debit (no bank credentials pass through the service or you).' }),
    mandate: z
      .object({
        id: Uuid,
        status: z.string(),
        provider: z.string().meta({ description: 'The rail: `rail_a` (Paystack) or `rail_b` (Mono).' }),
        bankCode: z.string().nullable(),
        accountNumberLast4: z.string().nullable(),
        activatedAt: Timestamp.nullable(),
        createdAt: Timestamp,
      })
      .nullable(),
  })
  .meta({ id: 'SdkMandateProgress', description: 'The patient\'s progress through direct-debit set-up.' });

const SdkDeliverySchema = z
  .object({
    id: Uuid.meta({ description: 'The delivery id (redeliver with it).' }),
    eventId: z.string().meta({ description: 'Sent as `X-Service-Event-Id`; the same across retries and redeliveries: de-duplicate on it.' }),
    event: z.enum(SDK_EVENT_NAMES),
    endpointId: Uuid.nullable(),
    targetUrl: z.string().meta({ format: 'uri' }),
    status: z.enum(SDK_DELIVERY_STATUSES).meta({
      description: '`pending`, `delivering` (an attempt in flight), `succeeded` (2xx), `failed` (will retry at `nextAttemptAt`), `dead` (no more attempts unless redelivered).',
    }),
    attemptCount: z.number().int(),
    maxAttempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable().meta({ description: 'The last attempt\'s transport error or an excerpt of the non-2xx answer; null after a success.' }),
    nextAttemptAt: Timestamp.nullable(),
    deliveredAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    data: z.looseObject({}).meta({ additionalProperties: true, description: 'The event\'s `data` as delivered (see the `SdkEvent…` schemas).' }),
  })
  .meta({ id: 'SdkWebhookDelivery' });

const SdkEndpointSchema = z
  .object({
    id: Uuid,
    url: z.string().meta({ format: 'uri' }),
    description: z.string().nullable(),
    events: z.array(z.string()).nullable(),
    mode: z.enum(['live', 'test']),
    status: z.enum(['active', 'disabled']),
    createdAt: Timestamp,
  })
  .meta({ id: 'SdkWebhookEndpoint' });

export const financingRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/v1/sdk/loans/initiate',
    operationId: 'sdkInitiateLoan',
    tag: TAG,
    summary: 'Initiate patient financing',
    description:
      'Starts a financing application for a patient and returns the `applicationUrl` of the hosted application (OTP, identity, bureau check, decision, offer, ' +
      'direct debit). The service is the lender; you follow progress by webhooks (`loan.initiated` is sent now) or `GET /sdk/loans/{loanId}`.\n\n' +
      `**treatmentAmount is in kobo.** ${AMOUNT_DESCRIPTION}\n\n` +
      '**Idempotency.** `clientReference` is unique per organisation: the same body again returns the same initiation (201, same `sdkReference`, ' +
      '`applicationUrl` and `expiresAt`); another body with the same `clientReference` answers 409 `client_reference_conflict` (with `data.sdkReference`). ' +
      'Bodies are compared after normalisation (the phone as E.164, strings trimmed). A concurrent duplicate may answer 409 `client_reference_in_use`: retry it.',
    access: 'financing',
    body: InitiateBody,
    response: { status: 201, description: 'The initiation (also on a same-body replay).', data: InitiationSchema },
    errors: ['phone_number_invalid', 'treatment_amount_outside_policy', 'client_reference_conflict', 'client_reference_in_use'],
    async handle({ db, auth, body, platform, now }) {
      const result = await initiateFinancing({ db, platform, now, scope: auth }, body);
      return { status: 201, message: result.created ? 'Loan initiated' : 'Loan initiation already exists (same clientReference and body)', data: result.initiation };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sdk/loans/{loanId}',
    operationId: 'sdkGetLoan',
    tag: TAG,
    summary: 'Read an initiation and its status',
    description: 'The initiation record with its current status (for polling besides webhooks). Another organisation\'s loan answers 404.',
    access: 'financing',
    params: LoanParams,
    response: { status: 200, description: 'The initiation.', data: InitiationSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, platform }) {
      return { message: 'Loan initiation retrieved', data: await getFinancingStatus(db, platform.secrets, auth, params.loanId) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sdk/loans/{loanId}/cancel',
    operationId: 'sdkCancelLoan',
    tag: TAG,
    summary: 'Cancel before disbursement',
    description:
      'The partner calls the application off (the patient changed their mind, the treatment was cancelled). Any time before disbursement; ' +
      'cancelling a cancelled application changes nothing; after disbursement 400 `loan_already_disbursed`; after a rejection or expiry 409 `invalid_loan_state`. ' +
      'Sends `loan.cancelled`.',
    access: 'financing',
    params: LoanParams,
    body: z.object({ reason: z.string().trim().min(1).max(500).optional() }).strict(),
    response: { status: 200, description: 'The initiation, `cancelled`.', data: InitiationSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'loan_already_disbursed', 'invalid_loan_state'],
    async handle({ db, auth, params, body, platform, now }) {
      return { message: 'Loan cancelled', data: await cancelFinancing({ db, platform, now, scope: auth, actor: auth.publicKey }, params.loanId, body.reason ?? null) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sdk/loans/{loanId}/mandate',
    operationId: 'sdkSetUpMandate',
    tag: TAG,
    summary: 'Set up the direct debit (authorisation URL)',
    description:
      'Returns an authorisation URL for the patient (not an active mandate). Send bank details only when the patient gave none in the hosted application: ' +
      '`bankCode` (CBN code) and `accountNumber` (10-digit NUBAN, check digit verified) together or not at all (422 `bank_details_incomplete`); `accountName` ' +
      'and `bankName` are accepted and not needed. Only after the patient signed the offer (409 `invalid_loan_state` before). A mandate already in play is ' +
      'returned (200) instead of a second one, unless new bank details are sent, or another `provider` while the mandate still waits for the patient (that one is ' +
      'then withdrawn at its rail; a live mandate is returned whatever `provider` says). `provider` picks the rail the patient authorises on: ' +
      '`rail_a` (Paystack direct debit, the default) or `rail_b` (Mono Direct Debit; the patient approves on Mono\'s page). Either way the loan is disbursed to ' +
      'you only once the provider confirms the mandate live (read back from the provider; its webhook is only a hint); poll GET or wait for `loan.disbursed`. ' +
      'Live keys: 503 `provider_not_configured` while the chosen rail has no live provider configured (nothing written).',
    access: 'financing',
    params: LoanParams,
    transactional: false,
    body: z
      .object({
        bankCode: z.string().regex(/^\d{3}$/, 'a 3-digit CBN bank code').optional(),
        accountNumber: z.string().regex(/^\d{10}$/, 'a 10-digit NUBAN').optional(),
        accountName: safeName({ max: 150 }).optional(),
        bankName: safeName({ max: 150 }).optional(),
        email: z.email().max(254).optional().meta({ description: 'The patient\'s e-mail for the provider, when the patient gave none.' }),
        provider: z
          .enum(FINANCING_MANDATE_RAILS)
          .optional()
          .meta({ description: 'The direct-debit rail: `rail_a` (Paystack, the default) or `rail_b` (Mono Direct Debit).' }),
      })
      .strict(),
    response: { status: 201, description: 'Created (200: a mandate already in play).', data: MandateProgressSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'bank_details_incomplete', 'bank_not_found', 'account_number_invalid', 'invalid_loan_state', 'bank_account_required', 'rail_unavailable', 'provider_not_configured'],
    async handle({ db, auth, params, body, platform, now }) {
      const result = await setUpFinancingMandate(db as never, platform, auth, params.loanId, body, now);
      return {
        status: result.created ? 201 : 200,
        message: result.created ? 'Send the patient to authorizationUrl' : 'A mandate is already in play',
        data: result.progress,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sdk/loans/{loanId}/mandate',
    operationId: 'sdkGetMandate',
    tag: TAG,
    summary: 'Poll the direct-debit set-up',
    description:
      'The patient\'s progress through mandate set-up, for polling. A mandate still waiting for the provider is read back from it on each call, and a ' +
      'mandate found live releases the loan (you then see `applicationStatus` `disbursed` and receive `loan.disbursed`). Another organisation\'s loan answers 404.',
    access: 'financing',
    params: LoanParams,
    response: { status: 200, description: 'Progress.', data: MandateProgressSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, platform, now }) {
      return { message: 'Mandate progress retrieved', data: await pollFinancingMandate(db as never, platform, auth, params.loanId, now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sdk/events',
    operationId: 'sdkListEvents',
    tag: TAG,
    summary: 'List patient-financing webhook deliveries',
    description: 'The organisation\'s deliveries of patient-financing events (key\'s mode), newest first, each with its status and last error.',
    access: 'financing',
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(100).meta({ description: 'Page size, 1-200 (default 100).' }),
      })
      .strict(),
    response: { status: 200, description: 'Deliveries, newest first.', data: z.array(SdkDeliverySchema) },
    async handle({ db, auth, query, platform }) {
      return { message: 'Events retrieved', data: await listSdkDeliveries(db, platform.secrets, auth, query.limit) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sdk/events/{id}/redeliver',
    operationId: 'sdkRedeliverEvent',
    tag: TAG,
    summary: 'Redeliver a patient-financing webhook',
    description:
      'Queues the delivery again to its endpoint as configured now, with the original body and event name (signed afresh with your current secret key). ' +
      'A redelivered event can describe a loan that has moved on: key handlers on the loan and make them repeatable. 409 `delivery_in_flight` while an ' +
      'attempt is in flight; 409 `webhook_endpoint_unavailable` when the endpoint was deleted or is disabled.',
    access: 'financing',
    params: IdParams,
    response: { status: 200, description: 'The requeued delivery (`pending`).', data: SdkDeliverySchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'delivery_in_flight', 'webhook_endpoint_unavailable'],
    async handle({ db, auth, params, now, platform }) {
      return { message: 'Delivery requeued', data: await redeliverSdk(db, platform.secrets, auth, params.id, now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/sdk/webhook-endpoints',
    operationId: 'sdkRegisterWebhookEndpoint',
    tag: TAG,
    summary: 'Register a patient-financing webhook endpoint',
    description:
      'The endpoint receives the patient-financing events of the key\'s mode as ' +
      '`{event, timestamp, data}` with `X-Service-Event` and `X-Service-Signature` = lowercase hex HMAC-SHA256 of the raw body keyed with your API secret key ' +
      '(the newest unrevoked key pair of the mode; rotating the pair rotates the signing key). `X-Service-Event-Id` is stable across retries. https only ' +
      '(plain http to loopback for test mode). In every mode an IP-literal host must be a public address and a host name must not be a special-use or internal name ' +
      '(`localhost`, `*.local`, `*.internal`, `*.home.arpa`, …; 422 `webhook_url_not_allowed` otherwise, nothing stored); ' +
      'a host name is checked again at each delivery after DNS resolution. Loopback only with `WEBHOOK_ALLOW_LOOPBACK=true` (development). ' +
      'Manage (disable, delete) it with the `/v1/webhook-endpoints` routes.',
    access: 'financing',
    body: z
      .object({
        url: z.url({ protocol: /^https?$/ }).max(512),
        description: z.string().max(255).nullable().optional(),
        events: z.array(z.enum(SDK_EVENT_NAMES)).max(50).nullable().optional().meta({ description: 'Exact event names; empty or null = every event.' }),
      })
      .strict(),
    response: { status: 201, description: 'The endpoint.', data: SdkEndpointSchema },
    errors: ['webhook_url_not_allowed'],
    async handle({ db, auth, body, platform, now }) {
      const { endpoint } = await createEndpoint(db, platform.secrets, auth, { ...body, api: 'sdk' }, now, webhookAddressPolicy(platform.config));
      return { status: 201, message: 'Webhook endpoint registered; deliveries are signed with your API secret key', data: toSdkEndpoint(endpoint) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/sdk/webhook-endpoints',
    operationId: 'sdkListWebhookEndpoints',
    tag: TAG,
    summary: 'List patient-financing webhook endpoints',
    description: 'The key\'s mode, oldest first.',
    access: 'financing',
    response: { status: 200, description: 'Endpoints.', data: z.array(SdkEndpointSchema) },
    async handle({ db, auth }) {
      return { message: 'Webhook endpoints retrieved', data: (await listEndpoints(db, auth)).filter((e) => e.api === 'sdk').map(toSdkEndpoint) };
    },
  }),
];

function toSdkEndpoint(e: { id: string; url: string; description: string | null; events: string[] | null; mode: 'test' | 'live'; status: 'active' | 'disabled'; createdAt: string }) {
  return { id: e.id, url: e.url, description: e.description, events: e.events, mode: e.mode, status: e.status, createdAt: e.createdAt };
}
