import { describe, expect, it } from 'vitest';
import { TemplateSummariser, type ConsultationRecord } from '../../server/integrations/summariser';

const record: ConsultationRecord = {
  patientName: 'Adébáyọ̀ Ọládìpọ̀',
  doctorName: 'Tunde Bakare',
  startedAt: '2026-12-02T09:00:00.000Z',
  endedAt: '2026-12-02T09:20:00.000Z',
  notes: [{ symptomsandIllnesses: 'Fever for three days', diagnosis: 'Uncomplicated malaria', treatmentandRecommendation: 'Rest and fluids', doctorSignature: 'Dr T. Bakare' }],
  prescriptions: [{ prescribedDrugs: [{ drugName: 'Paracetamol', dosage: '1 g', frequency: 'twice daily', duration: '3 days' }], additionalNotes: '' }],
};

describe('the patient summary in the patient\'s language', () => {
  it.each([
    ['yo', 'Ẹ n lẹ́ o Adébáyọ̀, àkótán ìpàdé fídíò yín pẹ̀lú Tunde Bakare nìyí.', 'Àyẹ̀wò dókítà: uncomplicated malaria.'],
    ['ha', 'Sannu Adébáyọ̀, ga taƙaitaccen bayanin ganawarku ta bidiyo da Tunde Bakare.', 'Abin da likita ya gano: uncomplicated malaria.'],
    ['ig', 'Ndewo Adébáyọ̀, nke a bụ nchịkọta nleta vidiyo gị na Tunde Bakare.', 'Ihe dọkịta chọpụtara: uncomplicated malaria.'],
    ['pcm', 'Hello Adébáyọ̀, dis na summary of your video consultation with Tunde Bakare.', 'Wetin di doctor find: uncomplicated malaria.'],
  ] as const)('in %s: the summary\'s own sentences in that language, the doctor\'s words as typed, the clinical summary still English', async (locale, greeting, diagnosis) => {
    const summariser = new TemplateSummariser();

    const english = await summariser.summarise(record);
    const translated = await summariser.summarise({ ...record, locale });

    expect(translated.patientSummary.startsWith(greeting.normalize('NFC'))).toBe(true);
    expect(translated.patientSummary).toContain(diagnosis.normalize('NFC'));
    expect(translated.patientSummary).toContain('Paracetamol (1 g)');
    expect(translated.patientSummary).not.toContain('go to the nearest hospital straight away');
    expect(translated.transcriptionSummary).toBe(english.transcriptionSummary);
  });

  it('in English (or with no language): the English summary as before', async () => {
    const summariser = new TemplateSummariser();

    expect(await summariser.summarise({ ...record, locale: 'en' })).toEqual(await summariser.summarise(record));
  });
});
