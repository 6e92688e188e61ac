import type { Tx } from '../../db/database';
import { AppError } from '../errors';
import { findAppointment, type AppointmentRow, type AppointmentScope } from './appointment';
import { emitAppointmentEvent } from './appointment-events';
import { assertNotInPast } from './create-appointment';

/** An appointment can be cancelled only while its start is more than this far away. */
export const CANCELLATION_FLOOR_MS = 5 * 60_000;

interface ChangeOptions {
  db: Tx;
  scope: AppointmentScope;
  now: Date;
  appointmentId: string;
}

/**
 * `scheduled` → `cancelled`, while the start is more than 5 minutes away. Cancelling a cancelled
 * appointment changes nothing and succeeds (`changed: false`); a started, completed or imminent one is 400.
 */
export async function cancelAppointment(options: ChangeOptions): Promise<{ appointment: AppointmentRow; changed: boolean }> {
  const { db, now } = options;
  const row = await findAppointment(db, options.scope, options.appointmentId);
  if (row.status === 'cancelled') return { appointment: row, changed: false };
  if (row.status === 'in-progress') {
    throw new AppError('appointment_already_started', 'The appointment has already started and can no longer be cancelled; the doctor can end it from the meeting.');
  }
  if (row.status === 'completed') throw new AppError('invalid_appointment_state', 'The appointment is completed; there is nothing to cancel.');
  const msToStart = new Date(row.startTime).getTime() - now.getTime();
  if (msToStart <= CANCELLATION_FLOOR_MS) {
    throw new AppError(
      msToStart <= 0 ? 'appointment_already_started' : 'appointment_cancellation_too_late',
      msToStart <= 0
        ? 'The appointment start time has passed; it can no longer be cancelled.'
        : 'The appointment starts in 5 minutes or less; it can no longer be cancelled.',
    );
  }
  const stamp = now.toISOString();
  const updated = await db
    .updateTable('appointments')
    .set({ status: 'cancelled', cancellationReason: 'organisation', updatedAt: stamp })
    .where('id', '=', row.id)
    .where('status', '=', 'scheduled')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new AppError('invalid_appointment_state', 'The appointment changed while it was being cancelled; read it again.');
  await emitAppointmentEvent(db, updated, 'appointment.cancelled', now, { reason: 'organisation' });
  return { appointment: updated, changed: true };
}

/**
 * Moves a `scheduled` appointment to new times (it stays `scheduled`; participant keys and links
 * stay valid and follow the new window). A start in the past is refused: cancel instead.
 */
export async function rescheduleAppointment(options: ChangeOptions & { startTime: Date; endTime: Date }): Promise<AppointmentRow> {
  const { db, now } = options;
  const row = await findAppointment(db, options.scope, options.appointmentId);
  if (row.status !== 'scheduled') {
    throw new AppError('invalid_appointment_state', `The appointment is ${row.status}; only a scheduled appointment can be moved.`);
  }
  assertNotInPast(
    options.startTime,
    now,
    'body.startTime',
    'An appointment cannot be moved into the past: cancel it instead (PUT /appointment/cancel) and create a new one.',
  );
  const stamp = now.toISOString();
  const updated = await db
    .updateTable('appointments')
    .set({ startTime: options.startTime.toISOString(), endTime: options.endTime.toISOString(), updatedAt: stamp })
    .where('id', '=', row.id)
    .where('status', '=', 'scheduled')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new AppError('invalid_appointment_state', 'The appointment started or was cancelled meanwhile; read it again.');
  await emitAppointmentEvent(db, updated, 'appointment.rescheduled', now, {
    previousStartTime: row.startTime,
    previousEndTime: row.endTime,
  });
  return updated;
}
