import type { Tx } from '../../db/database';
import type { Mode } from '../scope';
import type { AppointmentRow } from './appointment';
import { emitAppointmentEvent } from './appointment-events';

/** The configured processing delays, per mode (test keys get short ones so a sandbox shows results quickly). */
export interface ConsultationDelays {
  recordingDelaySeconds: number;
  summaryDelaySeconds: number;
}

export function delaysFor(config: {
  APPOINTMENT_RECORDING_DELAY_SECONDS: number;
  APPOINTMENT_SUMMARY_DELAY_SECONDS: number;
  APPOINTMENT_TEST_RECORDING_DELAY_SECONDS: number;
  APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS: number;
}, mode: Mode): ConsultationDelays {
  return mode === 'test'
    ? { recordingDelaySeconds: config.APPOINTMENT_TEST_RECORDING_DELAY_SECONDS, summaryDelaySeconds: config.APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS }
    : { recordingDelaySeconds: config.APPOINTMENT_RECORDING_DELAY_SECONDS, summaryDelaySeconds: config.APPOINTMENT_SUMMARY_DELAY_SECONDS };
}

/**
 * `in-progress` → `completed` (by the doctor, or by the sweep once the end time has passed), with
 * `appointment.completed` in the same transaction. The summaries fall due `summaryDelaySeconds`
 * later. Returns null when the appointment was not in progress (already completed: nothing changes).
 */
export async function completeAppointment(db: Tx, appointment: AppointmentRow, options: { now: Date; by: 'doctor' | 'end_time'; delays: ConsultationDelays }): Promise<AppointmentRow | null> {
  const stamp = options.now.toISOString();
  const completed = await db
    .updateTable('appointments')
    .set({
      status: 'completed',
      endedAt: stamp,
      completedBy: options.by,
      summaryDueAt: new Date(options.now.getTime() + options.delays.summaryDelaySeconds * 1000).toISOString(),
      updatedAt: stamp,
    })
    .where('id', '=', appointment.id)
    .where('status', '=', 'in-progress')
    .returningAll()
    .executeTakeFirst();
  if (!completed) return null;
  await db.updateTable('appointmentParticipants').set({ liveliness: 'left', connections: 0, updatedAt: stamp }).where('appointmentId', '=', appointment.id).where('liveliness', '=', 'active').execute();
  await emitAppointmentEvent(db, completed, 'appointment.completed', options.now, { endedAt: stamp, completedBy: options.by });
  return completed;
}
