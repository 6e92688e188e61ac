import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { href } from '../router';
import { dashStyles } from './styles';

interface OrganisationChoice {
  id: string;
  name: string;
  role: string;
  current: boolean;
}

/**
 * The shell's organisation picker: renders nothing for a member of one organisation; otherwise a labelled select.
 * Choosing moves the session (`POST /dashboard/api/session/organisation`) and reloads the dashboard home, so every
 * page, the role and the live switch are those of the chosen organisation.
 */
export class DashOrgSwitcher extends LitElement {
  static override styles = [
    dashStyles,
    css`
      :host { display: inline-block; }
      .picker { display: flex; align-items: center; gap: 0.4rem; }
      label { margin: 0; font-size: 0.9rem; }
      select { width: auto; max-width: 20rem; min-height: 36px; }
    `,
  ];
  static override properties = { choices: { state: true }, busy: { state: true }, error: { state: true } };
  choices: OrganisationChoice[] = [];
  busy = false;
  error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void api
      .get<OrganisationChoice[]>('/organisations')
      .then((choices) => (this.choices = choices))
      .catch(() => (this.choices = []));
  }

  private async choose(select: HTMLSelectElement) {
    const current = this.choices.find((c) => c.current);
    this.busy = true;
    this.error = '';
    try {
      await api.post('/session/organisation', { organisationId: select.value });
      location.assign(href('/'));
    } catch (error) {
      this.error = error instanceof DashboardApiError ? error.message : 'Could not switch. Try again.';
      if (current) select.value = current.id;
      this.busy = false;
    }
  }

  override render() {
    if (this.choices.length < 2) return nothing;
    return html`<div class="picker">
        <label for="org">Organisation</label>
        <select id="org" ?disabled=${this.busy} @change=${(e: Event) => this.choose(e.target as HTMLSelectElement)}>
          ${this.choices.map((c) => html`<option value=${c.id} ?selected=${c.current}>${c.name} (${c.role})</option>`)}
        </select>
      </div>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}`;
  }
}
customElements.define('dash-org-switcher', DashOrgSwitcher);
