import type { Tx } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { FinancingApplicationsTable, Mode } from '../../db/schema';
import { newOrderedId } from '../ids';
import type { Secrets } from '../secrets';
import { markOutboxWritten } from '../events/outbox-signal';

/**
 * Patient-financing events (`api = 'sdk'` in the outbox): delivered only to the organisation's `sdk` endpoints, in
 * the spec's envelope, signed with its API secret key. Payloads come from `financingEventData` (explicit fields);
 * their schemas are `SDK_EVENT_CATALOGUE` in events/sdk-catalogue.ts.
 */
export const SDK_EVENT_NAMES = [
  'loan.initiated',
  'loan.application.submitted',
  'loan.approved',
  'loan.rejected',
  'loan.offer.accepted',
  'loan.offer.rejected',
  'loan.disbursed',
  'loan.repayment.due',
  'loan.repayment.completed',
  'loan.completed',
  'loan.cancelled',
  'loan.defaulted',
  'mandate.active',
  // Addition: the dashboard's "send a test event" (events/catalogue.ts `TEST_EVENT`); never emitted by a loan.
  'webhook.test',
] as const;
export type SdkEventName = (typeof SDK_EVENT_NAMES)[number];

/** Sealing purpose of the application URL kept in a stored `loan.initiated` payload (it carries the session token). */
const URL_SEAL_PURPOSE = 'sdk-event-application-url';

/** The fields every patient-financing event carries (the spec's `loan.initiated` sample, for every event). */
export function financingEventData(app: FinancingApplicationsTable, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const [firstName, ...rest] = (app.fullName ?? app.firstName).split(/\s+/);
  return {
    sdkReference: app.id,
    clientReference: app.clientReference,
    invoiceReference: app.invoiceReference,
    status: app.status,
    amount: app.treatmentAmountKobo,
    currency: 'NGN',
    applicant: { firstName: app.fullName ? firstName : app.firstName, lastName: app.fullName ? rest.join(' ') || null : null, gender: null },
    ...extra,
  };
}

export async function enqueueSdkEvent(
  db: Tx,
  options: { organisationId: string; mode: Mode; event: SdkEventName; data: Record<string, unknown>; now: Date },
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: newOrderedId(),
      organisationId: options.organisationId,
      mode: options.mode,
      name: options.event,
      payload: toJson(options.data)!,
      createdAt: options.now.toISOString(),
      fannedOutAt: null,
      api: 'sdk',
    })
    .execute();
  markOutboxWritten(db);
}

/** Emits a patient-financing event for an application, in the caller's transaction (outbox). */
export async function emitFinancingEvent(
  db: Tx,
  app: FinancingApplicationsTable,
  event: SdkEventName,
  now: Date,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await enqueueSdkEvent(db, { organisationId: app.organisationId, mode: app.mode, event, data: financingEventData(app, extra), now });
}

/** `loan.initiated` keeps its `applicationUrl` sealed in the outbox (the URL is a credential); see `publicSdkData`. */
export function sealApplicationUrl(secrets: Pick<Secrets, 'encrypt'>, url: string): Record<string, unknown> {
  return { applicationUrlSealed: secrets.encrypt(URL_SEAL_PURPOSE, url) };
}

/** The `data` a receiver and the event log see: a stored payload with its sealed URL opened. */
export function publicSdkData(payload: unknown, secrets: Pick<Secrets, 'decrypt'>): Record<string, unknown> {
  const data = { ...(fromJson<Record<string, unknown>>(payload) ?? {}) };
  if (typeof data.applicationUrlSealed === 'string') {
    data.applicationUrl = secrets.decrypt(URL_SEAL_PURPOSE, data.applicationUrlSealed);
    delete data.applicationUrlSealed;
  }
  return data;
}
