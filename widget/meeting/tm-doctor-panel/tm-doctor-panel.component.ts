import { html, LitElement, nothing } from 'lit';
import { MeetingApiError, type DoctorNote, type MeetingApi, type PrescribedDrug, type Prescription } from '../meeting-api';
import { doctorPanelStyles } from './tm-doctor-panel.styles';

const emptyDrug = (): PrescribedDrug => ({ drugName: '', dosage: '', frequency: '', duration: '' });

/**
 * `<tm-doctor-panel>`: the doctor's forms during the consultation: doctor's notes (symptoms and
 * illnesses, diagnosis, treatment and recommendation, signature) and prescriptions (one or more
 * drugs with dosage, frequency and duration, and additional notes). Each submission is saved at
 * once and shows on the appointment; the prescription PDF link opens the document a pharmacist reads.
 *
 * @event tm-notes-saved, tm-prescription-saved
 */
export class TmDoctorPanel extends LitElement {
  static override styles = doctorPanelStyles;
  static override properties = {
    api: { attribute: false },
    notes: { attribute: false },
    prescriptions: { attribute: false },
    drugs: { state: true },
    notesStatus: { state: true },
    prescriptionStatus: { state: true },
    prescriptionUrl: { state: true },
  };

  declare api: MeetingApi;
  declare notes: DoctorNote[];
  declare prescriptions: Prescription[];
  declare private drugs: PrescribedDrug[];
  declare private notesStatus: { kind: 'idle' | 'saving' | 'saved' | 'error'; text?: string };
  declare private prescriptionStatus: { kind: 'idle' | 'saving' | 'saved' | 'error'; text?: string };
  declare private prescriptionUrl: string | undefined;

  constructor() {
    super();
    this.notes = [];
    this.prescriptions = [];
    this.drugs = [emptyDrug()];
    this.notesStatus = { kind: 'idle' };
    this.prescriptionStatus = { kind: 'idle' };
  }

  private async saveNotes(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const note: DoctorNote = {
      symptomsandIllnesses: String(data.get('symptomsandIllnesses') ?? ''),
      diagnosis: String(data.get('diagnosis') ?? ''),
      treatmentandRecommendation: String(data.get('treatmentandRecommendation') ?? ''),
      doctorSignature: String(data.get('doctorSignature') ?? ''),
    };
    this.notesStatus = { kind: 'saving' };
    try {
      this.notes = (await this.api.saveNotes(note)).doctorNotes;
      this.notesStatus = { kind: 'saved', text: 'Notes saved.' };
      this.dispatchEvent(new CustomEvent('tm-notes-saved', { bubbles: true, composed: true }));
    } catch (error) {
      this.notesStatus = { kind: 'error', text: error instanceof MeetingApiError ? error.message : 'Could not save the notes; try again.' };
    }
  }

  private async savePrescription(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const additionalNotes = String(new FormData(form).get('additionalNotes') ?? '');
    this.prescriptionStatus = { kind: 'saving' };
    try {
      const saved = await this.api.savePrescription({ prescribedDrugs: this.drugs, additionalNotes });
      this.prescriptions = saved.prescriptions;
      this.prescriptionUrl = saved.prescriptionUrl;
      this.drugs = [emptyDrug()];
      form.reset();
      this.prescriptionStatus = { kind: 'saved', text: 'Prescription saved.' };
      this.dispatchEvent(new CustomEvent('tm-prescription-saved', { bubbles: true, composed: true }));
    } catch (error) {
      this.prescriptionStatus = { kind: 'error', text: error instanceof MeetingApiError ? error.message : 'Could not save the prescription; try again.' };
    }
  }

  private setDrug(index: number, field: keyof PrescribedDrug, value: string) {
    this.drugs = this.drugs.map((d, i) => (i === index ? { ...d, [field]: value } : d));
  }

  private status(s: { kind: string; text?: string }) {
    if (s.kind === 'saved') return html`<p class="saved" role="status">${s.text}</p>`;
    if (s.kind === 'error') return html`<p class="error" role="alert">${s.text}</p>`;
    return nothing;
  }

  override render() {
    return html`
      <form @submit=${this.saveNotes} aria-labelledby="notes-heading">
        <h2 id="notes-heading">Doctor's notes</h2>
        <label>Symptoms and illnesses<textarea name="symptomsandIllnesses" required maxlength="4000"></textarea></label>
        <label>Diagnosis<input name="diagnosis" required maxlength="2000" /></label>
        <label>Treatment and recommendation<textarea name="treatmentandRecommendation" required maxlength="4000"></textarea></label>
        <label>Doctor's signature<input name="doctorSignature" required maxlength="200" autocomplete="name" /></label>
        <button type="submit" ?disabled=${this.notesStatus.kind === 'saving'}>Save notes</button>
        ${this.status(this.notesStatus)}
        ${this.notes.length ? html`<p>${this.notes.length} note${this.notes.length === 1 ? '' : 's'} saved; latest diagnosis: ${this.notes.at(-1)!.diagnosis}</p>` : nothing}
      </form>
      <form @submit=${this.savePrescription} aria-labelledby="rx-heading">
        <h2 id="rx-heading">Prescription</h2>
        ${this.drugs.map(
          (drug, i) => html`<fieldset>
            <legend>Drug ${i + 1}</legend>
            <label>Drug name<input required maxlength="200" .value=${drug.drugName} @input=${(e: Event) => this.setDrug(i, 'drugName', (e.target as HTMLInputElement).value)} /></label>
            <label>Dosage<input required maxlength="100" placeholder="500 mg" .value=${drug.dosage} @input=${(e: Event) => this.setDrug(i, 'dosage', (e.target as HTMLInputElement).value)} /></label>
            <label>Frequency<input required maxlength="100" placeholder="three times a day" .value=${drug.frequency} @input=${(e: Event) => this.setDrug(i, 'frequency', (e.target as HTMLInputElement).value)} /></label>
            <label>Duration<input required maxlength="100" placeholder="7 days" .value=${drug.duration} @input=${(e: Event) => this.setDrug(i, 'duration', (e.target as HTMLInputElement).value)} /></label>
            ${this.drugs.length > 1 ? html`<button type="button" class="secondary" @click=${() => (this.drugs = this.drugs.filter((_, j) => j !== i))}>Remove drug ${i + 1}</button>` : nothing}
          </fieldset>`,
        )}
        <button type="button" class="secondary" @click=${() => (this.drugs = [...this.drugs, emptyDrug()])}>Add another drug</button>
        <label>Additional notes<textarea name="additionalNotes" maxlength="2000"></textarea></label>
        <button type="submit" ?disabled=${this.prescriptionStatus.kind === 'saving'}>Save prescription</button>
        ${this.status(this.prescriptionStatus)}
        ${this.prescriptionUrl ? html`<p><a href=${this.prescriptionUrl} target="_blank" rel="noopener">Open the prescription (PDF)</a></p>` : nothing}
        ${this.prescriptions.length
          ? html`<ul>${this.prescriptions.flatMap((p) => p.prescribedDrugs).map((d) => html`<li>${d.drugName} ${d.dosage}, ${d.frequency}, ${d.duration}</li>`)}</ul>`
          : nothing}
      </form>
    `;
  }
}
