import { z } from 'zod';
import { KoboAmount, Timestamp, Uuid } from '../contract-fields';
import { FINANCING_STATUSES } from './financing-application';
import type { SdkEventName } from './financing-events';
import { TestEventData } from '../events/catalogue';

/**
 * The patient-financing event catalogue (spec B): each event's `data`, as `financingEventData` builds it. Strict:
 * every test app checks its sdk outbox against these. The HTTP layer publishes them with the envelope
 * (`http/sdk-event-schemas.ts`).
 */
const Base = {
  sdkReference: Uuid.meta({ description: 'The initiation (and loan) id: `loanId` in `/sdk/loans/{loanId}/…`.' }),
  clientReference: z.string().meta({ description: 'The partner\'s own reference, as sent to initiate.' }),
  invoiceReference: z.string().nullable(),
  status: z.enum(FINANCING_STATUSES).meta({ description: 'The application\'s status after this event (see `SdkLoanInitiation.status`).' }),
  amount: KoboAmount.meta({ description: 'The treatment amount financed, integer kobo (minor unit).' }),
  currency: z.literal('NGN'),
  applicant: z
    .object({
      firstName: z.string(),
      lastName: z.string().nullable().meta({ description: 'Null until the patient gives their full name in the hosted application.' }),
      gender: z.string().nullable().meta({ description: 'Not collected: always null.' }),
    })
    .strict(),
};

const sdkEvent = (id: string, description: string, extra: z.ZodRawShape = {}) => z.object({ ...Base, ...extra }).strict().meta({ id, description });

const TenorOptionSchema = z
  .object({
    tenorMonths: z.number().int(),
    instalmentKobo: KoboAmount.meta({ description: 'The largest monthly instalment.' }),
    totalRepayableKobo: KoboAmount,
  })
  .strict();

/** Stored payloads keep the application URL sealed (`applicationUrlSealed`); the published one has `applicationUrl`. */
export const SDK_EVENT_CATALOGUE = {
  'loan.initiated': sdkEvent('SdkEventLoanInitiated', 'An application was started from the partner\'s initiation.', {
    applicationUrl: z.string().meta({ format: 'uri', description: 'The hosted application to send the patient to.' }),
  }),
  'loan.application.submitted': sdkEvent('SdkEventLoanApplicationSubmitted', 'The patient completed identity (phone OTP, full name, BVN and date of birth matched).', {
    submittedAt: Timestamp,
  }),
  'loan.approved': sdkEvent('SdkEventLoanApproved', 'The service approved the loan (bureau check, credit policy and AML screen, or a person cleared the check that waited for one); the patient chooses a tenor and signs. Reconcile on `loan.disbursed`, not on this.', {
    riskBand: z.enum(['A', 'B', 'C']),
    annualRateBps: z.number().int(),
    tenorOptions: z.array(TenorOptionSchema),
    decidedAt: Timestamp,
  }),
  'loan.rejected': sdkEvent('SdkEventLoanRejected', 'The loan was declined; terminal.', {
    reason: z.enum(['identity_mismatch', 'delinquent', 'amount_above_risk_limit', 'unaffordable', 'outside_policy', 'declined_on_review']),
    decidedAt: Timestamp,
  }),
  'loan.offer.accepted': sdkEvent('SdkEventLoanOfferAccepted', 'The patient signed the offer; the direct debit is set up next.', {
    documentReference: z.string(),
    tenorMonths: z.number().int(),
    totalRepayableKobo: KoboAmount,
    termsAcceptedAt: Timestamp,
  }),
  'loan.offer.rejected': sdkEvent('SdkEventLoanOfferRejected', 'The patient declined the offer; terminal.', {
    documentReference: z.string(),
    reason: z.string().nullable(),
  }),
  'loan.disbursed': sdkEvent('SdkEventLoanDisbursed', 'The mandate is live and the treatment amount settled to the partner organisation\'s wallet: reconcile on this.', {
    disbursedAmountKobo: KoboAmount,
    disbursedAt: Timestamp,
    disbursementReference: z.string(),
    settledToOrganisationId: Uuid,
  }),
  'loan.repayment.due': sdkEvent('SdkEventLoanRepaymentDue', 'An instalment passed its due date unpaid.', {
    installmentNumber: z.number().int(),
    dueDate: z.string(),
    amountDueKobo: KoboAmount,
  }),
  'loan.repayment.completed': sdkEvent('SdkEventLoanRepaymentCompleted', 'An instalment (or part of one) was collected.', {
    repaymentId: Uuid,
    amountKobo: KoboAmount,
    outstandingKobo: KoboAmount,
  }),
  'loan.completed': sdkEvent('SdkEventLoanCompleted', 'The last instalment was paid and the loan closed.', { amountPaidKobo: KoboAmount }),
  'loan.cancelled': sdkEvent('SdkEventLoanCancelled', 'Cancelled before disbursement, or expired unsigned; terminal.', {
    reason: z.string().nullable(),
  }),
  'loan.defaulted': sdkEvent('SdkEventLoanDefaulted', 'The loan passed the default threshold unpaid.', {
    daysPastDue: z.number().int(),
    outstandingKobo: KoboAmount,
  }),
  'mandate.active': sdkEvent('SdkEventMandateActive', 'The provider confirmed the direct debit live (disbursement follows at once).', {
    mandateId: Uuid,
    provider: z.string(),
  }),
  'webhook.test': TestEventData('SdkEventWebhookTest'),
} as const satisfies Record<SdkEventName, z.ZodObject>;
