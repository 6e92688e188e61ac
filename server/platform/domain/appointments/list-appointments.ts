import type { Executor } from '../../db/database';
import type { AppointmentStatus } from '../../db/schema';
import { participantsOf, type AppointmentScope } from './appointment';
import { appointmentHeader } from './appointment-view';

export interface ListAppointmentsOptions {
  db: Executor;
  scope: AppointmentScope;
  page: number;
  limit: number;
  status?: AppointmentStatus;
  /** `YYYY-MM-DD`: appointments starting on or after this UTC day. */
  startDate?: string;
  /** `YYYY-MM-DD`: appointments starting on or before this UTC day (inclusive). */
  endDate?: string;
}

const nextDay = (day: string) => new Date(new Date(`${day}T00:00:00.000Z`).getTime() + 86_400_000).toISOString();

/** One page of the organisation's appointments by start time (earliest first), with the spec's subset of fields. */
export async function listAppointments(options: ListAppointmentsOptions) {
  const { db, scope, page, limit } = options;
  let query = db.selectFrom('appointments').where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.startDate) query = query.where('startTime', '>=', `${options.startDate}T00:00:00.000Z`);
  if (options.endDate) query = query.where('startTime', '<', nextDay(options.endDate));
  const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('startTime').orderBy('id').limit(limit).offset((page - 1) * limit).execute();
  const people = await participantsOf(db, rows.map((r) => r.id));
  const count = Number(total);
  return {
    appointments: rows.map((row) => ({
      ...appointmentHeader(row),
      participants: people
        .filter((p) => p.appointmentId === row.id)
        .map((p) => ({ participant: { firstName: p.firstName, lastName: p.lastName, role: p.role } })),
      createdAt: row.createdAt,
    })),
    total: count,
    page,
    limit,
    totalPages: Math.ceil(count / limit),
  };
}
