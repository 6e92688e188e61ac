import type { Executor } from '../../db/database';
import type { AppointmentStatus } from '../../db/schema';
import { notFound } from '../errors';
import { participantsOf, type AppointmentScope, type ParticipantRow } from './appointment';
import { appointmentHeader } from './appointment-view';

/**
 * The organisation dashboard's appointments: the clinic's staff see when, who and what state — never the
 * medical content (doctor's notes, prescriptions, summaries, recordings) nor a participant's meeting key or link, which
 * stay with the partner API (`GET /api/v1/appointment/{id}`).
 */
export interface DashboardParticipant {
  firstName: string;
  lastName: string;
  role: string;
  liveliness: string;
  firstJoinedAt: string | null;
}

export type DashboardAppointment = ReturnType<typeof appointmentHeader> & { participants: DashboardParticipant[]; createdAt: string };

export interface DashboardAppointmentDetail extends DashboardAppointment {
  cancellationReason: string | null;
  startedAt: string | null;
  endedAt: string | null;
  completedBy: string | null;
  updatedAt: string;
  /** Whether medical records exist (the partner API serves them): counts only, no content. */
  records: { doctorNotes: number; prescriptions: number; recordings: number; summaries: boolean };
}

export interface AppointmentListQuery {
  status?: AppointmentStatus;
  /** `YYYY-MM-DD`: starting on or after this UTC day. */
  from?: string;
  /** `YYYY-MM-DD`: starting on or before this UTC day (inclusive). */
  to?: string;
  /** Keyset: the last row of the previous page (`startTime`, `id`). */
  after?: { at: string; id: string };
  /** Rows to fetch (the caller asks one more than it shows, to know there is a next page). */
  limit: number;
}

const nextDay = (day: string) => new Date(new Date(`${day}T00:00:00.000Z`).getTime() + 86_400_000).toISOString();

const toParticipant = (p: ParticipantRow): DashboardParticipant => ({
  firstName: p.firstName,
  lastName: p.lastName,
  role: p.role,
  liveliness: p.liveliness,
  firstJoinedAt: p.firstJoinedAt,
});

/** Newest start first, keyset-paged on `(start_time, id)` (index `appointments_keyset_idx`): no OFFSET, no COUNT. */
export async function listDashboardAppointments(db: Executor, scope: AppointmentScope, query: AppointmentListQuery): Promise<DashboardAppointment[]> {
  let select = db.selectFrom('appointments').selectAll().where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.from) select = select.where('startTime', '>=', `${query.from}T00:00:00.000Z`);
  if (query.to) select = select.where('startTime', '<', nextDay(query.to));
  const after = query.after;
  if (after) select = select.where((eb) => eb.or([eb('startTime', '<', after.at), eb.and([eb('startTime', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await select.orderBy('startTime', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
  const people = await participantsOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    ...appointmentHeader(row),
    participants: people.filter((p) => p.appointmentId === row.id).map(toParticipant),
    createdAt: row.createdAt,
  }));
}

/** One appointment of the organisation in this mode; another organisation's or mode's id answers 404. */
export async function dashboardAppointment(db: Executor, scope: AppointmentScope, id: string): Promise<DashboardAppointmentDetail> {
  const row = await db
    .selectFrom('appointments')
    .selectAll()
    .where('id', '=', id)
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
  if (!row) throw notFound('appointment');
  const count = async (table: 'appointmentDoctorNotes' | 'appointmentPrescriptions' | 'appointmentRecordings') => {
    const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n')).where('appointmentId', '=', id).executeTakeFirstOrThrow();
    return Number(n);
  };
  return {
    ...appointmentHeader(row),
    participants: (await participantsOf(db, [row.id])).map(toParticipant),
    createdAt: row.createdAt,
    cancellationReason: row.cancellationReason,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    completedBy: row.completedBy,
    updatedAt: row.updatedAt,
    records: {
      doctorNotes: await count('appointmentDoctorNotes'),
      prescriptions: await count('appointmentPrescriptions'),
      recordings: await count('appointmentRecordings'),
      summaries: row.transcriptionSummary !== null || row.patientSummary !== null,
    },
  };
}
