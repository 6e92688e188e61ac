import { z } from 'zod';
import { KoboAmount, Timestamp, Uuid } from './schemas';
import { APPOINTMENT_EVENTS } from './appointment-schemas';

/**
 * The webhook contract: the envelope every delivery carries and the `data` of each event, as the
 * explicit mappers in the domain build them. Strict objects: a test checks every event the suites
 * emit against these, so a payload field cannot appear without being documented here.
 */

const LoanEventBase = {
  loanId: Uuid,
  borrowerId: Uuid,
  assessmentId: z.string().nullable().meta({ description: 'The pushed decision\'s `metadata.assessment_id`; null for loans not created from a push.' }),
  status: z.string().meta({ description: 'The loan status after the change.' }),
  principalKobo: KoboAmount,
  clientReference: z.string().nullable().meta({ description: 'The partner\'s own reference, echoed as given.' }),
  metadata: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The partner\'s own metadata, echoed as given.' }),
};

const loanEvent = (id: string, description: string, extra: z.ZodRawShape = {}) =>
  z.object({ ...LoanEventBase, ...extra }).strict().meta({ id, description });

const OfferFields = {
  offerLetterUrl: z.string().meta({ format: 'uri', description: 'Short-lived signed link to the offer letter PDF; needs no API key.' }),
  offerLetterExpiresAt: Timestamp,
  documentReference: z.string().meta({ description: 'The offer the borrower must name when accepting.' }),
};

const PreapprovalReceived = z
  .object({
    preapprovalId: Uuid,
    assessmentId: z.string(),
    borrowerId: Uuid.nullable(),
    clientReference: z.string().nullable(),
    recommendation: z.string(),
    approvedAmountKobo: KoboAmount.nullable(),
    interestRateBps: z.number().int().nullable(),
    tenorDays: z.number().int().nullable(),
    status: z.string(),
    expiresAt: Timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'EventPreapprovalReceived', description: 'First ingest of a push (never on a replay). No raw decision payload, no BVN.' });

const PreapprovalExpired = z
  .object({
    preapprovalId: Uuid,
    assessmentId: z.string(),
    borrowerId: Uuid.nullable(),
    clientReference: z.string().nullable(),
    status: z.literal('expired'),
    expiresAt: Timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'EventPreapprovalExpired', description: 'An unconsumed decision lapsed before an offer was issued.' });

/** Every event name the service emits, with its `data` schema. */
export const EVENT_CATALOGUE = {
  'preapproval.received': PreapprovalReceived,
  'preapproval.expired': PreapprovalExpired,
  'loan.approved': loanEvent('EventLoanApproved', 'Loan created, priced and approved; an offer letter is ready.', OfferFields),
  'loan.offer.issued': loanEvent('EventLoanOfferIssued', 'Fired right after `loan.approved` with the same payload (also on every re-issued offer).', OfferFields),
  'loan.offer.accepted': loanEvent('EventLoanOfferAccepted', 'The borrower accepted the offer (accept-terms).', {
    documentReference: z.string(),
    termsAcceptedAt: Timestamp.nullable(),
  }),
  'loan.offer.declined': loanEvent('EventLoanOfferDeclined', 'The borrower declined the offer; terminal.', {
    documentReference: z.string(),
    reason: z.string().nullable(),
  }),
  'loan.cancelled': loanEvent('EventLoanCancelled', 'Cancelled before disbursement; terminal.', {
    cancelledBy: z.enum(['tenant', 'borrower', 'admin']),
    reason: z.string().nullable(),
  }),
  'loan.kyc.attested': loanEvent('EventLoanKycAttested', 'An attestation was recorded and the AML screen asked; `pending` = not screened (live mode without a provider), the loan is `under_review`.', {
    attestationId: Uuid,
    amlScreenStatus: z.enum(['clear', 'hit', 'pending']),
    schemaVersion: z.number().int(),
  }),
  'loan.disbursed': loanEvent('EventLoanDisbursed', 'Money left the capital pool; the schedule now counts from today.', {
    disbursedAmountKobo: KoboAmount,
    disbursedAt: Timestamp,
    disbursementReference: z.string(),
    settlementDestination: z.string(),
    insurancePolicyId: Uuid.nullable(),
  }),
  'loan.repayment.completed': loanEvent('EventLoanRepaymentCompleted', 'A repayment settled and was allocated fee → interest → principal.', {
    repaymentId: Uuid,
    reference: z.string(),
    method: z.string(),
    amountKobo: KoboAmount,
    feePortionKobo: KoboAmount,
    interestPortionKobo: KoboAmount,
    principalPortionKobo: KoboAmount,
    outstandingKobo: KoboAmount,
  }),
  'loan.completed': loanEvent('EventLoanCompleted', 'Fully repaid.', { amountPaidKobo: KoboAmount }),
  'loan.defaulted': loanEvent('EventLoanDefaulted', 'Days past due reached the default threshold.', {
    daysPastDue: z.number().int(),
    outstandingKobo: KoboAmount,
    arrearsSince: Timestamp.nullable(),
  }),
  'mandate.active': loanEvent('EventMandateActive', 'The provider confirmed the mandate: it is chargeable. Emitted once per mandate.', {
    mandateId: Uuid,
    provider: z.string(),
    status: z.literal('active'),
  }),
  ...APPOINTMENT_EVENTS,
} as const satisfies Record<string, z.ZodObject>;

export type EventName = keyof typeof EVENT_CATALOGUE;

export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];

export const WebhookEnvelopeSchema = z
  .object({
    id: z.string().meta({ description: 'The event id: the same for every endpoint, retry and redelivery. De-duplicate on it.' }),
    event: z.enum(EVENT_NAMES as [EventName, ...EventName[]]),
    timestamp: Timestamp.meta({ description: 'When this attempt was signed (the same instant as `X-Service-Timestamp`).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The event\'s data object; see the `Event…` schemas.' }),
    mode: z.enum(['live', 'test']),
    createdAt: Timestamp.meta({ description: 'When the event happened (its outbox row committed).' }),
  })
  .meta({ id: 'WebhookEnvelope', description: 'The JSON body of every webhook POST.' });

/** The Markdown the API document carries about delivery; kept beside the schemas it describes. */
export const WEBHOOK_DELIVERY_DESCRIPTION = `
Events are written to an outbox in the same transaction as the change they report, then delivered to every active
endpoint of the event's organisation and mode whose \`events\` list names the event exactly (empty or null = all; no
wildcards: \`loan.*\` subscribes to nothing). Delivery is at least once; order is not guaranteed.

**Request.** \`POST\` with the JSON body \`WebhookEnvelope\` and the headers \`X-Service-Signature\` (lowercase hex
HMAC-SHA256 of \`timestamp + "." + rawBody\` keyed with the endpoint's signing secret; during the 24 hours after a secret
rotation, two signatures separated by a comma, either of which verifies), \`X-Service-Timestamp\` (Unix seconds),
\`X-Service-Event-Id\` (stable: de-duplicate on it), \`X-Service-Delivery-Id\` and \`X-Service-Delivery-Attempt\`. Verify over
the raw body, in constant time, and refuse timestamps more than five minutes away.

**Outcome** (the platform's defaults). Any 2xx within 10 seconds is success; redirects are not followed. Anything else is retried after 5 s,
30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, 16 h and 24 h (± 20 % jitter): \`maxAttempts\` is 13, the last about
2.8 days after the first, then the delivery is \`dead\`. A 429 or 503 with \`Retry-After\` waits what it asks (at least 1 s,
at most 24 h). A 410 disables the endpoint at once. An endpoint whose attempts fail 10 times in a row over at least 24
hours is disabled and the organisation's notification address is e-mailed; deliveries waiting for a disabled or deleted
endpoint end as \`dead\` and can be replayed after re-enabling it (\`POST /v1/events/{id}/redeliver\`).

**Live endpoints** must be https and may not resolve to private, loopback, link-local or other non-public addresses
(checked on the address actually connected to). Test-mode endpoints may use plain http to a loopback host.

**Events.** ${EVENT_NAMES.map((name) => `\`${name}\``).join(', ')}; each one's \`data\` is documented as a schema named
\`Event…\` (for example \`EventLoanApproved\`).
`.trim();
