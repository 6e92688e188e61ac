import { LOCALES } from '../../shared/locales';
import { z } from 'zod';
import { normalisePhone } from '../domain/users/phone';
import { APPOINTMENT_STATUSES, PARTICIPANT_ROLES } from '../domain/appointments/appointment';
import { Timestamp, Uuid, safeName } from './schemas';

/** Telemedicine (spec part A): request and response schemas, and the appointment events. */

const IsoDateTime = z.iso
  .datetime({ offset: true })
  .meta({ format: 'date-time', example: '2026-12-01T09:00:00.000Z', description: 'ISO 8601 date-time with a zone (`Z` or `+01:00`).' });

const Name = safeName({ max: 100 });

/** The longest appointment the API books. */
export const MAX_APPOINTMENT_MS = 12 * 3_600_000;

const ParticipantInput = z
  .object({
    firstName: Name,
    lastName: Name,
    email: z.email().max(254).optional().meta({ description: 'Optional; a valid address when given.' }),
    phoneNumber: z
      .string()
      .max(30)
      .transform((value, ctx) => {
        const phone = normalisePhone(value);
        if (!phone) {
          ctx.addIssue({ code: 'custom', message: 'not a valid phone number (use +234…, 234… or 080…, or +<country code><number>)' });
          return z.NEVER;
        }
        return phone;
      })
      .optional()
      .meta({ description: 'Optional; `+234…`, `234…` or `080…` (stored as E.164), or any `+<country><number>`.' }),
    role: z.enum(PARTICIPANT_ROLES).meta({ description: '`patient` or `doctor`.' }),
    locale: z
      .enum(LOCALES)
      .optional()
      .meta({
        description:
          'This person\'s language, `en`, `pcm`, `yo`, `ha` or `ig`: their meeting page (its texts, and the states shown before it opens, once ended or cancelled) is in it. ' +
          'A patient\'s is also used for `patientSummary` when the appointment names none. Without it the page uses, for a patient, the appointment\'s `locale`; else the browser\'s `Accept-Language`; else English.',
      }),
  })
  .strict()
  .meta({ id: 'AppointmentParticipantInput' });

/** Start before end, at most 12 hours long; the path names the end field. */
function timesInOrder<T extends Record<string, unknown>>(startKey: keyof T & string, endKey: keyof T & string) {
  return (value: T, ctx: z.core.$RefinementCtx<T>) => {
    const start = new Date(value[startKey] as string).getTime();
    const end = new Date(value[endKey] as string).getTime();
    if (end <= start) ctx.addIssue({ code: 'custom', path: [endKey], message: `must be after ${startKey}` });
    else if (end - start > MAX_APPOINTMENT_MS) ctx.addIssue({ code: 'custom', path: [endKey], message: 'an appointment lasts at most 12 hours' });
  };
}

export const CreateAppointmentBody = z
  .object({
    appointmentStartTime: IsoDateTime,
    appointmentEndTime: IsoDateTime,
    participants: z
      .array(ParticipantInput)
      .min(2)
      .max(10)
      .meta({ description: 'At least one `patient` and one `doctor`; at most 10 people.' }),
    locale: z
      .enum(LOCALES)
      .optional()
      .meta({
        description:
          'The patient\'s language, `en`, `pcm` (Naijá), `yo` (Yorùbá), `ha` (Hausa) or `ig` (Igbo). `patientSummary` is written in it (the doctor\'s own words stay as typed); ' +
          '`transcriptionSummary` stays English, for clinicians. Else the patient participant\'s `locale`, else English. ' +
          'The patients\' meeting pages are in it too, unless a patient has a `locale` of their own (a doctor\'s page follows the doctor\'s `locale`, else the browser\'s `Accept-Language`).',
      }),
  })
  .strict()
  .superRefine(timesInOrder('appointmentStartTime', 'appointmentEndTime'))
  .superRefine((value, ctx) => {
    const roles = new Set(value.participants.map((p) => p.role));
    if (!roles.has('patient') || !roles.has('doctor')) ctx.addIssue({ code: 'custom', path: ['participants'], message: 'needs at least one patient and one doctor' });
  })
  .meta({ id: 'CreateAppointmentInput' });

export const ModifyTimeBody = z
  .object({ startTime: IsoDateTime, endTime: IsoDateTime })
  .strict()
  .superRefine(timesInOrder('startTime', 'endTime'))
  .meta({ id: 'ModifyAppointmentTimeInput' });

export const AppointmentIdQuery = z.object({
  appointmentId: z.string().min(1).max(100).meta({ description: 'The appointment `_id`. An unknown id, or another organisation\'s, answers 404.' }),
});

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'not a calendar date');

export const ListAppointmentsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1).meta({ description: 'Page number from 1 (default 1).' }),
    limit: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'Items per page, 1-100 (default 10).' }),
    appointmentStatus: z
      .string()
      .transform((v) => (v === 'CONFIRMED' ? 'scheduled' : v))
      .pipe(z.enum(APPOINTMENT_STATUSES))
      .optional()
      .meta({ description: '`scheduled`, `in-progress`, `completed` or `cancelled` (a request may write `CONFIRMED` for `scheduled`).' }),
    startDate: Day.optional().meta({ description: 'YYYY-MM-DD: appointments starting on or after this day (UTC).' }),
    endDate: Day.optional().meta({ description: 'YYYY-MM-DD: appointments starting on or before this day (UTC, inclusive).' }),
  })
  .superRefine((v, ctx) => {
    if (v.startDate && v.endDate && v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
  });

const Liveliness = z.enum(['waiting', 'active', 'left']).meta({ description: '`waiting` (never joined), `active` (connected now) or `left` (joined, not connected now).' });

export const ParticipantEntrySchema = z
  .object({
    participant: z.object({
      firstName: z.string(),
      lastName: z.string(),
      email: z.string().nullable(),
      phoneNumber: z.string().nullable().meta({ description: 'E.164.' }),
      role: z.enum(PARTICIPANT_ROLES),
      communicationsUserClientID: z.string().meta({ description: 'This participant\'s id in the meeting (stable for the appointment).' }),
    }),
    participantKey: z.string().meta({ description: 'The participant\'s own secret meeting key (`mk_…`). Give each person only their own.' }),
    participantMeetingLink: z.string().meta({ format: 'uri', description: 'Opens the meeting page for this participant; works from the early-join margin before the start until the consultation completes.' }),
    liveliness: Liveliness,
  })
  .meta({ id: 'AppointmentParticipant' });

const DrugSchema = z.object({ drugName: z.string(), dosage: z.string(), frequency: z.string(), duration: z.string() });
export const PrescriptionSchema = z
  .object({ prescribedDrugs: z.array(DrugSchema), additionalNotes: z.string(), createdAt: Timestamp })
  .meta({ id: 'AppointmentPrescription' });
export const DoctorNoteSchema = z
  .object({ symptomsandIllnesses: z.string(), diagnosis: z.string(), treatmentandRecommendation: z.string(), doctorSignature: z.string(), createdAt: Timestamp })
  .meta({ id: 'AppointmentDoctorNote' });

const Header = {
  _id: Uuid.meta({ description: 'Appointment id.' }),
  meetingId: z.string().meta({ example: 'abc-defg-hij' }),
  appointmentStartTime: Timestamp,
  appointmentEndTime: Timestamp,
  appointmentStatus: z.enum(APPOINTMENT_STATUSES),
  organisationId: Uuid,
  authOrgId: Uuid.meta({ description: 'The organisation the credential belongs to (the same as `organisationId`).' }),
};

export const AppointmentSchema = z
  .object({
    ...Header,
    participants: z.array(ParticipantEntrySchema),
    audioRecordingURLs: z
      .array(z.string())
      .optional()
      .meta({ description: 'Short-lived signed links, one per recorded session (a reconnect makes another). Absent until the first recording is processed (live: ~30 minutes after the end).' }),
    transcriptionSummary: z.string().optional().meta({ description: 'Clinical summary. Absent until generated (live: ~40 minutes after the end).' }),
    patientSummary: z.string().optional().meta({ description: 'Plain-language summary for the patient. Absent until generated, with `transcriptionSummary`.' }),
    prescriptions: z.array(PrescriptionSchema),
    doctorNotes: z.array(DoctorNoteSchema),
    prescriptionUrl: z.string().optional().meta({ format: 'uri', description: 'Short-lived signed link to the prescription PDF; present once a prescription exists.' }),
    cancellationReason: z.enum(['organisation', 'unattended']).optional().meta({ description: 'Why a cancelled appointment was cancelled.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Appointment' });

export const CreateAppointmentResponse = z
  .object({ success: z.literal(true), appointmentId: Uuid, ...Header, participants: z.array(ParticipantEntrySchema) })
  .omit({ _id: true })
  .meta({ id: 'CreateAppointmentResponse' });

export const AppointmentListItemSchema = z
  .object({
    ...Header,
    participants: z.array(z.object({ participant: z.object({ firstName: z.string(), lastName: z.string(), role: z.enum(PARTICIPANT_ROLES) }) })),
    createdAt: Timestamp,
  })
  .meta({ id: 'AppointmentListItem' });

export const AppointmentListResponse = z
  .object({
    success: z.literal(true),
    appointments: z.array(AppointmentListItemSchema),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'AppointmentList' });

export const CancelAppointmentResponse = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'CancelAppointmentResponse' });

export const ModifyTimeResponse = z
  .object({
    success: z.literal(true),
    message: z.string(),
    appointment: z.object({ success: z.literal(true), message: z.string(), updatedAppointment: AppointmentSchema }),
  })
  .meta({ id: 'ModifyAppointmentTimeResponse' });

export const GetAppointmentResponse = AppointmentSchema.extend({ success: z.literal(true) }).meta({ id: 'GetAppointmentResponse' });
