import type { Executor } from '../../db/database';
import { AppError } from '../errors';
import type { Secrets } from '../secrets';
import { PARTICIPANT_KEY_PURPOSE, type AppointmentRow, type ParticipantRow } from './appointment';

export interface MeetingWindow {
  /** Minutes before the start from which the links open. */
  earlyJoinMinutes: number;
}

export type MeetingClosedReason = 'unknown' | 'too_early' | 'ended' | 'cancelled';

export interface MeetingSeat {
  appointment: AppointmentRow;
  participant: ParticipantRow;
}

/**
 * Whether a meeting is open now: from `earlyJoinMinutes` before the start until the end time, and
 * after the end for as long as it is `in-progress` (an overrunning consultation is not cut off; the
 * sweep completes it). Never once completed or cancelled.
 */
export function meetingClosedReason(appointment: AppointmentRow, now: Date, window: MeetingWindow): MeetingClosedReason | null {
  if (appointment.status === 'cancelled') return 'cancelled';
  if (appointment.status === 'completed') return 'ended';
  const opensAt = new Date(appointment.startTime).getTime() - window.earlyJoinMinutes * 60_000;
  if (now.getTime() < opensAt) return 'too_early';
  if (appointment.status === 'scheduled' && now.getTime() > new Date(appointment.endTime).getTime()) return 'ended';
  return null;
}

/** The appointment and participant a meeting key names, whatever the time (null when the key is unknown). */
export async function findSeat(db: Executor, secrets: Secrets, key: string): Promise<MeetingSeat | null> {
  if (!/^mk_[0-9A-Za-z]{32}$/.test(key)) return null;
  const participant = await db.selectFrom('appointmentParticipants').selectAll().where('keyHash', '=', secrets.hmac(PARTICIPANT_KEY_PURPOSE, key)).executeTakeFirst();
  if (!participant) return null;
  const appointment = await db.selectFrom('appointments').selectAll().where('id', '=', participant.appointmentId).executeTakeFirstOrThrow();
  return { appointment, participant };
}

/** The seat a key opens now, or 403 `meeting_not_open` (the same answer for an unknown key as for a closed meeting). */
export async function openSeat(db: Executor, secrets: Secrets, key: string, now: Date, window: MeetingWindow): Promise<MeetingSeat> {
  const seat = await findSeat(db, secrets, key);
  if (!seat || meetingClosedReason(seat.appointment, now, window)) {
    throw new AppError('meeting_not_open', 'This meeting link is not valid now.');
  }
  return seat;
}

export function assertDoctor(seat: MeetingSeat): void {
  if (seat.participant.role !== 'doctor') throw new AppError('doctor_only', 'Only the doctor can do this.');
}
