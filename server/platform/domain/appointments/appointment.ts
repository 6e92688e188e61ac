import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { AppointmentParticipantsTable, AppointmentsTable, AppointmentStatus, Mode } from '../../db/schema';
import { notFound } from '../errors';
import { isUuid } from '../ids';
import type { Secrets } from '../secrets';
import { findOwned } from '../find-owned';

export const APPOINTMENT_STATUSES = ['scheduled', 'in-progress', 'completed', 'cancelled'] as const satisfies readonly AppointmentStatus[];
export const PARTICIPANT_ROLES = ['patient', 'doctor'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];

/** `waiting`: never joined; `active`: connected now; `left`: joined, not connected now. */
export type Liveliness = 'waiting' | 'active' | 'left';

export const PARTICIPANT_KEY_PURPOSE = 'appointment-participant-key';

/** Whose appointments a caller sees: taken from the credential only. */
export interface AppointmentScope {
  organisationId: string;
  mode: Mode;
}

export type AppointmentRow = AppointmentsTable;
export type ParticipantRow = AppointmentParticipantsTable;

export type { DoctorNote, PrescribedDrug, Prescription } from '../../../shared/meeting-contract';
import type { DoctorNote, PrescribedDrug, Prescription } from '../../../shared/meeting-contract';

export interface ParticipantEntry {
  participant: {
    firstName: string;
    lastName: string;
    email: string | null;
    phoneNumber: string | null;
    role: string;
    communicationsUserClientID: string;
  };
  participantKey: string;
  participantMeetingLink: string;
  liveliness: Liveliness;
}

/** The appointment's own row, only within the caller's organisation and mode; anything else is 404. */
export async function findAppointment(db: Executor, scope: AppointmentScope, id: string): Promise<AppointmentRow> {
  if (!isUuid(id)) throw notFound('Appointment');
  return findOwned(db, 'appointments', scope, id, 'Appointment');
}

export async function participantsOf(db: Executor, appointmentIds: string[]): Promise<ParticipantRow[]> {
  if (appointmentIds.length === 0) return [];
  return db.selectFrom('appointmentParticipants').selectAll().where('appointmentId', 'in', appointmentIds).orderBy('appointmentId').orderBy('position').execute();
}

export const meetingLink = (baseUrl: string, participantKey: string) => `${baseUrl}/meet/j/${participantKey}`;

export function toParticipantEntry(row: ParticipantRow, secrets: Secrets, baseUrl: string): ParticipantEntry {
  const key = secrets.decrypt(PARTICIPANT_KEY_PURPOSE, row.keySealed);
  return {
    participant: {
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      role: row.role,
      communicationsUserClientID: row.clientId,
    },
    participantKey: key,
    participantMeetingLink: meetingLink(baseUrl, key),
    liveliness: row.liveliness as Liveliness,
  };
}

export async function notesOf(db: Executor, appointmentId: string): Promise<DoctorNote[]> {
  const rows = await db.selectFrom('appointmentDoctorNotes').selectAll().where('appointmentId', '=', appointmentId).orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => ({
    symptomsandIllnesses: r.symptomsAndIllnesses,
    diagnosis: r.diagnosis,
    treatmentandRecommendation: r.treatmentAndRecommendation,
    doctorSignature: r.doctorSignature,
    createdAt: r.createdAt,
  }));
}

export async function prescriptionsOf(db: Executor, appointmentId: string): Promise<Prescription[]> {
  const rows = await db.selectFrom('appointmentPrescriptions').selectAll().where('appointmentId', '=', appointmentId).orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => ({ prescribedDrugs: fromJson<PrescribedDrug[]>(r.prescribedDrugs) ?? [], additionalNotes: r.additionalNotes, createdAt: r.createdAt }));
}

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();
