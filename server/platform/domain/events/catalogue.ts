import { z } from 'zod';
import { KoboAmount, Timestamp, Uuid } from '../contract-fields';
import { APPOINTMENT_STATUSES, PARTICIPANT_ROLES } from '../appointments/appointment';
import { REPAYMENT_INITIATORS } from '../repayments/repayment-initiator';

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

const ReviewFields = {
  reviewId: Uuid,
  openedReason: z.string().meta({ description: '`aml_not_screened` (live mode without an AML provider) or `aml_hit`; more reasons may be added.' }),
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
  'loan.kyc.attested': loanEvent('EventLoanKycAttested', 'KYC evidence was recorded and the AML screen asked: a partner\'s attestation, a pushed decision, or an approval without attestation (its record\'s source is `tenant_approval`); `pending` = not screened (live mode without a provider), the loan is `under_review`.', {
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
  'loan.insurance.activated': loanEvent(
    'EventLoanInsuranceActivated',
    'The loan\'s insurance policy is in force: live cover the insurer binds by hand was recorded by the service\'s staff (the insurer\'s policy number and document; in live mode two staff members). `GET /v1/loans/{id}/insurance` shows it `active`.',
    {
      insurancePolicyId: Uuid,
      provider: z.string().meta({ description: 'The insurer.' }),
      policyReference: z.string().meta({ description: 'The insurer\'s policy number.' }),
      premiumKobo: KoboAmount,
      activatedAt: Timestamp,
    },
  ),
  'loan.repayment.completed': loanEvent('EventLoanRepaymentCompleted', 'A repayment settled and was allocated fee → interest → principal.', {
    repaymentId: Uuid,
    reference: z.string(),
    method: z.string(),
    initiatedBy: z.enum(REPAYMENT_INITIATORS).meta({ description: 'Who started it: `schedule` (the automatic direct debit of what fell due), `borrower` (their loan page: pay now, pay off), `partner` (`POST /v1/loans/{id}/repayments`).' }),
    amountKobo: KoboAmount,
    feePortionKobo: KoboAmount,
    interestPortionKobo: KoboAmount,
    principalPortionKobo: KoboAmount,
    outstandingKobo: KoboAmount,
  }),
  'loan.completed': loanEvent('EventLoanCompleted', 'Fully repaid.', { amountPaidKobo: KoboAmount }),
  'loan.settlement_quote.created': loanEvent('EventLoanSettlementQuoteCreated', 'The borrower asked what paying the loan off today costs (a borrower session); the quote holds to the end of the Lagos day.', {
    quoteId: Uuid,
    totalKobo: KoboAmount,
    waivedKobo: KoboAmount.meta({ description: 'The scheduled outstanding the quote does not ask for (interest not accrued, fees of instalments not yet due).' }),
    settlementFeeKobo: KoboAmount,
    validUntil: Timestamp,
  }),
  'loan.settlement_quote.paid': loanEvent('EventLoanSettlementQuotePaid', 'The borrower paid a settlement quote: the charge was taken, the waived interest and fees came off the schedule, the mandate was cancelled; `loan.repayment.completed` and `loan.completed` follow in the same transaction.', {
    quoteId: Uuid,
    repaymentId: Uuid,
    totalKobo: KoboAmount,
    waivedKobo: KoboAmount,
    settlementFeeKobo: KoboAmount,
  }),
  'loan.mandate.replaced': loanEvent(
    'EventLoanMandateReplaced',
    'The borrower moved the loan\'s direct debit to another account of theirs (from their loan page): the new mandate is active and the loan is collected from it; the previous one is cancelled (and withdrawn at the rail). `mandate.active` for the new mandate comes in the same transaction. Emitted once per change.',
    {
      previousMandateId: Uuid.meta({ description: 'The mandate the loan was collected from until now; cancelled.' }),
      mandateId: Uuid.meta({ description: 'The mandate the loan is collected from from now on.' }),
    },
  ),
  'loan.defaulted': loanEvent('EventLoanDefaulted', 'Days past due reached the default threshold.', {
    daysPastDue: z.number().int(),
    outstandingKobo: KoboAmount,
    arrearsSince: Timestamp.nullable(),
  }),
  'review.opened': loanEvent('EventReviewOpened', 'The loan waits for a person: a review was opened (`GET /v1/reviews/{reviewId}` has its evidence). Clear or reject it.', ReviewFields),
  'review.closed': loanEvent('EventReviewClosed', 'A person decided the review (`cleared`: the loan moved on as an automatic pass would have; `rejected`: the loan is rejected), or the loan was cancelled or rejected meanwhile (`cancelled`).', {
    ...ReviewFields,
    closedReason: z.enum(['cleared', 'rejected', 'cancelled']),
    note: z.string().nullable().meta({ description: 'The decision\'s reason, as given.' }),
  }),
  'mandate.active': loanEvent('EventMandateActive', 'The provider confirmed the mandate: it is chargeable. Emitted once per mandate.', {
    mandateId: Uuid,
    provider: z.string(),
    status: z.literal('active'),
  }),
  'mandate.expired': loanEvent(
    'EventMandateExpired',
    'The borrower did not authorise the mandate at the rail within `MANDATE_AUTHORISATION_WINDOW_HOURS` of its set-up: it was withdrawn at the rail and will never be charged. The borrower was texted; the checkout offers "Try again" (a fresh mandate, with its own `mandate.active`). Emitted once per mandate.',
    {
      mandateId: Uuid,
      provider: z.string(),
      status: z.literal('expired'),
      createdAt: Timestamp.meta({ description: 'When the mandate was set up (the window counts from it).' }),
    },
  ),
  'loan.reminder.sent': loanEvent(
    'EventLoanReminderSent',
    'A reminder was texted to the borrower, in their language, outside the organisation\'s quiet hours: `debit_upcoming` (the product\'s `reminders.leadDays` before a direct debit) or `debit_failed` (a direct debit failed; the text links to the borrower\'s loan page to pay now). At most one of each kind per instalment.',
    {
      reminderId: Uuid,
      kind: z.enum(['debit_upcoming', 'debit_failed']),
      installmentNumber: z.number().int(),
      dueDate: Timestamp,
      amountKobo: KoboAmount.meta({ description: 'What the text names: what is left of the instalment (upcoming), or the failed charge.' }),
      locale: z.string().meta({ description: 'The language of the text: `en`, `pcm`, `yo`, `ha` or `ig`.' }),
    },
  ),
  ...APPOINTMENT_EVENTS,
  [TEST_EVENT]: TestEventData('EventWebhookTest'),
} as const satisfies Record<string, z.ZodObject>;

/** An event name of the lending and telemedicine APIs: what `enqueueEvent` accepts. */
export type EventName = keyof typeof EVENT_CATALOGUE;

/** The names, in catalogue order (the OpenAPI enum and `GET /v1/events?event=`). */
export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];
