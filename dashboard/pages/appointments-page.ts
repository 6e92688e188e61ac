import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';

interface Participant {
  firstName: string;
  lastName: string;
  role: string;
  liveliness: string;
  firstJoinedAt: string | null;
}

interface Appointment {
  _id: string;
  meetingId: string;
  appointmentStartTime: string;
  appointmentEndTime: string;
  appointmentStatus: string;
  participants: Participant[];
  createdAt: string;
}

interface AppointmentDetail extends Appointment {
  cancellationReason: string | null;
  startedAt: string | null;
  endedAt: string | null;
  completedBy: string | null;
  updatedAt: string;
  records: { doctorNotes: number; prescriptions: number; recordings: number; summaries: boolean };
}

const STATUSES = ['scheduled', 'in-progress', 'completed', 'cancelled'];
const BADGE: Record<string, string> = { scheduled: '', 'in-progress': 'warn', completed: 'ok', cancelled: 'bad' };
const names = (list: Participant[], role: string) =>
  list.filter((p) => p.role === role).map((p) => `${p.firstName} ${p.lastName}`).join(', ') || '—';

/**
 * Telemedicine appointments (clinics): the organisation's in this mode, newest start first, a page at a time (keyset),
 * filtered by status and day; an appointment's participants, status and times. No medical notes here.
 */
export class DashAppointmentsPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .filters { display: grid; gap: 0 1rem; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); align-items: end; margin-bottom: 1rem; }
      .filters button { margin-top: 0.75rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0 0 1rem; }
      dt { color: var(--dash-muted); }
      dd { margin: 0; overflow-wrap: anywhere; }
      .more { margin-top: 1rem; }
      /* The visually hidden caption and header text are absolutely positioned: keep them inside the scrolling box. */
      .table-wrap { position: relative; }
      .card h2 { margin: 0; }
      .card .spread { margin-bottom: 0.75rem; }
    `,
  ];
  static override properties = {
    mode: {},
    detail: { state: true },
    detailError: { state: true },
  };
  declare mode: 'test' | 'live';
  declare detail: AppointmentDetail | undefined;
  declare detailError: string;
  private filters = { status: '', from: '', to: '' };
  private list = new KeysetList<Appointment>(this, { path: '/appointments', limit: 25, failure: 'The appointments could not be loaded.', query: () => this.filters });

  constructor() {
    super();
    this.mode = 'test';
    this.detailError = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.load();
  }

  private filter(event: Event) {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.filters = { status: String(data.get('status') ?? ''), from: String(data.get('from') ?? ''), to: String(data.get('to') ?? '') };
    void this.list.load();
  }

  private async open(id: string) {
    this.detailError = '';
    try {
      this.detail = await api.get<AppointmentDetail>(`/appointments/${encodeURIComponent(id)}`);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#detail-heading')?.focus();
    } catch (error) {
      this.detailError = error instanceof DashboardApiError ? error.message : 'The appointment could not be loaded.';
    }
  }

  private renderDetail() {
    const d = this.detail;
    if (this.detailError) return html`<p role="alert" class="error">${this.detailError}</p>`;
    if (!d) return nothing;
    return html`<section class="card" aria-labelledby="detail-heading">
      <div class="spread">
        <h2 id="detail-heading" tabindex="-1">Appointment on ${when(d.appointmentStartTime)}</h2>
        <button class="secondary" @click=${() => (this.detail = undefined)}>Close</button>
      </div>
      <dl>
        <dt>Status</dt><dd><span class="badge ${BADGE[d.appointmentStatus] ?? ''}">${d.appointmentStatus}</span>${d.cancellationReason ? ` (${d.cancellationReason})` : ''}</dd>
        <dt>Scheduled</dt><dd>${when(d.appointmentStartTime)} – ${when(d.appointmentEndTime)}</dd>
        <dt>Started</dt><dd>${when(d.startedAt)}</dd>
        <dt>Ended</dt><dd>${when(d.endedAt)}${d.completedBy ? ` (by ${d.completedBy === 'end_time' ? 'the end time' : d.completedBy})` : ''}</dd>
        <dt>Appointment id</dt><dd class="mono">${d._id}</dd>
        <dt>Meeting id</dt><dd class="mono">${d.meetingId}</dd>
        <dt>Medical records</dt><dd>${d.records.doctorNotes} notes, ${d.records.prescriptions} prescriptions, ${d.records.recordings} recordings${d.records.summaries ? ', summaries' : ''} (read them through the API)</dd>
      </dl>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Participants">
        <table>
          <caption class="visually-hidden">Participants</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Presence</th><th scope="col">First joined</th></tr></thead>
          <tbody>
            ${d.participants.map((p) => html`<tr><td>${p.firstName} ${p.lastName}</td><td>${p.role}</td><td>${p.liveliness}</td><td>${when(p.firstJoinedAt)}</td></tr>`)}
          </tbody>
        </table>
      </div>
    </section>`;
  }

  override render() {
    const filtered = Boolean(this.filters.status || this.filters.from || this.filters.to);
    return html`<h1 tabindex="-1">Appointments</h1>
      <p class="muted">Your ${this.mode} telemedicine appointments, newest first.</p>
      <form class="filters" @submit=${this.filter} aria-label="Filter appointments">
        <div>
          <label for="status">Status</label>
          <select id="status" name="status">
            <option value="">Any status</option>
            ${STATUSES.map((s) => html`<option value=${s} ?selected=${this.filters.status === s}>${s}</option>`)}
          </select>
        </div>
        <div><label for="from">From (day)</label><input id="from" name="from" type="date" .value=${this.filters.from} /></div>
        <div><label for="to">To (day)</label><input id="to" name="to" type="date" .value=${this.filters.to} /></div>
        <div><button type="submit" class="secondary">Apply filters</button></div>
      </form>
      ${this.renderDetail()}
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing}
      ${this.list.rows.length === 0 && !this.list.loading && !this.list.error
        ? html`<div class="card"><p>${filtered ? 'No appointment matches these filters.' : 'No appointments yet.'}</p>
            <p class="hint">${filtered ? 'Change the filters above.' : 'Book one with POST /api/v1/appointment/create using an API key of this mode; it appears here.'}</p></div>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">Appointments</caption>
              <thead><tr><th scope="col">Starts</th><th scope="col">Ends</th><th scope="col">Status</th><th scope="col">Patient</th><th scope="col">Doctor</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
              <tbody>
                ${this.list.rows.map(
                  (a) => html`<tr>
                    <td>${when(a.appointmentStartTime)}</td>
                    <td>${when(a.appointmentEndTime)}</td>
                    <td><span class="badge ${BADGE[a.appointmentStatus] ?? ''}">${a.appointmentStatus}</span></td>
                    <td>${names(a.participants, 'patient')}</td>
                    <td>${names(a.participants, 'doctor')}</td>
                    <td><button class="secondary" @click=${() => this.open(a._id)} aria-label="Details of the appointment on ${when(a.appointmentStartTime)}">Details</button></td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`}
      <p role="status" class="muted">${this.list.loading ? 'Loading…' : ''}</p>
      ${this.list.nextCursor ? html`<button class="secondary more" ?disabled=${this.list.loading} @click=${() => this.list.load(true)}>Load more</button>` : nothing}`;
  }
}
customElements.define('dash-appointments-page', DashAppointmentsPage);
