import type { ConsultationRecord, ConsultationSummaries, SpeechToText, Summariser } from '../platform/domain/ports';

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
}
