import type { Executor } from '../../db/database';
import { toJson } from '../../db/database';
import { newId } from '../ids';
import type { PrescribedDrug } from './appointment';
import { assertDoctor, type MeetingSeat } from './meeting-access';

export interface DoctorNoteInput {
  symptomsandIllnesses: string;
  diagnosis: string;
  treatmentandRecommendation: string;
  doctorSignature: string;
}

/** Records the doctor's notes as submitted from the doctor's meeting page; they show on the appointment at once. */
export async function submitDoctorNote(db: Executor, seat: MeetingSeat, input: DoctorNoteInput, now: Date): Promise<void> {
  assertDoctor(seat);
  await db
    .insertInto('appointmentDoctorNotes')
    .values({
      id: newId(),
      appointmentId: seat.appointment.id,
      participantId: seat.participant.id,
      symptomsAndIllnesses: input.symptomsandIllnesses,
      diagnosis: input.diagnosis,
      treatmentAndRecommendation: input.treatmentandRecommendation,
      doctorSignature: input.doctorSignature,
      createdAt: now.toISOString(),
    })
    .execute();
  await touch(db, seat, now);
}

/** Records a prescription (one or more drugs); the appointment's prescription PDF includes it from now on. */
export async function submitPrescription(db: Executor, seat: MeetingSeat, input: { prescribedDrugs: PrescribedDrug[]; additionalNotes: string }, now: Date): Promise<void> {
  assertDoctor(seat);
  await db
    .insertInto('appointmentPrescriptions')
    .values({
      id: newId(),
      appointmentId: seat.appointment.id,
      participantId: seat.participant.id,
      prescribedDrugs: toJson(input.prescribedDrugs)!,
      additionalNotes: input.additionalNotes,
      createdAt: now.toISOString(),
    })
    .execute();
  await touch(db, seat, now);
}

const touch = (db: Executor, seat: MeetingSeat, now: Date) =>
  db.updateTable('appointments').set({ updatedAt: now.toISOString() }).where('id', '=', seat.appointment.id).execute();
