import type { ConsultationRecord, ConsultationSummaries, SpeechToText, Summariser } from '../platform/domain/ports';
import type { Locale } from '../shared/locales';

export type { ConsultationRecord, ConsultationSummaries, SpeechToText, Summariser };

const sentence = (text: string) => {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (!trimmed) return '';
  const capitalised = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};
const lowerFirst = (text: string) => {
  const trimmed = text.trim().replace(/\s+/g, ' ').replace(/[.!?]+$/, '');
  return trimmed && !/^[A-Z]{2}/.test(trimmed) ? trimmed[0]!.toLowerCase() + trimmed.slice(1) : trimmed;
};
const listOf = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const firstNameOf = (name: string) => name.split(' ')[0] ?? name;

function minutesBetween(from: string, to: string): number {
  return Math.max(1, Math.round((new Date(to).getTime() - new Date(from).getTime()) / 60_000));
}

function drugLine(d: { drugName: string; dosage: string; frequency: string; duration: string }): string {
  return `${d.drugName} ${d.dosage}, ${lowerFirst(d.frequency)}, for ${lowerFirst(d.duration)}`.replace(/\s+/g, ' ').trim();
}

/** Plain-language wording for the usual prescription abbreviations. */
const FREQUENCY_WORDS: Array<[RegExp, string]> = [
  [/^(od|qd|once daily|once a day|daily)$/i, 'once a day'],
  [/^(bd|bid|twice daily|twice a day)$/i, 'twice a day'],
  [/^(tds|tid|three times daily|three times a day)$/i, 'three times a day'],
  [/^(qds|qid|four times daily|four times a day)$/i, 'four times a day'],
  [/^(nocte|at night)$/i, 'at night'],
  [/^(prn|as needed)$/i, 'when you need it'],
];
function plainFrequency(frequency: string): string {
  const f = frequency.trim();
  return FREQUENCY_WORDS.find(([pattern]) => pattern.test(f))?.[1] ?? lowerFirst(f);
}

/**
 * The patient summary's own sentences in the patient's language (machine-assisted,
 * pending native review). What the doctor typed (complaints, diagnosis, advice, drugs) is quoted as
 * typed: a template cannot translate free text.
 */
interface PatientPhrases {
  and: string;
  hello: (patient: string, doctor: string) => string;
  told: (complaints: string) => string;
  diagnosis: (diagnoses: string) => string;
  noDiagnosis: string;
  recommends: (advice: string) => string;
  medicines: string;
  take: (drug: string, dosage: string, frequency: string, duration: string) => string;
  alsoSays: (notes: string) => string;
  pharmacist: string;
  worse: string;
}

const PATIENT_PHRASES: Record<Exclude<Locale, 'en'>, PatientPhrases> = {
  pcm: {
    and: 'and',
    hello: (p, d) => `Hello ${p}, dis na summary of your video consultation with ${d}.`,
    told: (c) => `You tell di doctor about ${c}.`,
    diagnosis: (d) => `Wetin di doctor find: ${d}.`,
    noDiagnosis: 'Di doctor no write diagnosis for dis visit.',
    recommends: (a) => `Wetin di doctor advise: ${a}`,
    medicines: 'Your medicine:',
    take: (drug, dosage, f, duration) => `Take ${drug} (${dosage}) ${f} for ${duration}.`,
    alsoSays: (n) => `Di doctor still talk say: ${n}`,
    pharmacist: 'Show your prescription to pharmacist to collect dis medicine, and finish all of am even if you don feel better.',
    worse: 'If you feel worse, or you get any new or worrying sign, call your doctor or go di nearest hospital sharp sharp.',
  },
  yo: {
    and: 'àti',
    hello: (p, d) => `Ẹ n lẹ́ o ${p}, àkótán ìpàdé fídíò yín pẹ̀lú ${d} nìyí.`,
    told: (c) => `Ẹ sọ fún dókítà nípa ${c}.`,
    diagnosis: (d) => `Àyẹ̀wò dókítà: ${d}.`,
    noDiagnosis: 'Dókítà kò kọ àyẹ̀wò sílẹ̀ fún ìpàdé yìí.',
    recommends: (a) => `Ìmọ̀ràn dókítà: ${a}`,
    medicines: 'Àwọn oògùn yín:',
    take: (drug, dosage, f, duration) => `Ẹ lo ${drug} (${dosage}): ${f}, fún ${duration}.`,
    alsoSays: (n) => `Dókítà tún sọ pé: ${n}`,
    pharmacist: 'Ẹ fi ìwé oògùn yín han oníṣègùn òyìnbó (pharmacist) láti gba àwọn oògùn wọ̀nyí, kí ẹ sì lò wọ́n tán bí ara yín tilẹ̀ ti yá.',
    worse: 'Tí ara yín bá burú sí i, tàbí tí àmì tuntun tó ń dẹ́rù bà yín bá yọ, ẹ kàn sí dókítà yín tàbí kí ẹ lọ sí ilé-ìwòsàn tó súnmọ́ jù lẹ́sẹ̀kẹsẹ̀.',
  },
  ha: {
    and: 'da',
    hello: (p, d) => `Sannu ${p}, ga taƙaitaccen bayanin ganawarku ta bidiyo da ${d}.`,
    told: (c) => `Kun gaya wa likita game da ${c}.`,
    diagnosis: (d) => `Abin da likita ya gano: ${d}.`,
    noDiagnosis: 'Likita bai rubuta abin da ya gano ba a wannan ganawa.',
    recommends: (a) => `Shawarar likita: ${a}`,
    medicines: 'Magungunanku:',
    take: (drug, dosage, f, duration) => `Ku sha ${drug} (${dosage}): ${f}, na ${duration}.`,
    alsoSays: (n) => `Likita ya kuma ce: ${n}`,
    pharmacist: 'Ku nuna takardar maganinku ga mai sayar da magani don karɓar waɗannan magunguna, kuma ku gama su duka ko da kun ji sauƙi.',
    worse: 'Idan kun ƙara jin rashin lafiya, ko wata sabuwar alama mai tayar da hankali ta bayyana, ku tuntuɓi likitanku ko ku je asibiti mafi kusa nan take.',
  },
  ig: {
    and: 'na',
    hello: (p, d) => `Ndewo ${p}, nke a bụ nchịkọta nleta vidiyo gị na ${d}.`,
    told: (c) => `Ị gwara dọkịta maka ${c}.`,
    diagnosis: (d) => `Ihe dọkịta chọpụtara: ${d}.`,
    noDiagnosis: 'Dọkịta edeghị ihe ọ chọpụtara maka nleta a.',
    recommends: (a) => `Ndụmọdụ dọkịta: ${a}`,
    medicines: 'Ọgwụ gị:',
    take: (drug, dosage, f, duration) => `Ṅụọ ${drug} (${dosage}): ${f}, ruo ${duration}.`,
    alsoSays: (n) => `Dọkịta kwukwara sị: ${n}`,
    pharmacist: 'Gosi onye na-ere ọgwụ akwụkwọ ọgwụ gị iji nweta ọgwụ ndị a, ma ṅụchaa ha niile ọ bụrụgodị na ahụ adịla gị mma.',
    worse: 'Ọ bụrụ na ahụ ka njọ, ma ọ bụ ihe ịrịba ama ọhụrụ na-atụ ụjọ apụta, kpọtụrụ dọkịta gị ma ọ bụ gaa ụlọ ọgwụ kacha nso ozugbo.',
  },
};

export class TemplateSummariser implements Summariser {
  async summarise(record: ConsultationRecord): Promise<ConsultationSummaries> {
    return { transcriptionSummary: this.clinical(record), patientSummary: this.plain(record) };
  }

  private clinical(r: ConsultationRecord): string {
    const minutes = minutesBetween(r.startedAt, r.endedAt);
    const paragraphs: string[] = [`Teleconsultation of ${minutes} minute${minutes === 1 ? '' : 's'} between ${r.doctorName} (attending) and ${r.patientName} (patient).`];
    if (r.notes.length === 0) {
      paragraphs.push('No clinical notes were documented for this encounter.');
    }
    for (const note of r.notes) {
      const parts = [
        note.symptomsandIllnesses && `Presenting complaint: ${lowerFirst(note.symptomsandIllnesses)}.`,
        note.diagnosis && `Assessment: ${lowerFirst(note.diagnosis)}.`,
        note.treatmentandRecommendation && `Plan: ${lowerFirst(note.treatmentandRecommendation)}.`,
      ].filter(Boolean);
      paragraphs.push(parts.join(' '));
    }
    const drugs = r.prescriptions.flatMap((p) => p.prescribedDrugs);
    if (drugs.length > 0) {
      const notes = r.prescriptions.map((p) => p.additionalNotes.trim()).filter(Boolean);
      paragraphs.push(`Rx: ${drugs.map(drugLine).join('; ')}.${notes.length ? ` Prescriber's notes: ${notes.map(sentence).join(' ')}` : ''}`);
    } else {
      paragraphs.push('No medication was prescribed.');
    }
    if (r.transcript) paragraphs.push(`Transcript excerpt: "${r.transcript.trim().slice(0, 400)}${r.transcript.length > 400 ? '…' : ''}"`);
    const signatures = [...new Set(r.notes.map((n) => n.doctorSignature.trim()).filter(Boolean))];
    if (signatures.length) paragraphs.push(`Documented and signed by ${listOf(signatures)}.`);
    return paragraphs.join('\n\n');
  }

  private plain(r: ConsultationRecord): string {
    if (r.locale && r.locale !== 'en') return this.plainIn(r, PATIENT_PHRASES[r.locale]);
    const patient = firstNameOf(r.patientName);
    const paragraphs: string[] = [`Hello ${patient}, this is a summary of your video consultation with ${r.doctorName}.`];
    const complaints = r.notes.map((n) => lowerFirst(n.symptomsandIllnesses)).filter(Boolean);
    const diagnoses = r.notes.map((n) => lowerFirst(n.diagnosis)).filter(Boolean);
    const advice = r.notes.map((n) => sentence(n.treatmentandRecommendation)).filter(Boolean);
    if (complaints.length) paragraphs.push(`You told the doctor about ${listOf(complaints)}.`);
    if (diagnoses.length) paragraphs.push(`The doctor's diagnosis is ${listOf(diagnoses)}.`);
    else paragraphs.push('The doctor did not record a diagnosis for this visit.');
    if (advice.length) paragraphs.push(`What the doctor recommends: ${advice.join(' ')}`);
    const drugs = r.prescriptions.flatMap((p) => p.prescribedDrugs);
    if (drugs.length) {
      const lines = drugs.map((d) => `Take ${d.drugName} (${d.dosage}) ${plainFrequency(d.frequency)} for ${lowerFirst(d.duration)}.`);
      paragraphs.push(`Your medicines:\n${lines.map((l) => `- ${l}`).join('\n')}`);
      const notes = r.prescriptions.map((p) => sentence(p.additionalNotes)).filter(Boolean);
      if (notes.length) paragraphs.push(`The doctor also says: ${notes.join(' ')}`);
      paragraphs.push('Show your prescription to a pharmacist to get these medicines, and finish the full course even if you feel better.');
    }
    paragraphs.push('If you feel worse, or you have any new or worrying symptoms, contact your doctor or go to the nearest hospital straight away.');
    return paragraphs.join('\n\n');
  }

  private plainIn(r: ConsultationRecord, say: PatientPhrases): string {
    const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${say.and} ${items.at(-1)}`);
    const paragraphs: string[] = [say.hello(firstNameOf(r.patientName), r.doctorName)];
    const complaints = r.notes.map((n) => lowerFirst(n.symptomsandIllnesses)).filter(Boolean);
    const diagnoses = r.notes.map((n) => lowerFirst(n.diagnosis)).filter(Boolean);
    const advice = r.notes.map((n) => sentence(n.treatmentandRecommendation)).filter(Boolean);
    if (complaints.length) paragraphs.push(say.told(list(complaints)));
    paragraphs.push(diagnoses.length ? say.diagnosis(list(diagnoses)) : say.noDiagnosis);
    if (advice.length) paragraphs.push(say.recommends(advice.join(' ')));
    const drugs = r.prescriptions.flatMap((p) => p.prescribedDrugs);
    if (drugs.length) {
      const lines = drugs.map((d) => say.take(d.drugName, d.dosage, d.frequency.trim(), d.duration.trim()));
      paragraphs.push(`${say.medicines}\n${lines.map((l) => `- ${l}`).join('\n')}`);
      const notes = r.prescriptions.map((p) => sentence(p.additionalNotes)).filter(Boolean);
      if (notes.length) paragraphs.push(say.alsoSays(notes.join(' ')));
      paragraphs.push(say.pharmacist);
    }
    paragraphs.push(say.worse);
    return paragraphs.join('\n\n').normalize('NFC');
  }
}
