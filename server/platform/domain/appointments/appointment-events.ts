import type { Tx } from '../../db/database';
import type { EventName } from '../events/catalogue';
import { enqueueEvent } from '../events/enqueue-event';
import type { AppointmentRow } from './appointment';

export type AppointmentEventName = Extract<EventName, `appointment.${string}`>;

/** The fields every appointment event carries (no participant's personal data: the partner holds it already). */
export function appointmentEventBase(row: AppointmentRow) {
  return {
    appointmentId: row.id,
    meetingId: row.meetingId,
    appointmentStatus: row.status,
    appointmentStartTime: row.startTime,
    appointmentEndTime: row.endTime,
  };
}

/** Writes the event in the caller's transaction, beside the change it reports. */
export async function emitAppointmentEvent(db: Tx, row: AppointmentRow, event: AppointmentEventName, now: Date, extra: Record<string, unknown> = {}): Promise<void> {
  await enqueueEvent(db, { organisationId: row.organisationId, mode: row.mode, event, data: { ...appointmentEventBase(row), ...extra }, now });
}
