import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Telemedicine (spec part A):
 * - appointments, scoped to organisation and mode, with the consultation's outcome (summaries once generated);
 * - participants, each with a meeting key kept as a keyed hash (lookup) and sealed (shown again on reads);
 * - doctor's notes and prescriptions as submitted from the doctor's meeting page;
 * - recordings: one row per recorded session (a reconnect starts another), chunks in the file store
 *   until the processing step joins them into one file.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('appointments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('meeting_id', 'text', (c) => c.notNull().unique())
    .addColumn('start_time', t.timestamp, (c) => c.notNull())
    .addColumn('end_time', t.timestamp, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancellation_reason', 'text')
    .addColumn('started_at', t.timestamp)
    .addColumn('ended_at', t.timestamp)
    .addColumn('completed_by', 'text')
    .addColumn('summary_due_at', t.timestamp)
    .addColumn('transcription_summary', 'text')
    .addColumn('patient_summary', 'text')
    .addColumn('summarised_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointments_org_start_idx').on('appointments').columns(['organisation_id', 'mode', 'start_time']).execute();
  await db.schema.createIndex('appointments_status_end_idx').on('appointments').columns(['status', 'end_time']).execute();

  await db.schema
    .createTable('appointment_participants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('appointment_id', 'text', (c) => c.notNull().references('appointments.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('liveliness', 'text', (c) => c.notNull())
    .addColumn('connections', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_joined_at', t.timestamp)
    .addColumn('last_seen_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointment_participants_appt_idx').on('appointment_participants').columns(['appointment_id', 'position']).execute();

  await db.schema
    .createTable('appointment_doctor_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('appointment_id', 'text', (c) => c.notNull().references('appointments.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('appointment_participants.id'))
    .addColumn('symptoms_and_illnesses', 'text', (c) => c.notNull())
    .addColumn('diagnosis', 'text', (c) => c.notNull())
    .addColumn('treatment_and_recommendation', 'text', (c) => c.notNull())
    .addColumn('doctor_signature', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointment_doctor_notes_appt_idx').on('appointment_doctor_notes').columns(['appointment_id', 'created_at']).execute();

  await db.schema
    .createTable('appointment_prescriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('appointment_id', 'text', (c) => c.notNull().references('appointments.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('appointment_participants.id'))
    .addColumn('prescribed_drugs', t.json, (c) => c.notNull())
    .addColumn('additional_notes', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointment_prescriptions_appt_idx').on('appointment_prescriptions').columns(['appointment_id', 'created_at']).execute();

  await db.schema
    .createTable('appointment_recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('appointment_id', 'text', (c) => c.notNull().references('appointments.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('appointment_participants.id'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text')
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('finished_at', t.timestamp)
    .addColumn('ready_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointment_recordings_appt_idx').on('appointment_recordings').columns(['appointment_id', 'started_at']).execute();
}
