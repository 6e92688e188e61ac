import { createAppointment } from '../../domain/appointments/create-appointment';
import { cancelAppointment, rescheduleAppointment } from '../../domain/appointments/change-appointment';
import { findAppointment, toParticipantEntry } from '../../domain/appointments/appointment';
import { appointmentHeader, toAppointmentView } from '../../domain/appointments/appointment-view';
import { listAppointments } from '../../domain/appointments/list-appointments';
import { defineRoute, type HandlerContext } from '../route';
import {
  AppointmentIdQuery,
  AppointmentListResponse,
  CancelAppointmentResponse,
  CreateAppointmentBody,
  CreateAppointmentResponse,
  GetAppointmentResponse,
  ListAppointmentsQuery,
  ModifyTimeBody,
  ModifyTimeResponse,
} from '../appointment-schemas';

/**
 * The telemedicine appointment API (spec part A) under `/api/v1`. Response bodies are the spec's own
 * shapes (`bare`), each with `success`; errors use the platform's error envelope
 * `{status, success: false, message, error}`. Tenancy and mode come from the key pair.
 */
const TAG = 'Appointments';

function viewContext(ctx: HandlerContext<unknown, unknown, unknown>) {
  const { platform } = ctx;
  return { db: ctx.db, secrets: platform.secrets, files: platform.files, baseUrl: platform.baseUrl, now: ctx.now, linkTtlSeconds: platform.config.FILE_LINK_TTL_SECONDS };
}

const scopeOf = (ctx: HandlerContext<unknown, unknown, unknown>) => ({ organisationId: ctx.auth.organisationId, mode: ctx.auth.mode });

export const appointmentRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/v1/appointment/create',
    operationId: 'createAppointment',
    tag: TAG,
    summary: 'Book an appointment',
    description:
      'Books an audio/video consultation (`scheduled`) and returns one meeting link per participant, each opened by that participant\'s own key. ' +
      'Required: both times (ISO 8601 with a zone; the start not in the past, the end after it, at most 12 hours), and `participants` with at least one ' +
      '`patient` and one `doctor` (2-10 people), each with `firstName`, `lastName` and `role`; `email` and `phoneNumber` are optional and validated when given. ' +
      'Emits `appointment.created`.',
    access: 'organisation',
    body: CreateAppointmentBody,
    response: { status: 200, description: 'The booked appointment with the participants\' keys and links.', data: CreateAppointmentResponse, bare: true },
    errors: ['appointment_time_in_past'],
    async handle(ctx) {
      const { appointment, participants } = await createAppointment({
        db: ctx.db,
        secrets: ctx.platform.secrets,
        scope: scopeOf(ctx),
        now: ctx.now,
        startTime: new Date(ctx.body.appointmentStartTime),
        endTime: new Date(ctx.body.appointmentEndTime),
        participants: ctx.body.participants,
        locale: ctx.body.locale ?? null,
      });
      const { _id, ...header } = appointmentHeader(appointment);
      return {
        message: 'Appointment created',
        data: { success: true, appointmentId: _id, ...header, participants: participants.map((p) => toParticipantEntry(p, ctx.platform.secrets, ctx.platform.baseUrl)) },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/appointment',
    operationId: 'getAppointment',
    tag: TAG,
    summary: 'Get an appointment',
    description:
      'The full appointment. `prescriptions` and `doctorNotes` show what the doctor submitted as soon as it is submitted; `prescriptionUrl` appears with the ' +
      'first prescription; `audioRecordingURLs` once a recording has been processed and both summaries once generated (configurable delays after the end; ' +
      'live defaults ~30 and ~40 minutes): until then those fields are absent, so poll. Links are signed and short-lived: read the appointment again for fresh ones.',
    access: 'organisation',
    query: AppointmentIdQuery,
    response: { status: 200, description: 'The appointment.', data: GetAppointmentResponse, bare: true },
    errors: ['NOT_FOUND'],
    async handle(ctx) {
      const row = await findAppointment(ctx.db, scopeOf(ctx), ctx.query.appointmentId);
      return { message: 'Appointment retrieved', data: { success: true, ...(await toAppointmentView(viewContext(ctx), row)) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/appointment/organisation',
    operationId: 'listAppointments',
    tag: TAG,
    summary: 'List the organisation\'s appointments',
    description: 'By start time, earliest first. `startDate`/`endDate` filter on the start time\'s UTC day, both inclusive.',
    access: 'organisation',
    query: ListAppointmentsQuery,
    response: { status: 200, description: 'One page of appointments.', data: AppointmentListResponse, bare: true },
    async handle(ctx) {
      const page = await listAppointments({ db: ctx.db, scope: scopeOf(ctx), page: ctx.query.page, limit: ctx.query.limit, status: ctx.query.appointmentStatus, startDate: ctx.query.startDate, endDate: ctx.query.endDate });
      return { message: 'Appointments retrieved', data: { success: true, ...page } };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/v1/appointment/cancel',
    operationId: 'cancelAppointment',
    tag: TAG,
    summary: 'Cancel an appointment',
    description:
      'Only while the start is more than 5 minutes away: 400 `appointment_cancellation_too_late` within 5 minutes, `appointment_already_started` once ' +
      'started or past its start, `invalid_appointment_state` when completed. Cancelling a cancelled appointment succeeds and changes nothing. ' +
      'The meeting links stop working. Emits `appointment.cancelled`.',
    access: 'organisation',
    query: AppointmentIdQuery,
    response: { status: 200, description: '`{success, message}`.', data: CancelAppointmentResponse, bare: true },
    errors: ['NOT_FOUND', 'appointment_cancellation_too_late', 'appointment_already_started', 'invalid_appointment_state'],
    async handle(ctx) {
      const { changed } = await cancelAppointment({ db: ctx.db, scope: scopeOf(ctx), now: ctx.now, appointmentId: ctx.query.appointmentId });
      const message = changed ? 'Appointment cancelled' : 'Appointment was already cancelled';
      return { message, data: { success: true, message } };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/v1/appointment/modify-time',
    operationId: 'modifyAppointmentTime',
    tag: TAG,
    summary: 'Reschedule an appointment',
    description:
      'New `startTime` and `endTime` for a `scheduled` appointment, which stays `scheduled` (an upper-case `CONFIRMED` means this ' +
      'status; the API always answers in lower case). A start in the past answers 400 `appointment_time_in_past` telling the caller to cancel instead. ' +
      'Participant keys and links stay valid. Emits `appointment.rescheduled`.',
    access: 'organisation',
    query: AppointmentIdQuery,
    body: ModifyTimeBody,
    response: { status: 200, description: 'The updated appointment, under `appointment.updatedAppointment`.', data: ModifyTimeResponse, bare: true },
    errors: ['NOT_FOUND', 'appointment_time_in_past', 'invalid_appointment_state'],
    async handle(ctx) {
      const row = await rescheduleAppointment({
        db: ctx.db,
        scope: scopeOf(ctx),
        now: ctx.now,
        appointmentId: ctx.query.appointmentId,
        startTime: new Date(ctx.body.startTime),
        endTime: new Date(ctx.body.endTime),
      });
      const message = 'Appointment rescheduled';
      return {
        message,
        data: { success: true, message, appointment: { success: true, message, updatedAppointment: await toAppointmentView(viewContext(ctx), row) } },
      };
    },
  }),
];
