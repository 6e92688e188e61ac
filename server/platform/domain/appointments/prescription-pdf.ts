import type { Executor } from '../../db/database';
import { facts, heading, paragraph, renderLetterPdf, title } from '../offer-letter/letter-pdf';
import { formatDateTimeWat } from '../offer-letter/format-offer-letter';
import { fullName, notesOf, participantsOf, prescriptionsOf, type AppointmentRow } from './appointment';

/**
 * The prescription a pharmacist can act on: prescriber, patient, date, every drug line with dose,
 * frequency and duration, the prescriber's notes and signature. One document per appointment,
 * listing each prescription the doctor submitted, rendered on request from the stored rows (it is a
 * pure function of them, so nothing needs storing).
 */
export async function prescriptionPdf(db: Executor, appointment: AppointmentRow): Promise<Buffer | null> {
  const prescriptions = await prescriptionsOf(db, appointment.id);
  if (prescriptions.length === 0) return null;
  const people = await participantsOf(db, [appointment.id]);
  const notes = await notesOf(db, appointment.id);
  const doctors = people.filter((p) => p.role === 'doctor');
  const patients = people.filter((p) => p.role === 'patient');
  const prescriber = doctors.map(fullName).join(', ');
  const signature = notes.at(-1)?.doctorSignature.trim() || prescriber;
  const issuedAt = prescriptions.at(-1)!.createdAt;
  return renderLetterPdf(
    {
      title: `Prescription ${appointment.meetingId}`,
      author: prescriber,
      subject: `Prescription for ${patients.map(fullName).join(', ')}`,
      createdAt: new Date(issuedAt),
      footer: (page, pages) => `Prescription for teleconsultation ${appointment.meetingId} (appointment ${appointment.id}) - page ${page} of ${pages}`,
    },
    (doc) => {
      title(doc, 'Prescription', [`Teleconsultation ${appointment.meetingId}`, `Issued ${formatDateTimeWat(issuedAt)}`]);
      facts(doc, [
        ['Prescriber', prescriber],
        ...doctors.filter((d) => d.email || d.phoneNumber).map((d) => ['Prescriber contact', [d.email, d.phoneNumber].filter(Boolean).join(', ')] as const),
        ['Patient', patients.map(fullName).join(', ')],
        ...patients.filter((p) => p.phoneNumber).map((p) => ['Patient phone', p.phoneNumber!] as const),
        ['Consultation', `${formatDateTimeWat(appointment.startedAt ?? appointment.startTime)} (video consultation)`],
        ['Date of prescription', formatDateTimeWat(issuedAt)],
      ]);
      const diagnoses = notes.map((n) => n.diagnosis.trim()).filter(Boolean);
      if (diagnoses.length) {
        heading(doc, 'Diagnosis');
        paragraph(doc, diagnoses.join('; '));
      }
      let line = 0;
      heading(doc, 'Medicines', 60);
      for (const prescription of prescriptions) {
        for (const drug of prescription.prescribedDrugs) {
          line += 1;
          paragraph(doc, `${line}. ${drug.drugName}`, { bold: true });
          paragraph(doc, `Dose: ${drug.dosage}    Frequency: ${drug.frequency}    Duration: ${drug.duration}`);
        }
        if (prescription.additionalNotes.trim()) paragraph(doc, `Notes: ${prescription.additionalNotes.trim()}`);
      }
      heading(doc, 'Prescriber\'s signature');
      paragraph(doc, signature, { bold: true });
      paragraph(doc, `${prescriber}, electronically signed on ${formatDateTimeWat(issuedAt)} during the video consultation.`);
    },
  );
}
