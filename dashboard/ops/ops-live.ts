import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { day } from '../ui/format';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';

interface Organisation {
  id: string;
  name: string;
  createdAt: string;
  checklist: { verifiedEmail: boolean; product: boolean; fundedPool: boolean; webhookEndpoint: boolean; branding: boolean };
  ready: boolean;
  proposalId: string | null;
}

const CHECKS: Array<[keyof Organisation['checklist'], string]> = [
  ['verifiedEmail', 'Verified owner e-mail'],
  ['product', 'A loan product'],
  ['fundedPool', 'A funded pool'],
  ['webhookEndpoint', 'A webhook endpoint'],
  ['branding', 'Checkout branding'],
];
const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * `<ops-live>`: organisations not yet live with a verified owner, each with its checklist read from its data. "Enable"
 * opens the four-eyes live-enablement proposal (another admin approves it under Proposals); "Refuse" records the
 * reason (and refuses an open proposal). Admins only act; every role reads.
 */
export class OpsLive extends LitElement {
  static override styles = [
    dashStyles,
    css`
      ul.checks { list-style: none; margin: 0; padding: 0; }
      ul.checks li { margin: 0.1rem 0; }
      .yes { color: #1b6e3a; font-weight: 600; }
      .no { color: #a23b00; font-weight: 600; }
      td form { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0; }
      td form input { width: 12rem; max-width: 100%; min-height: 36px; }
      .decision { display: flex; flex-direction: column; gap: 0.4rem; align-items: flex-start; min-width: 0; }
      td button { min-height: 36px; padding: 0.3rem 0.7rem; }
      td .field-error { flex-basis: 100%; margin: 0; }
      .status { margin: 0.5rem 0; }
    `,
  ];
  static override properties = { message: { state: true }, failure: { state: true }, fieldErrors: { state: true } };
  message = '';
  failure = '';
  fieldErrors: Record<string, string> = {};
  private organisations = new KeysetList<Organisation>(this, { client: opsApi, path: '/live-readiness', failure: 'The organisations could not be loaded.' });

  override connectedCallback(): void {
    super.connectedCallback();
    void this.organisations.load();
  }

  private async decide(event: SubmitEvent, o: Organisation) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const action = (event.submitter as HTMLButtonElement | null)?.value === 'refuse' ? 'refuse' : 'enable';
    this.message = '';
    this.failure = '';
    this.fieldErrors = {};
    try {
      const reason = new FormData(form).get('reason');
      if (action === 'refuse') {
        await opsApi.post(`/organisations/${o.id}/refuse-live`, { reason });
        this.message = `${o.name}: live mode refused for now; the partner sees the reason on its dashboard home.`;
      } else {
        const data = await opsApi.post<{ outcome: string }>(`/organisations/${o.id}/enable-live`, { reason });
        this.message = data.outcome === 'proposed' ? `${o.name}: proposed. Another admin must approve it under Proposals.` : `${o.name}: live mode enabled.`;
      }
      form.reset();
      await this.organisations.load();
    } catch (error) {
      const { field, message } = fieldError(error, { reason: 'Reason' }, messageOf(error));
      if (field) this.fieldErrors = { [`live-${o.id}`]: message };
      else this.failure = message;
    }
  }

  private row(o: Organisation) {
    const id = `live-${o.id}`;
    const error = this.fieldErrors[id];
    return html`<tr>
      <td data-label="Organisation">${o.name}</td>
      <td data-label="Signed up">${day(o.createdAt)}</td>
      <td data-label="Checklist"><ul class="checks">${CHECKS.map(([key, label]) =>
        html`<li>${o.checklist[key] ? html`<span class="yes">Yes</span>` : html`<span class="no">Not yet</span>`} ${label}</li>`,
      )}</ul></td>
      <td data-label="Decision"><div class="decision">${o.proposalId
        ? html`<span class="badge warn">Awaiting approval</span>`
        : nothing}
        <form aria-label="Live mode for ${o.name}" @submit=${(e: SubmitEvent) => this.decide(e, o)}>
          <label class="visually-hidden" for=${id}>Reason for ${o.name}</label>
          <input id=${id} name="reason" required minlength="3" maxlength="500" placeholder="Reason" aria-invalid=${error ? 'true' : nothing} aria-describedby=${describedBy(id, false, Boolean(error))} />
          ${o.proposalId ? nothing : html`<button value="enable">Enable</button>`}<button class="secondary" value="refuse">Refuse</button>
          ${fieldErrorLine(id, error)}
        </form></div></td>
    </tr>`;
  }

  override render() {
    const list = this.organisations;
    return html`<h1>Organisations for live mode</h1>
      <p class="muted">Organisations not yet live whose owner verified their e-mail, with what their data shows. Enabling takes two admins.</p>
      <div role="status" class="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}
      <div class="table-wrap has-cards"><table class="cards">
        <thead><tr><th>Organisation</th><th>Signed up</th><th>Checklist</th><th>Decision</th></tr></thead>
        <tbody>${list.rows.map((o) => this.row(o))}</tbody>
      </table></div>
      ${list.rows.length === 0 && !list.loading ? html`<p class="muted">No organisation is waiting for live mode.</p>` : nothing}
      ${list.error ? html`<p role="alert" class="error">${list.error}</p>` : nothing}
      ${list.nextCursor ? html`<button class="secondary" ?disabled=${list.loading !== ''} @click=${() => list.load(true)}>Show more</button>` : nothing}`;
  }
}

customElements.define('ops-live', OpsLive);
