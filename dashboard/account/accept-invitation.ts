import { html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { currentLocation, href } from '../router';
import { dashStyles } from '../ui/styles';

interface InvitationInfo {
  organisationName: string;
  email: string;
  role: string;
  expiresAt: string;
  hasAccount: boolean;
}

const messageOf = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * Accepting an invitation (the e-mailed `/dashboard/accept-invitation?token=…`): shows which organisation and role,
 * then asks for the account's password (an existing account) or a new one (a new person, same rules as sign-up).
 * On success a session exists in the inviting organisation and `signed-in` fires, so the shell opens the dashboard.
 */
export class DashAcceptInvitation extends LitElement {
  static override styles = dashStyles;
  static override properties = { info: { state: true }, error: { state: true }, busy: { state: true }, loading: { state: true } };
  info: InvitationInfo | undefined;
  error = '';
  busy = false;
  loading = true;

  private token = () => currentLocation().query.get('token') ?? '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.describe();
  }

  private async describe() {
    try {
      this.info = await api.post<InvitationInfo>('/invitations/describe', { token: this.token() });
    } catch (error) {
      this.error = error instanceof DashboardApiError && error.code === 'invalid_request' ? 'This invitation link is incomplete. Open the link from the e-mail again.' : messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  private async accept(event: SubmitEvent) {
    event.preventDefault();
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      const data = await api.post<{ csrfToken: string }>('/invitations/accept', { token: this.token(), password: new FormData(event.target as HTMLFormElement).get('password') });
      api.csrfToken = data.csrfToken;
      this.dispatchEvent(new CustomEvent('signed-in', { detail: { next: '/' }, bubbles: true, composed: true }));
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const alert = this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing;
    if (this.loading) return html`<h1>Join an organisation</h1><p role="status">Checking your invitation…</p>`;
    const info = this.info;
    if (!info) return html`<h1>Join an organisation</h1>${alert}<p><a href=${href('/sign-in')}>Sign in</a></p>`;
    return html`<h1>Join ${info.organisationName}</h1>
      <p>You are invited as <strong>${info.role}</strong>, with the e-mail <strong>${info.email}</strong>.</p>
      ${alert}
      <form @submit=${(e: SubmitEvent) => this.accept(e)}>
        <input type="email" name="username" autocomplete="username" .value=${info.email} hidden readonly aria-hidden="true" tabindex="-1" />
        ${info.hasAccount
          ? html`<p class="muted">You already have a dashboard account: enter its password to join.</p>
              <label for="password">Password</label>
              <input id="password" name="password" type="password" required autocomplete="current-password" maxlength="512" />`
          : html`<label for="password">Choose a password</label>
              <input id="password" name="password" type="password" required autocomplete="new-password" maxlength="512" aria-describedby="password-hint" />
              <p class="hint" id="password-hint">At least 15 characters. A few unrelated words make a strong one.</p>`}
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Joining…' : `Join ${info.organisationName}`}</button>
      </form>`;
  }
}
customElements.define('dash-accept-invitation', DashAcceptInvitation);
