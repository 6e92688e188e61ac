import type { Executor } from '../../db/database';
import type { FileStorage } from '../ports';
import type { Secrets } from '../secrets';
import {
  notesOf,
  participantsOf,
  prescriptionsOf,
  toParticipantEntry,
  type AppointmentRow,
  type DoctorNote,
  type ParticipantEntry,
  type ParticipantRow,
  type Prescription,
} from './appointment';
import { signPrescriptionLink } from './prescription-link';

export interface ViewContext {
  db: Executor;
  secrets: Secrets;
  files: FileStorage;
  baseUrl: string;
  now: Date;
  linkTtlSeconds: number;
}

/**
 * The spec's Appointment. `audioRecordingURLs` appears once at least one recording has been
 * processed, the two summaries once generated, `prescriptionUrl` once a prescription exists:
 * before that the fields are absent (not empty), so "not yet" is never mistaken for "none".
 */
export interface AppointmentView {
  _id: string;
  meetingId: string;
  appointmentStartTime: string;
  appointmentEndTime: string;
  appointmentStatus: string;
  organisationId: string;
  authOrgId: string;
  participants: ParticipantEntry[];
  audioRecordingURLs?: string[];
  transcriptionSummary?: string;
  patientSummary?: string;
  prescriptions: Prescription[];
  doctorNotes: DoctorNote[];
  prescriptionUrl?: string;
  cancellationReason?: string;
  createdAt: string;
  updatedAt: string;
}

export function appointmentHeader(row: AppointmentRow) {
  return {
    _id: row.id,
    meetingId: row.meetingId,
    appointmentStartTime: row.startTime,
    appointmentEndTime: row.endTime,
    appointmentStatus: row.status,
    organisationId: row.organisationId,
    authOrgId: row.organisationId,
  };
}

export async function toAppointmentView(ctx: ViewContext, row: AppointmentRow, participants?: ParticipantRow[]): Promise<AppointmentView> {
  const people = participants ?? (await participantsOf(ctx.db, [row.id]));
  const [notes, prescriptions, recordings] = await Promise.all([
    notesOf(ctx.db, row.id),
    prescriptionsOf(ctx.db, row.id),
    ctx.db.selectFrom('appointmentRecordings').select(['storageKey', 'contentType']).where('appointmentId', '=', row.id).where('status', '=', 'ready').orderBy('startedAt').orderBy('id').execute(),
  ]);
  const view: AppointmentView = {
    ...appointmentHeader(row),
    participants: people.map((p) => toParticipantEntry(p, ctx.secrets, ctx.baseUrl)),
    prescriptions,
    doctorNotes: notes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (recordings.length > 0) {
    view.audioRecordingURLs = await Promise.all(
      recordings.map((r) => ctx.files.signedUrl(r.storageKey!, { baseUrl: ctx.baseUrl, now: ctx.now, ttlSeconds: ctx.linkTtlSeconds, contentType: r.contentType })),
    );
  }
  if (row.summarisedAt && row.transcriptionSummary !== null && row.patientSummary !== null) {
    view.transcriptionSummary = row.transcriptionSummary;
    view.patientSummary = row.patientSummary;
  }
  if (prescriptions.length > 0) {
    view.prescriptionUrl = signPrescriptionLink(ctx.secrets, { baseUrl: ctx.baseUrl, appointmentId: row.id, now: ctx.now, ttlSeconds: ctx.linkTtlSeconds }).url;
  }
  if (row.cancellationReason) view.cancellationReason = row.cancellationReason;
  return view;
}
