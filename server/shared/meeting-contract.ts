/**
 * The meeting page's contract: the doctor's notes and prescriptions as the platform stores and
 * answers them (`/meet/api`), and the meeting page (`widget/meeting/`) sends them. The domain
 * imports them from here; the page imports nothing else of the server. Types only.
 */

export interface PrescribedDrug {
  drugName: string;
  dosage: string;
  frequency: string;
  duration: string;
}

export interface Prescription {
  prescribedDrugs: PrescribedDrug[];
  additionalNotes: string;
  createdAt: string;
}

export interface DoctorNote {
  symptomsandIllnesses: string;
  diagnosis: string;
  treatmentandRecommendation: string;
  doctorSignature: string;
  createdAt: string;
}
