import crypto from 'node:crypto';
import type { Tx } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { randomToken, type Secrets } from '../secrets';
import { PARTICIPANT_KEY_PURPOSE, type AppointmentRow, type AppointmentScope, type ParticipantRole, type ParticipantRow } from './appointment';
import { emitAppointmentEvent } from './appointment-events';
import type { Locale } from '../../../shared/locales';

export interface NewParticipant {
  firstName: string;
  lastName: string;
  email?: string;
  /** Already normalised to E.164 by the request schema. */
  phoneNumber?: string;
  role: ParticipantRole;
  /** The participant's language (a patient's: their meeting page and summary use it). */
  locale?: Locale | null;
}

export interface CreateAppointmentOptions {
  db: Tx;
  secrets: Secrets;
  scope: AppointmentScope;
  now: Date;
  startTime: Date;
  endTime: Date;
  participants: NewParticipant[];
  /** The patient's language for the meeting page and `patientSummary`; English when absent. */
  locale?: Locale | null;
}

/** `abc-defg-hij`: easy to read out on a phone call, 26^10 values, unique per deployment. */
function newMeetingId(): string {
  const letters = Array.from(crypto.randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('');
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
}

/** A participant's meeting key: 192 bits, the only thing the meeting link carries. */
export const newParticipantKey = () => `mk_${randomToken(32)}`;

/** Refuses a start in the past (the caller must pick a future slot). */
export function assertNotInPast(start: Date, now: Date, field: string, hint: string): void {
  if (start.getTime() < now.getTime()) {
    throw new AppError('appointment_time_in_past', `${field}: ${start.toISOString()} is in the past. ${hint}`);
  }
}

export async function createAppointment(options: CreateAppointmentOptions): Promise<{ appointment: AppointmentRow; participants: ParticipantRow[] }> {
  const { db, scope, now } = options;
  assertNotInPast(options.startTime, now, 'body.appointmentStartTime', 'Choose a start time in the future.');
  const stamp = now.toISOString();
  const appointment: AppointmentRow = {
    id: newId(),
    organisationId: scope.organisationId,
    mode: scope.mode,
    meetingId: newMeetingId(),
    startTime: options.startTime.toISOString(),
    endTime: options.endTime.toISOString(),
    status: 'scheduled',
    cancellationReason: null,
    startedAt: null,
    endedAt: null,
    completedBy: null,
    summaryDueAt: null,
    transcriptionSummary: null,
    patientSummary: null,
    summarisedAt: null,
    locale: options.locale ?? null,
    createdAt: stamp,
    updatedAt: stamp,
  };
  await db.insertInto('appointments').values(appointment).execute();
  const participants: ParticipantRow[] = options.participants.map((p, position) => {
    const key = newParticipantKey();
    return {
      id: newId(),
      appointmentId: appointment.id,
      position,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email ?? null,
      phoneNumber: p.phoneNumber ?? null,
      role: p.role,
      clientId: newId(),
      keyHash: options.secrets.hmac(PARTICIPANT_KEY_PURPOSE, key),
      keySealed: options.secrets.encrypt(PARTICIPANT_KEY_PURPOSE, key),
      liveliness: 'waiting',
      connections: 0,
      firstJoinedAt: null,
      lastSeenAt: null,
      locale: p.locale ?? null,
      createdAt: stamp,
      updatedAt: stamp,
    };
  });
  await db.insertInto('appointmentParticipants').values(participants).execute();
  await emitAppointmentEvent(db, appointment, 'appointment.created', now, {
    participants: participants.map((p) => ({ role: p.role, communicationsUserClientID: p.clientId })),
  });
  return { appointment, participants };
}
