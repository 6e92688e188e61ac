import { describe, expect, it } from 'vitest';
import { TemplateSummariser, type ConsultationRecord } from '../../server/integrations/summariser';

const record: ConsultationRecord = {
  patientName: 'Amaka Eze',
  doctorName: 'Tunde Bakare',
  startedAt: '2026-12-01T10:00:00Z',
  endedAt: '2026-12-01T10:17:00Z',
  notes: [{ symptomsandIllnesses: 'fever and chills for three days', diagnosis: 'Uncomplicated malaria.', treatmentandRecommendation: 'rest and fluids', doctorSignature: 'Dr T. Bakare' }],
  prescriptions: [{ prescribedDrugs: [{ drugName: 'Paracetamol', dosage: '1 g', frequency: 'TDS', duration: '5 days' }], additionalNotes: 'take after food' }],
};

describe('the template summariser', () => {
  it('is deterministic', async () => {
    const summariser = new TemplateSummariser();
    expect(await summariser.summarise(record)).toEqual(await summariser.summarise(structuredClone(record)));
  });

  it('writes a clinical note with complaint, assessment, plan, prescription and signature', async () => {
    const { transcriptionSummary } = await new TemplateSummariser().summarise(record);
    expect(transcriptionSummary).toContain('Teleconsultation of 17 minutes between Tunde Bakare (attending) and Amaka Eze (patient).');
    expect(transcriptionSummary).toContain('Presenting complaint: fever and chills for three days. Assessment: uncomplicated malaria. Plan: rest and fluids.');
    expect(transcriptionSummary).toContain('Rx: Paracetamol 1 g, TDS, for 5 days.');
    expect(transcriptionSummary).toContain('Documented and signed by Dr T. Bakare.');
  });

  it('writes to the patient in plain words, abbreviations spelled out, sentences capitalised and ended once', async () => {
    const { patientSummary } = await new TemplateSummariser().summarise(record);
    expect(patientSummary.startsWith('Hello Amaka,')).toBe(true);
    expect(patientSummary).toContain("The doctor's diagnosis is uncomplicated malaria.");
    expect(patientSummary).toContain('What the doctor recommends: Rest and fluids.');
    expect(patientSummary).toContain('- Take Paracetamol (1 g) three times a day for 5 days.');
    expect(patientSummary).toContain('The doctor also says: Take after food.');
    expect(patientSummary).not.toMatch(/\.\./);
  });

  it('says plainly when nothing was documented or prescribed', async () => {
    const { transcriptionSummary, patientSummary } = await new TemplateSummariser().summarise({ ...record, notes: [], prescriptions: [] });
    expect(transcriptionSummary).toContain('No clinical notes were documented for this encounter.');
    expect(transcriptionSummary).toContain('No medication was prescribed.');
    expect(patientSummary).toContain('The doctor did not record a diagnosis for this visit.');
    expect(patientSummary).not.toContain('Your medicines');
  });
});
