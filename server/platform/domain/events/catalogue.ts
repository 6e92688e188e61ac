import { z } from 'zod';
import { KoboAmount, Timestamp, Uuid } from '../contract-fields';
import { APPOINTMENT_STATUSES, PARTICIPANT_ROLES } from '../appointments/appointment';

/**
 * The event catalogue: every event the lending and telemedicine APIs write to the outbox, with the `data` its
 * explicit mapper builds. `enqueueEvent` takes only these names; the HTTP layer publishes the schemas in the
 * OpenAPI document. Strict objects: a test checks every event the suites emit against these, so a payload field
 * cannot appear without being documented here. (Patient-financing events: `sdk-catalogue.ts`.)
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

/* Appointment events (an addition: the telemedicine spec shows no webhooks). */
const EventBase = {
  appointmentId: Uuid,
  meetingId: z.string(),
  appointmentStatus: z.enum(APPOINTMENT_STATUSES),
  appointmentStartTime: Timestamp,
  appointmentEndTime: Timestamp,
};
const appointmentEvent = (id: string, description: string, extra: z.ZodRawShape = {}) => z.object({ ...EventBase, ...extra }).strict().meta({ id, description });

const APPOINTMENT_EVENTS = {
  'appointment.created': appointmentEvent('EventAppointmentCreated', 'An appointment was booked (`scheduled`).', {
    participants: z.array(z.object({ role: z.enum(PARTICIPANT_ROLES), communicationsUserClientID: z.string() }).strict()),
  }),
  'appointment.rescheduled': appointmentEvent('EventAppointmentRescheduled', 'New times; still `scheduled`.', {
    previousStartTime: Timestamp,
    previousEndTime: Timestamp,
  }),
  'appointment.cancelled': appointmentEvent('EventAppointmentCancelled', 'Cancelled by the organisation, or `unattended` (nobody joined before the end time).', {
    reason: z.enum(['organisation', 'unattended']),
  }),
  'appointment.started': appointmentEvent('EventAppointmentStarted', 'The first participant joined inside the window (`in-progress`).', {
    startedAt: Timestamp,
    firstParticipantRole: z.enum(PARTICIPANT_ROLES),
  }),
  'appointment.completed': appointmentEvent('EventAppointmentCompleted', 'The doctor ended the consultation, or its end time passed after it started.', {
    endedAt: Timestamp,
    completedBy: z.enum(['doctor', 'end_time']),
  }),
  'appointment.recording.ready': appointmentEvent('EventAppointmentRecordingReady', 'A recording was processed; `GET /appointment` lists a fresh signed link for it.', {
    recordingId: Uuid,
    contentType: z.string(),
    bytes: z.number().int(),
  }),
  'appointment.summary.ready': appointmentEvent('EventAppointmentSummaryReady', '`transcriptionSummary` and `patientSummary` are on the appointment.'),
} as const satisfies Record<string, z.ZodObject>;

/**
 * The test event: sent only when someone asks for it ("send a test event" on the dashboard's webhooks page), to that one
 * endpoint whatever its event filter, signed and retried like any other event. It describes nothing that happened:
 * answer 2xx and ignore it. The patient-financing catalogue has the same name and data.
 */
export const TEST_EVENT = 'webhook.test';
export const TestEventData = (id: string) =>
  z
    .object({
      endpointId: Uuid.meta({ description: 'The endpoint it was sent to.' }),
      message: z.string().meta({ description: 'Says that this is a test.' }),
    })
    .strict()
    .meta({ id, description: 'A test event sent from the dashboard to one endpoint; nothing happened. Answer 2xx and ignore it.' });

/** Every event name the lending and telemedicine APIs emit, with its `data` schema. */
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
  [TEST_EVENT]: TestEventData('EventWebhookTest'),
} as const satisfies Record<string, z.ZodObject>;

/** An event name of the lending and telemedicine APIs: what `enqueueEvent` accepts. */
export type EventName = keyof typeof EVENT_CATALOGUE;

/** The names, in catalogue order (the OpenAPI enum and `GET /v1/events?event=`). */
export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];
